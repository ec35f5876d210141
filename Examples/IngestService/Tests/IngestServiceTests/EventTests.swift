import AsyncHTTPClient
import IngestServiceApp
import ModelMapper
import NIOCore
import Testing

/// `POST /event`, content types, limits and `GET /metrics` against the real server.
@Suite("POST /event and refusals", .serialized)
struct EventTests {
    /// The error body of a refused request.
    struct ErrorReply: JSONMappable {
        var error = ""
        var message = ""
        var kind: String? = nil
        var path: String? = nil
        var line: Int? = nil
        var column: Int? = nil
        var offset: Int? = nil
    }

    func postEvent(
        _ server: TestServer, _ text: String, contentType: String? = "application/json"
    ) async throws
        -> (status: Int, error: ErrorReply?)
    {
        let reply = try await server.post("/event", contentType: contentType, body: .bytes(ByteBuffer(string: text)))
        return (reply.status, reply.status == 200 ? nil : try ErrorReply(json: reply.body))
    }

    @Test func goodEventReachesTheStore() async throws {
        try await TestServer.with { server in
            let reply = try await server.post(
                "/event", contentType: "application/json; charset=utf-8",
                body: .bytes(ByteBuffer(string: TweetLines.tweet(id: 77, index: 3))))
            #expect(reply.status == 200)
            #expect(reply.text.contains(#""id":77"#))
            #expect(server.recorded.ids == [77])
        }
    }

    /// Bad documents get 400 with the MappingError's kind, path and position.
    /// A rejected record's path is the document's (MappingError.jsonPath): the client's snake_case keys.
    @Test func rejectionsNameTheDocumentsKeys() async throws {
        try await TestServer.with { server in
            let body = #"{"id":1,"user":{"id":2,"followers_count":"many"}}"# + "\n" + #"{"id":2,"retweet_count":[],"user":{"id":3}}"# + "\n"
            let summary = try await server.postEvents(.bytes(ByteBuffer(string: body)))
            #expect(summary.rejected == 2)
            #expect(summary.rejections.map(\.path) == ["[0].user.followers_count", "[1].retweet_count"])
        }
    }

    @Test func badEventsAreAnsweredWithTheMappingError() async throws {
        try await TestServer.with { server in
            let syntax = try await postEvent(server, "{\"id\":1,\n \"user\":{\"id\":tru}}")
            #expect(syntax.status == 400)
            #expect(syntax.error?.error == "invalidEvent")
            #expect(syntax.error?.kind == "syntax")
            #expect(syntax.error?.line == 2)
            #expect(syntax.error?.column != nil)

            let type = try await postEvent(server, #"{"id":1,"user":7}"#)
            #expect(type.status == 400)
            #expect(type.error?.kind == "typeMismatch")
            #expect(type.error?.path == "user")
            #expect(type.error?.line == 1 && type.error?.column == 16)

            let missing = try await postEvent(server, #"{"user":{"id":2}}"#)
            #expect(missing.status == 400)
            #expect(missing.error?.kind == "missingKey")

            let value = try await postEvent(server, #"{"id":1,"user":{"id":"x"}}"#)
            #expect(value.status == 400)
            #expect(value.error?.path == "user.id")

            // The path as the client's document spells it (MappingError.jsonPath), not Swift's property names.
            let snake = try await postEvent(server, #"{"id":1,"user":{"id":2,"followers_count":"many"}}"#)
            #expect(snake.status == 400)
            #expect(snake.error?.path == "user.followers_count")

            let empty = try await postEvent(server, "")
            #expect(empty.status == 400)
            #expect(empty.error?.kind == "syntax")

            #expect(server.recorded.ids.isEmpty)
            let metrics = try await server.metricsSnapshot()
            #expect(metrics.documentRequests == 6 && metrics.recordsRejected == 6 && metrics.recordsAccepted == 0)
        }
    }

    @Test func oversizedEventIsRefused() async throws {
        try await TestServer.with({ $0.maxEventBodySize = 1000 }) { server in
            let big = #"{"id":1,"user":{"id":2},"text":""# + String(repeating: "a", count: 2000) + #""}"#
            let declared = try await postEvent(server, big)
            #expect(declared.status == 413)
            #expect(declared.error?.error == "contentTooLarge")

            // Without Content-Length the limit applies while the body is read.
            let streamed = try await server.post(
                "/event", contentType: "application/json", body: .stream(ByteBuffer(string: big).chunked(256), length: .unknown))
            #expect(streamed.status == 413)
            #expect(server.recorded.ids.isEmpty)
        }
    }

    /// Each route takes only its content types (415 otherwise), with a UTF-8 charset if any.
    @Test func contentTypes() async throws {
        try await TestServer.with { server in
            let line = ByteBuffer(string: TweetLines.tweet(id: 5, index: 0) + "\n")
            for type in [
                "application/x-ndjson", "application/jsonl", "application/jsonlines; charset=UTF-8",
                "Application/X-NDJSON", "application/x-jsonlines",
            ] {
                let reply = try await server.post("/events", contentType: type, body: .bytes(line))
                #expect(reply.status == 200, "\(type)")
            }
            for type: String? in [
                "text/plain", "application/json-seq", "application/x-ndjson; charset=latin1",
                "application", nil,
            ] {
                let reply = try await server.post("/events", contentType: type, body: .bytes(line))
                #expect(reply.status == 415, "\(type ?? "none")")
                #expect(try ErrorReply(json: reply.body).error == "unsupportedMediaType")
            }
            let event = TweetLines.tweet(id: 6, index: 0)
            #expect(try await postEvent(server, event, contentType: "application/x-ndjson").status == 415)
            #expect(try await postEvent(server, event, contentType: "text/json").status == 415)
            #expect(try await postEvent(server, event, contentType: nil).status == 415)
            #expect(try await postEvent(server, event, contentType: "application/json").status == 200)
            // The same event five times is stored once: the four repeats are duplicates.
            #expect(server.recorded.ids == [5, 6])
            #expect(try await server.metricsSnapshot().recordsDuplicate == 4)
            #expect(try await server.metricsSnapshot().refusedRequests == 8)
        }
    }

    @Test func unknownRoutesAreNotFound() async throws {
        try await TestServer.with { server in
            let reply = try await server.get("/nothing")
            #expect(reply.status == 404)
        }
    }
}

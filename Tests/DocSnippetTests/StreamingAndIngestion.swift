import Foundation
import ModelMapper
import Synchronization
import XCTest

/// The code of StreamingAndIngestion.md.
final class StreamingAndIngestionSnippets: XCTestCase {
    func testStreaming() throws {
        struct Event: JSONMappable {
            var id = 0
            var kind = ""
        }

        let input = Data("""
            {"id": 1, "kind": "login"}
            {"id": "two", "kind": "logout"}

            {"id": 3, "kind": "login"}
            {"id": 4,
            """.utf8)

        let deadLetters = Mutex<[String]>([])   // import Synchronization
        var ids: [Int] = []
        try JSONLines<Event>(data: input, onError: .skip { rejected in
            deadLetters.withLock { $0.append("\(rejected) | \(rejected.rawText)") }
        }).forEach { event in ids.append(event.id) }
        // ids == [1, 3]
        // deadLetters == [
        //     #"record 1 (line 2, byte 27): line 2, column 8: invalidValue at [1].id: the string "two" is not a number | {"id": "two", "kind": "logout"}"#,
        //     #"record 3 (line 5, byte 87): line 5, column 10: syntax at [3]: unexpected end of input | {"id": 4,"#]
        XCTAssertEqual(ids, [1, 3])
        XCTAssertEqual(deadLetters.withLock { $0 }, [
            #"record 1 (line 2, byte 27): line 2, column 8: invalidValue at [1].id: the string "two" is not a number | {"id": "two", "kind": "logout"}"#,
            #"record 3 (line 5, byte 87): line 5, column 10: syntax at [3]: unexpected end of input | {"id": 4,"#])

        let reports = Mutex<[JSONLinesProgress]>([])
        let lines = JSONLines<Event>(data: input, onError: .skip { _ in }).reportingProgress(.every(records: 3) { progress in
            reports.withLock { $0.append(progress) }
        })
        try lines.forEach { _ in }
        // reports: after 3 records (2 decoded, 1 rejected), then the final one (4 records, 2 rejected, 96 bytes)
        let final = reports.withLock { $0.last! }
        print(final)  // 4 records (2 rejected), 0.0 MB in 0.00 s (… MB/s)
        let ticks = Mutex(0)
        let again = try JSONLines<Event>.decodeAll(input, workers: 2, onError: .skip { _ in },
                                                   progress: .every(.seconds(2)) { _ in ticks.withLock { $0 += 1 } })
        // again.count == 2; ticks == 1: the final report (and one more every 2 s, had it taken that long)
        let seen = reports.withLock { $0 }
        XCTAssertEqual(seen.map(\.recordsDecoded), [2, 2])
        XCTAssertEqual(seen.map(\.recordsRejected), [1, 2])
        XCTAssertEqual(seen.map(\.isFinished), [false, true])
        XCTAssertEqual(final.bytesRead, 96)
        XCTAssertTrue(final.description.hasPrefix("4 records (2 rejected), 0.0 MB in "), final.description)
        XCTAssertEqual(again.count, 2)
        XCTAssertGreaterThanOrEqual(ticks.withLock { $0 }, 1)  // not timed: a slow machine may add reports

        let many = Data((1...1000).map { "{\"id\": \($0)}\n" }.joined().utf8)
        let events = try JSONLines<Event>.decodeAll(many, workers: 2)
        // events.count == 1000, events.map(\.id) == Array(1...1000)
        XCTAssertEqual(events.count, 1000)
        XCTAssertEqual(events.map(\.id), Array(1...1000))

        _ = try Event(json: #"{"id": 5}"#)  // a whole-document decoding leaves this thread a spare tokenizer
        let released = DecodingBuffers.releaseIdle()
        // released: the number of spare buffers freed; the next decoding on each thread allocates again
        XCTAssertGreaterThan(released, 0)
        XCTAssertEqual(try JSONLines<Event>.decodeAll(many, workers: 2).count, 1000)
    }

    func testCodableStreaming() async throws {
        struct Signup: Codable {
            var userId: Int
            var signedUpAt: Date
        }

        var decoder = ModelDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let signups = Data("""
            {"user_id": 1, "signed_up_at": "2026-01-02T03:04:05Z"}
            {"user_id": "x", "signed_up_at": "2026-01-02T03:04:05Z"}
            {"user_id": 3, "signed_up_at": "2026-01-03T00:00:00Z"}
            """.utf8)
        let rejectedPaths = Mutex<[String]>([])
        var users: [Int] = []
        for try await signup in JSONLines<Signup>(data: signups, decoder: decoder, workers: 2, onError: .skip {
            rejected in rejectedPaths.withLock { $0.append("\(rejected.line) \(rejected.error.path)") }
        }) {
            users.append(signup.userId)
        }
        // users == [1, 3], rejectedPaths == ["2 [1].userId"]
        let all = try JSONLines<Signup>.decodeAll(signups, decoder: decoder, workers: 2, onError: .skip { _ in })
        // all.count == 2
        XCTAssertEqual(users, [1, 3])
        XCTAssertEqual(rejectedPaths.withLock { $0 }, ["2 [1].userId"])
        XCTAssertEqual(all.count, 2)
        XCTAssertEqual(all.last?.signedUpAt, Date(timeIntervalSince1970: 1_767_398_400))
    }
}

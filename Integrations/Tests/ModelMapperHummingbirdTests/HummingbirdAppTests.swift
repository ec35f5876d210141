import Hummingbird
import HummingbirdTesting
import IntegrationTestModels
import ModelMapperHummingbird
import NIOCore
import XCTest

// A real Hummingbird 2 application, run in-process (HummingbirdTesting's router test framework: requests
// go through the router and the middleware chain), with ModelMapper's coders plugged in by one line:
// `Router(context: ModelMapperRequestContext.self)`.

extension Book: MappedResponseGenerator {}
extension Order: ResponseCodable {}
extension Repo: ResponseCodable {}
extension Note: ResponseCodable {}

#if MODELMAPPER_MACROS
import ModelMapperMacros

@JSONModel
struct MacroRepo: Equatable, ResponseCodable {
    let id: Int
    let fullName: String
    var stars: Int = 0
    static let mapping = ModelMapping(keys: ["fullName": "full_name"])
}
#endif

// The helpers are functions, not methods: the test closures are @Sendable and an XCTestCase is not.

/// Each route decodes its body and answers with it, changed, so that both directions are checked.
func makeApp() -> some ApplicationProtocol {
    let router = Router(context: ModelMapperRequestContext.self)
    router.post("books") { request, context -> Book in
        var book = try await request.decode(as: Book.self, context: context)
        book.title = book.title.uppercased()
        return book
    }
    router.post("orders") { request, context -> Order in
        var order = try await request.decode(as: Order.self, context: context)
        order.orderID += 1
        return order
    }
    router.post("repos") { request, context -> Repo in
        let repo = try await request.decode(as: Repo.self, context: context)
        return Repo(id: repo.id, fullName: repo.fullName, stars: repo.stars + 1)
    }
    router.post("notes") { request, context -> Note in
        var note = try await request.decode(as: Note.self, context: context)
        note.count *= 10
        return note
    }
    #if MODELMAPPER_MACROS
    router.post("macro-repos") { request, context -> MacroRepo in
        var repo = try await request.decode(as: MacroRepo.self, context: context)
        repo.stars += 1
        return repo
    }
    #endif
    // A MappingError that is not about the request's body (data the server read itself) stays a 500.
    router.get("server-fault") { _, _ -> Book in
        try Book(json: #"{"book_id":"not a number"}"#)
    }
    return Application(router: router)
}

/// POSTs `body` as JSON; returns the status, the content type and the response body.
func post(_ path: String, _ body: String, to client: some TestClientProtocol) async throws
    -> (status: HTTPResponse.Status, contentType: String?, body: ByteBuffer) {
    try await client.execute(uri: path, method: .post, headers: [.contentType: "application/json"],
                             body: ByteBuffer(string: body)) { response in
        (response.status, response.headers[.contentType], response.body)
    }
}

func assertBadRequest(_ result: (status: HTTPResponse.Status, contentType: String?, body: ByteBuffer),
                      jsonPath: String, line: Int? = nil, column: Int? = nil,
                      file: StaticString = #filePath, lineNumber: UInt = #line) throws -> ErrorBody {
    XCTAssertEqual(result.status, .badRequest, file: file, line: lineNumber)
    XCTAssertEqual(result.contentType, "application/json; charset=utf-8", file: file, line: lineNumber)
    let error = try ErrorBody(json: result.body)
    XCTAssertEqual(error.jsonPath, jsonPath, "\(error)", file: file, line: lineNumber)
    XCTAssertFalse(error.message.isEmpty, file: file, line: lineNumber)
    if let line { XCTAssertEqual(error.line, line, "\(error)", file: file, line: lineNumber) }
    if let column { XCTAssertEqual(error.column, column, "\(error)", file: file, line: lineNumber) }
    // The four fields and nothing else (no type names, no stack, no internals).
    XCTAssertTrue(Set(error.keys).isSubset(of: ["message", "jsonPath", "line", "column"]), "\(error.keys)",
                  file: file, line: lineNumber)
    return error
}

final class HummingbirdAppTests: XCTestCase {
    // MARK: Mapped models (JSONMappable only)

    func testMappedModelBothWays() async throws {
        try await makeApp().test(.router) { client in
            let result = try await post("/books", Bodies.book, to: client)
            XCTAssertEqual(result.status, .ok)
            XCTAssertEqual(result.contentType, "application/json; charset=utf-8")
            let book = try Book(json: result.body)
            XCTAssertEqual(book.title, "DUNE")
            XCTAssertEqual(book.bookID, 7)
            XCTAssertEqual(book.authors.map(\.name), ["Frank"])
            // Written by the mapping: the mapped key, not the property name.
            XCTAssertTrue(String(buffer: result.body).contains(#""book_id":7"#), String(buffer: result.body))
        }
    }

    func testMappedModelBadValueIs400NamingThePath() async throws {
        try await makeApp().test(.router) { client in
            let error = try assertBadRequest(try await post("/books", Bodies.bookBadAge, to: client),
                                             jsonPath: "authors[0].age", line: 2)
            XCTAssertNotNil(error.column)
            // The JSON spelling of a mapped key.
            _ = try assertBadRequest(try await post("/books", Bodies.bookBadID, to: client), jsonPath: "book_id", line: 1)
            _ = try assertBadRequest(try await post("/books", Bodies.bookMissingID, to: client), jsonPath: "book_id")
        }
    }

    func testSyntaxErrorIs400WithPosition() async throws {
        try await makeApp().test(.router) { client in
            let error = try assertBadRequest(try await post("/books", Bodies.truncated, to: client), jsonPath: "", line: 1)
            XCTAssertNotNil(error.column)
            _ = try assertBadRequest(try await post("/orders", "[1,", to: client), jsonPath: "", line: 1)
        }
    }

    // MARK: Codable models

    func testJSONCodableModelBothWays() async throws {
        try await makeApp().test(.router) { client in
            let result = try await post("/orders", Bodies.order, to: client)
            XCTAssertEqual(result.status, .ok)
            let order = try Order(json: result.body)
            XCTAssertEqual(order.orderID, 4)
            XCTAssertEqual(order.lines.map(\.quantity), [2, 1])
            XCTAssertTrue(String(buffer: result.body).contains(#""order_id":4"#), String(buffer: result.body))
            _ = try assertBadRequest(try await post("/orders", Bodies.orderBadQuantity, to: client),
                                     jsonPath: "lines[1].quantity", line: 1)
        }
    }

    func testGeneratedModelBothWays() async throws {
        try await makeApp().test(.router) { client in
            let result = try await post("/repos", Bodies.repo, to: client)
            XCTAssertEqual(result.status, .ok)
            let repo = try Repo(json: result.body)
            XCTAssertEqual(repo, Repo(id: 1, fullName: "apple/swift-nio", stars: 8001))
            // Written by the mapping (the mapped key); slashes escaped, as JSONEncoder writes them.
            XCTAssertTrue(String(buffer: result.body).contains(#""full_name":"apple\/swift-nio""#), String(buffer: result.body))
            _ = try assertBadRequest(try await post("/repos", Bodies.repoMissingName, to: client), jsonPath: "full_name")
        }
    }

    func testCodableStructBothWays() async throws {
        try await makeApp().test(.router) { client in
            let result = try await post("/notes", Bodies.note, to: client)
            XCTAssertEqual(result.status, .ok)
            XCTAssertEqual(try ModelDecoder().decode(Note.self, from: result.body), Note(text: "hi", count: 20))
            _ = try assertBadRequest(try await post("/notes", Bodies.noteBadCount, to: client), jsonPath: "count", line: 1)
        }
    }

    #if MODELMAPPER_MACROS
    func testMacroModelBothWays() async throws {
        try await makeApp().test(.router) { client in
            let result = try await post("/macro-repos", Bodies.repo, to: client)
            XCTAssertEqual(result.status, .ok)
            XCTAssertEqual(try MacroRepo(json: result.body), MacroRepo(id: 1, fullName: "apple/swift-nio", stars: 8001))
            _ = try assertBadRequest(try await post("/macro-repos", Bodies.repoMissingName, to: client), jsonPath: "full_name")
        }
    }
    #endif

    // MARK: What is not the client's fault

    func testMappingErrorOutsideTheBodyStaysA500() async throws {
        try await makeApp().test(.router) { client in
            try await client.execute(uri: "/server-fault", method: .get) { response in
                XCTAssertEqual(response.status, .internalServerError)
            }
        }
    }

    func testBodyOverTheUploadLimitIsHummingbirds413() async throws {
        try await makeApp().test(.router) { client in
            let big = #"{"title":""# + String(repeating: "x", count: 3 * 1024 * 1024) + #"","book_id":1}"#
            let result = try await post("/books", big, to: client)
            XCTAssertEqual(result.status, .contentTooLarge)
        }
    }

    // MARK: A context of Hummingbird's own

    /// BasicRequestContext keeps Foundation's coders; a mapped model is still read and written, with a
    /// default ModelDecoder and ModelEncoder.
    func testMappedModelWithBasicRequestContext() async throws {
        let router = Router(context: BasicRequestContext.self)
        router.post("books") { request, context -> Book in
            try await request.decode(as: Book.self, context: context)
        }
        try await Application(router: router).test(.router) { client in
            let result = try await post("/books", Bodies.book, to: client)
            XCTAssertEqual(result.status, .ok)
            XCTAssertEqual(try Book(json: result.body).bookID, 7)
            _ = try assertBadRequest(try await post("/books", Bodies.bookBadAge, to: client), jsonPath: "authors[0].age")
        }
    }
}

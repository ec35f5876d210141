import IntegrationTestModels
import ModelMapperVapor
import Vapor
import XCTVapor
import XCTest

// A real Vapor 4 application, run in-process (XCTVapor, `.testing` environment: requests go through the
// responder and the middleware chain), with ModelMapper plugged in by one line: `app.useModelMapper()`.

extension Book: MappedContent {}
extension Order: Content {}
extension Repo: Content {}
extension Note: Content {}

#if MODELMAPPER_MACROS
import ModelMapperMacros

@JSONModel
struct MacroRepo: Equatable, Content {
    let id: Int
    let fullName: String
    var stars: Int = 0
    static let mapping = ModelMapping(keys: ["fullName": "full_name"])
}
#endif

final class VaporAppTests: XCTestCase {
    var app: Application!

    override func setUp() async throws {
        app = try await Application.make(.testing)
        app.useModelMapper()
        // Each route decodes its body and answers with it, changed, so that both directions are checked.
        app.post("books") { req async throws -> Book in
            var book = try req.content.decode(Book.self)
            book.title = book.title.uppercased()
            return book
        }
        app.post("orders") { req async throws -> Order in
            var order = try req.content.decode(Order.self)
            order.orderID += 1
            return order
        }
        app.post("repos") { req async throws -> Repo in
            let repo = try req.content.decode(Repo.self)
            return Repo(id: repo.id, fullName: repo.fullName, stars: repo.stars + 1)
        }
        app.post("notes") { req async throws -> Note in
            var note = try req.content.decode(Note.self)
            note.count *= 10
            return note
        }
        // A synchronous route: ResponseEncodable rather than AsyncResponseEncodable.
        app.get("book") { _ -> Book in try Book(json: Bodies.book) }
        #if MODELMAPPER_MACROS
        app.post("macro-repos") { req async throws -> MacroRepo in
            var repo = try req.content.decode(MacroRepo.self)
            repo.stars += 1
            return repo
        }
        #endif
        // A MappingError that is not about the request's body (data the server read itself) stays a 500.
        app.get("server-fault") { _ async throws -> Book in
            try Book(json: #"{"book_id":"not a number"}"#)
        }
    }

    override func tearDown() async throws {
        try await app.asyncShutdown()
        app = nil
        ContentConfiguration.global = .default()
    }

    func post(_ path: String, _ body: String, contentType: HTTPMediaType = .json,
              _ check: (XCTHTTPResponse) async throws -> Void) async throws {
        var headers = HTTPHeaders()
        headers.contentType = contentType
        try await app.test(.POST, path, headers: headers, body: ByteBuffer(string: body), afterResponse: check)
    }

    @discardableResult
    func assertBadRequest(_ response: XCTHTTPResponse, jsonPath: String, line: Int? = nil,
                          file: StaticString = #filePath, lineNumber: UInt = #line) throws -> ErrorBody {
        XCTAssertEqual(response.status, .badRequest, response.body.string, file: file, line: lineNumber)
        XCTAssertEqual(response.headers.contentType, .json, file: file, line: lineNumber)
        let error = try ErrorBody(json: response.body)
        XCTAssertEqual(error.jsonPath, jsonPath, "\(error)", file: file, line: lineNumber)
        XCTAssertFalse(error.message.isEmpty, file: file, line: lineNumber)
        if let line { XCTAssertEqual(error.line, line, "\(error)", file: file, line: lineNumber) }
        XCTAssertTrue(Set(error.keys).isSubset(of: ["message", "jsonPath", "line", "column"]), "\(error.keys)",
                      file: file, line: lineNumber)
        return error
    }

    // MARK: Mapped models (JSONMappable only)

    func testMappedModelBothWays() async throws {
        try await post("books", Bodies.book) { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(response.headers.contentType, .json)
            let book = try Book(json: response.body)
            XCTAssertEqual(book.title, "DUNE")
            XCTAssertEqual(book.authors.map(\.age), [65])
            XCTAssertTrue(response.body.string.contains(#""book_id":7"#), response.body.string)
        }
        try await app.test(.GET, "book") { response async throws in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(try Book(json: response.body).title, "Dune")
        }
    }

    func testMappedModelBadValueIs400NamingThePath() async throws {
        try await post("books", Bodies.bookBadAge) { response in
            let error = try assertBadRequest(response, jsonPath: "authors[0].age", line: 2)
            XCTAssertNotNil(error.column)
        }
        try await post("books", Bodies.bookBadID) { try assertBadRequest($0, jsonPath: "book_id", line: 1) }
        try await post("books", Bodies.bookMissingID) { try assertBadRequest($0, jsonPath: "book_id") }
    }

    func testSyntaxErrorIs400WithPosition() async throws {
        try await post("books", Bodies.truncated) { response in
            let error = try assertBadRequest(response, jsonPath: "", line: 1)
            XCTAssertNotNil(error.column)
        }
        try await post("orders", "[1,") { try assertBadRequest($0, jsonPath: "", line: 1) }
    }

    func testMappedModelRefusesAnotherContentType() async throws {
        try await post("books", Bodies.book, contentType: .plainText) { response in
            XCTAssertEqual(response.status, .unsupportedMediaType)
        }
    }

    // MARK: Codable models

    func testJSONCodableModelBothWays() async throws {
        try await post("orders", Bodies.order) { response in
            XCTAssertEqual(response.status, .ok)
            let order = try Order(json: response.body)
            XCTAssertEqual(order.orderID, 4)
            XCTAssertTrue(response.body.string.contains(#""order_id":4"#), response.body.string)
        }
        try await post("orders", Bodies.orderBadQuantity) { try assertBadRequest($0, jsonPath: "lines[1].quantity", line: 1) }
    }

    func testGeneratedModelBothWays() async throws {
        try await post("repos", Bodies.repo) { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(try Repo(json: response.body), Repo(id: 1, fullName: "apple/swift-nio", stars: 8001))
            // Written by the mapping (the mapped key); slashes escaped, as JSONEncoder writes them.
            XCTAssertTrue(response.body.string.contains(#""full_name":"apple\/swift-nio""#), response.body.string)
        }
        try await post("repos", Bodies.repoMissingName) { try assertBadRequest($0, jsonPath: "full_name") }
    }

    func testCodableStructBothWays() async throws {
        try await post("notes", Bodies.note) { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(try ModelDecoder().decode(Note.self, from: response.body), Note(text: "hi", count: 20))
        }
        try await post("notes", Bodies.noteBadCount) { try assertBadRequest($0, jsonPath: "count", line: 1) }
    }

    #if MODELMAPPER_MACROS
    func testMacroModelBothWays() async throws {
        try await post("macro-repos", Bodies.repo) { response in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(try MacroRepo(json: response.body), MacroRepo(id: 1, fullName: "apple/swift-nio", stars: 8001))
        }
        try await post("macro-repos", Bodies.repoMissingName) { try assertBadRequest($0, jsonPath: "full_name") }
    }
    #endif

    // MARK: What is not the client's fault, and without the middleware

    func testMappingErrorOutsideTheBodyStaysA500() async throws {
        try await app.test(.GET, "server-fault") { response async throws in
            XCTAssertEqual(response.status, .internalServerError)
        }
    }

    /// Without ModelMapperErrorMiddleware (only the coders configured), Vapor's ErrorMiddleware still
    /// answers 400 (JSONBodyError is an AbortError), in its own body, whose reason names the path.
    func testWithoutTheMiddlewareStill400() async throws {
        let plain = try await Application.make(.testing)
        ContentConfiguration.global.use(decoder: ModelDecoder(), for: .json)
        ContentConfiguration.global.use(encoder: ModelEncoder(), for: .json)
        plain.post("notes") { req async throws -> Note in try req.content.decode(Note.self) }
        var headers = HTTPHeaders()
        headers.contentType = .json
        try await plain.test(.POST, "notes", headers: headers, body: ByteBuffer(string: Bodies.noteBadCount)) { response async throws in
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertTrue(response.body.string.contains("at count"), response.body.string)
        }
        try await plain.asyncShutdown()
    }
}

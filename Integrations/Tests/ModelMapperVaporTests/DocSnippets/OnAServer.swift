import ModelMapperVapor
import Vapor
import XCTVapor
import XCTest

// The Vapor snippet of the "On a server" article (Sources/ModelMapper/ModelMapper.docc/OnAServer.md),
// verbatim (scripts/check-doc-snippets), and what the article says it does.

struct Signup: JSONMappable, MappedContent {
    var email = ""
    var age = 0
    static let mapping = ModelMapping(required: ["email"])
}

func configure(_ app: Application) {
    app.useModelMapper()
    app.post("signups") { req async throws -> Signup in
        try req.content.decode(Signup.self)
    }
}

final class OnAServerVaporSnippetTests: XCTestCase {
    func testSignupRoute() async throws {
        let app = try await Application.make(.testing)
        defer { ContentConfiguration.global = .default() }
        configure(app)
        var headers = HTTPHeaders()
        headers.contentType = .json
        try await app.test(.POST, "signups", headers: headers,
                           body: ByteBuffer(string: #"{"email": "al@example.com", "age": 41}"#)) { response async throws in
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual(try Signup(json: response.body).age, 41)
        }
        try await app.test(.POST, "signups", headers: headers,
                           body: ByteBuffer(string: #"{"email": "al@example.com", "age": "old"}"#)) { response async throws in
            XCTAssertEqual(response.status, .badRequest)
            XCTAssertEqual(response.body.string, OnAServerExpected.badAgeBody)
        }
        try await app.asyncShutdown()
    }
}

/// The article's 400 body for `{"email": "al@example.com", "age": "old"}`, byte for byte.
enum OnAServerExpected {
    static let badAgeBody = #"{"message":"the string \"old\" is not a number","jsonPath":"age","line":1,"column":36}"#
}

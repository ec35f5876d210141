import Hummingbird
import HummingbirdTesting
import ModelMapperHummingbird
import XCTest

// The Hummingbird snippet of the "On a server" article (Sources/ModelMapper/ModelMapper.docc/OnAServer.md),
// verbatim (scripts/check-doc-snippets), and what the article says it does.

struct Signup: JSONMappable, MappedResponseGenerator {
    var email = ""
    var age = 0
    static let mapping = ModelMapping(required: ["email"])
}

func makeRouter() -> Router<ModelMapperRequestContext> {
    let router = Router(context: ModelMapperRequestContext.self)
    router.post("signups") { request, context -> Signup in
        try await request.decode(as: Signup.self, context: context)
    }
    return router
}

final class OnAServerHummingbirdSnippetTests: XCTestCase {
    func testSignupRoute() async throws {
        try await Application(router: makeRouter()).test(.router) { client in
            try await client.execute(uri: "/signups", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"email": "al@example.com", "age": 41}"#)) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(try Signup(json: response.body).age, 41)
            }
            try await client.execute(uri: "/signups", method: .post, headers: [.contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"email": "al@example.com", "age": "old"}"#)) { response in
                XCTAssertEqual(response.status, .badRequest)
                XCTAssertEqual(String(buffer: response.body),
                               #"{"message":"the string \"old\" is not a number","jsonPath":"age","line":1,"column":36}"#)
            }
        }
    }
}

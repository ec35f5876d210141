import Foundation
import ModelMapper
import XCTest

/// The code of ConversionsAndErrors.md.
final class ConversionsAndErrorsSnippets: XCTestCase {
    func testConversions() throws {
        struct Product: JSONMappable {
            var id = 0
            var price = 0.0
            var code = ""
            var inStock = false
        }

        let lenient = try Product(json: #"{"id": "17", "price": "9.99", "code": 8.80, "inStock": "YES"}"#)
        // lenient.id == 17, lenient.price == 9.99, lenient.code == "8.80", lenient.inStock == true
        XCTAssertEqual(lenient.id, 17)
        XCTAssertEqual(lenient.price, 9.99)
        XCTAssertEqual(lenient.code, "8.80")
        XCTAssertTrue(lenient.inStock)

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try Product(json: #"{"id": "17"}"#, options: .strict)
        } catch let error as MappingError {
            print(error)  // line 1, column 8: typeMismatch at id: expected an integer, found the string "17"
        }
        XCTAssertEqual(printed, #"line 1, column 8: typeMismatch at id: expected an integer, found the string "17""#)

        struct Account: JSONMappable {
            var user = User()
            struct User: JSONMappable { var id: Int8 = 0 }
        }

        printed = ""
        do {
            _ = try [Account](json: "[{\"user\": {\"id\": 1}},\n {\"user\": {\"id\": 300}}]")
        } catch let error as MappingError {
            print(error)  // line 2, column 18: invalidValue at [1].user.id: 300 is out of range for Int8
        }
        XCTAssertEqual(printed, "line 2, column 18: invalidValue at [1].user.id: 300 is out of range for Int8")

        final class Problems: @unchecked Sendable {
            private let lock = NSLock()
            private var errors: [MappingError] = []
            func append(_ error: MappingError) { lock.lock(); errors.append(error); lock.unlock() }
            var descriptions: [String] { lock.lock(); defer { lock.unlock() }; return errors.map(\.description) }
        }

        let problems = Problems()
        let options = DecodingOptions.lenient.skippingInvalidValues { error in problems.append(error) }
        let product = try Product(json: #"{"id": 3, "price": "cheap", "code": [1]}"#, options: options)
        // product.id == 3, product.price == 0.0, product.code == ""
        // problems.descriptions == [
        //     #"line 1, column 20: invalidValue at price: the string "cheap" is not a number"#,
        //     "line 1, column 37: typeMismatch at code: expected a string, found an array"]
        XCTAssertEqual(product.id, 3)
        XCTAssertEqual(product.price, 0.0)
        XCTAssertEqual(product.code, "")
        XCTAssertEqual(problems.descriptions, [
            #"line 1, column 20: invalidValue at price: the string "cheap" is not a number"#,
            "line 1, column 37: typeMismatch at code: expected a string, found an array"])
    }

    /// The "example description" column of the error-kind table.
    func testErrorKindTable() throws {
        struct Author: JSONMappable { var name = "" }
        struct Book: JSONMappable {
            var name = ""; var bookID = 0; var authors: [Author] = []
            static let mapping = ModelMapping(keys: ["name": "n", "bookID": ["id", "ID", "book_id"]], required: ["bookID"])
        }
        struct Person: JSONMappable, JSONDecodingHooks {
            var age = 0
            mutating func didDecode(from object: JSONObject) throws {
                if age < 0 { throw MappingError(.validation, "age must not be negative") }
            }
        }
        struct Typo: JSONMappable { var name = ""; static let mapping = ModelMapping(keys: ["nmae": "n"]) }
        struct W: JSONMappable { var user = U(); struct U: JSONMappable { var id: Int8 = 0 } }
        func describe(_ body: () throws -> Any) -> String {
            switch Result(catching: body) {
            case .success: return "no error"
            case .failure(let error): return "\(error)"
            }
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        XCTAssertEqual(describe { try Book(json: "{\"id\":1,\n \"n\": tru}") },
                       "line 2, column 7: syntax: lexical error: invalid literal (expected true, false or null)")
        XCTAssertEqual(describe { try Book(json: #"{"id":1,"authors":{"name":"x"}}"#) },
                       "line 1, column 19: typeMismatch at authors: expected an array, found an object")
        XCTAssertEqual(describe { try Book(json: #"{"n":"Dune"}"#) },
                       "line 1, column 1: missingKey at bookID: required key id | ID | book_id is missing")
        XCTAssertEqual(describe { try [W](json: "[{\"user\":{\"id\":1}},\n {\"user\":{\"id\":300}}]") },
                       "line 2, column 16: invalidValue at [1].user.id: 300 is out of range for Int8")
        XCTAssertEqual(describe { try Person(json: #"{"age":-1}"#) }, "line 1, column 1: validation: age must not be negative")
        XCTAssertEqual(describe { try Typo(json: "{}") },
                       #"unsupportedType: Typo.mapping.keys names "nmae", which is not a stored property of Typo"#)
        XCTAssertEqual(describe { try JSONValue(json: deep) }, "line 1, column 513: depthLimit: nesting deeper than 512 levels")
    }
}

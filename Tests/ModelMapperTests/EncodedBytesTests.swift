import Foundation
import XCTest
import ModelMapper

// ModelEncoder.withEncodedBytes (API/EntryPoints/ModelEncoder+Bytes.swift): the bytes lent are exactly what
// encode(_:) returns, for mapped models, JSONCodable models and any Encodable, with the same settings; an
// encoding error is thrown before the closure runs. Here, so that the sanitizer passes and valgrind see the
// lending (ModelMapperNIO builds on it, in the Integrations package).
final class EncodedBytesTests: XCTestCase {
    struct Tag: JSONMappable, Equatable { var label = ""; var weight = 0.0 }
    struct Post: JSONMappable, Equatable {
        var postID = 0
        var title = ""
        var tags: [Tag] = []
        static let mapping = ModelMapping(keys: ["postID": "post_id"])
    }
    struct Invoice: JSONCodable, Equatable {
        var invoiceNumber = 0
        var issued = Date(timeIntervalSince1970: 1_700_000_000)
    }
    struct Plain: Codable, Equatable { var path = "a/b"; var count = 2 }

    func testMappedModelBytesAreEncodesOutput() throws {
        let post = Post(postID: 9, title: "Hello \"world\"", tags: [Tag(label: "x", weight: 1.5)])
        for encoder in [ModelEncoder(), ModelEncoder(options: [.sortedKeys, .prettyPrinted])] {
            let bytes = try encoder.withEncodedBytes(of: post) { Array($0) }
            XCTAssertEqual(bytes, Array(try encoder.encode(post)))
            XCTAssertEqual(try Post(json: bytes), post)
        }
    }

    func testCodableModelAndEncodableBytesAreEncodesOutput() throws {
        var encoder = ModelEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .secondsSince1970
        let invoice = Invoice(invoiceNumber: 12)
        let bytes = try encoder.withEncodedBytes(of: invoice) { Array($0) }
        XCTAssertEqual(bytes, Array(try encoder.encode(invoice)))
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), #"{"invoice_number":12,"issued":1700000000}"#)
        // Any Encodable, through JSONEncoder's settings (slashes escaped by default).
        let plain = try ModelEncoder().withEncodedBytes(of: [Plain()]) { Array($0) }
        XCTAssertEqual(String(decoding: plain, as: UTF8.self), #"[{"path":"a\/b","count":2}]"#)
        XCTAssertEqual(plain, Array(try ModelEncoder().encode([Plain()])))
    }

    func testEncodingErrorIsThrownBeforeTheClosureRuns() {
        var ran = false
        XCTAssertThrowsError(try ModelEncoder().withEncodedBytes(of: Tag(label: "nan", weight: .nan)) { _ in ran = true }) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue)
        }
        XCTAssertThrowsError(try ModelEncoder().withEncodedBytes(of: [Double.infinity]) { _ in ran = true }) { error in
            XCTAssertTrue(error is EncodingError, "\(error)")
        }
        XCTAssertFalse(ran)
    }

    func testClosureErrorAndResultPassThrough() throws {
        struct Stop: Error {}
        XCTAssertThrowsError(try ModelEncoder().withEncodedBytes(of: Tag()) { _ in throw Stop() }) { error in
            XCTAssertTrue(error is Stop)
        }
        XCTAssertEqual(try ModelEncoder().withEncodedBytes(of: Tag(label: "ab")) { $0.count }, try ModelEncoder().encode(Tag(label: "ab")).count)
    }
}

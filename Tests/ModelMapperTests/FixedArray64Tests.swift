import Foundation
@testable import ModelMapper
import XCTest

// FixedArray64 (Codable/FixedArray64.swift) replaced `InlineArray<64, _>` in the keyed decoding containers: each
// index reads and writes its own element, at the element type's stride, and nothing else.
final class FixedArray64Tests: XCTestCase {
    func testEveryIndexHoldsItsOwnValue() {
        var wide = FixedArray64<Int32>(repeating: -1)
        var narrow = FixedArray64<UInt8>(repeating: 255)
        XCTAssertEqual(wide.count, 64)
        XCTAssertEqual(narrow.count, 64)
        for i in 0..<64 {
            XCTAssertEqual(wide[i], -1, "index \(i) before any write")
            XCTAssertEqual(narrow[i], 255, "index \(i) before any write")
        }
        // Writing in a scattered order: a store at the wrong offset or width shows up at another index.
        for step in 0..<64 {
            let i = (step &* 37) % 64
            wide[i] = Int32(i) &* 100_003 &- 2_000_000
            narrow[i] = UInt8(i &* 3 % 251)
        }
        for i in 0..<64 {
            XCTAssertEqual(wide[i], Int32(i) &* 100_003 &- 2_000_000, "Int32 index \(i)")
            XCTAssertEqual(narrow[i], UInt8(i &* 3 % 251), "UInt8 index \(i)")
        }
        narrow[10] = 0
        XCTAssertEqual(narrow[9], 27)
        XCTAssertEqual(narrow[10], 0)
        XCTAssertEqual(narrow[11], 33)
    }

    // The containers' index in use: an object with more members than the index holds (64) still finds every
    // key, in any order, through a Codable decode that reads them out of document order.
    func testCodableDecodeOfAnObjectWiderThanTheIndex() throws {
        struct Wide: Decodable {
            let values: [Int]
            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            init(from decoder: Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                // Backwards: every lookup after the first is away from the cursor.
                values = try (0..<80).reversed().map { try container.decode(Int.self, forKey: Key(stringValue: "k\($0)")) }
            }
        }
        let json = "{" + (0..<80).map { "\"k\($0)\":\($0 * 7)" }.joined(separator: ",") + "}"
        let decoded = try ModelDecoder().decode(Wide.self, from: Data(json.utf8))
        XCTAssertEqual(decoded.values, (0..<80).reversed().map { $0 * 7 })
        XCTAssertEqual(decoded.values, try JSONDecoder().decode(Wide.self, from: Data(json.utf8)).values)
    }
}

import XCTest
@testable import ModelMapper

/// `KeyTable` finds a JSON key's bytes among a model's keys; its byte comparison takes word loads that
/// must look at every byte and at no byte outside the key.
final class KeyTableTests: XCTestCase {
    func testEqualSeesADifferenceAtEveryPositionOfEveryLength() {
        for n in 1...40 {
            let a = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            // Exactly `n` bytes each, in their own allocations: ASan reports any load past them.
            let left = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 1)
            let right = UnsafeMutableRawPointer.allocate(byteCount: n, alignment: 1)
            defer { left.deallocate(); right.deallocate() }
            left.copyMemory(from: a, byteCount: n)
            right.copyMemory(from: a, byteCount: n)
            XCTAssertTrue(KeyTable.equal(left, right, count: n), "length \(n)")
            for position in 0..<n {
                for flip: UInt8 in [0x01, 0x80] {
                    right.storeBytes(of: a[position] ^ flip, toByteOffset: position, as: UInt8.self)
                    XCTAssertFalse(KeyTable.equal(left, right, count: n), "length \(n), difference at \(position)")
                    right.storeBytes(of: a[position], toByteOffset: position, as: UInt8.self)
                }
            }
        }
    }

    func testFindsEveryKeyAndNothingElse() {
        var rng = SystemRandomNumberGenerator()
        var keys = Set<[UInt8]>()
        while keys.count < 300 {
            keys.insert((0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0x61...0x66, using: &rng) })
        }
        let ordered = Array(keys)
        let table = KeyTable(ordered.enumerated().map { (key: $0.element, value: $0.offset) })
        defer { table.deallocate() }
        for (index, key) in ordered.enumerated() {
            XCTAssertEqual(key.withUnsafeBytes { table.find($0) }, index, "key \(key)")
        }
        for _ in 0..<2_000 {
            let probe = (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0x61...0x66, using: &rng) }
            let expected = ordered.firstIndex(of: probe) ?? -1
            XCTAssertEqual(probe.withUnsafeBytes { table.find($0) }, expected, "probe \(probe)")
        }
    }
}

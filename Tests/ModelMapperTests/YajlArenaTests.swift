import XCTest
@testable import ModelMapper

/// The bump allocator yajl's handles use: blocks keep their bytes through `reallocate`, whether it grows
/// the last block in place, moves a block inside the arena, or moves it to libc beyond the arena's capacity.
final class YajlArenaTests: XCTestCase {
    private func fill(_ p: UnsafeMutableRawPointer, _ count: Int, _ seed: UInt8) {
        for i in 0..<count { p.storeBytes(of: seed &+ UInt8(truncatingIfNeeded: i), toByteOffset: i, as: UInt8.self) }
    }

    private func holds(_ p: UnsafeMutableRawPointer, _ count: Int, _ seed: UInt8) -> Bool {
        (0..<count).allSatisfy { p.load(fromByteOffset: $0, as: UInt8.self) == seed &+ UInt8(truncatingIfNeeded: $0) }
    }

    func testBlocksKeepTheirBytesThroughEveryKindOfReallocation() throws {
        var arena = YajlArena()
        defer { arena.deallocate() }
        let a = try XCTUnwrap(arena.allocate(100))
        fill(a, 100, 1)
        let b = try XCTUnwrap(arena.allocate(40))
        fill(b, 40, 2)
        XCTAssertEqual(Int(bitPattern: a) % 16, 0)
        XCTAssertEqual(Int(bitPattern: b) % 16, 0)
        // `a` is not the last block: it moves, with its bytes.
        let a2 = try XCTUnwrap(arena.reallocate(a, 300))
        XCTAssertNotEqual(a2, a)
        XCTAssertTrue(holds(a2, 100, 1))
        XCTAssertTrue(holds(b, 40, 2))
        // Now `a2` is the last block: it grows in place.
        fill(a2, 300, 3)
        let a3 = try XCTUnwrap(arena.reallocate(a2, 2000))
        XCTAssertEqual(a3, a2)
        XCTAssertTrue(holds(a3, 300, 3))
        // Beyond the arena's capacity: moved to libc, bytes kept; libc blocks are reallocated and freed by libc.
        fill(a3, 2000, 4)
        let big = try XCTUnwrap(arena.reallocate(a3, YajlArena.capacity * 2))
        XCTAssertTrue(holds(big, 2000, 4))
        let bigger = try XCTUnwrap(arena.reallocate(big, YajlArena.capacity * 4))
        XCTAssertTrue(holds(bigger, 2000, 4))
        arena.deallocateBlock(bigger)
        arena.deallocateBlock(b)
        XCTAssertTrue(holds(b, 40, 2), "freeing an arena block leaves it until reset")
        // After a reset the arena hands out its memory from the start again.
        arena.reset()
        let c = try XCTUnwrap(arena.allocate(8))
        XCTAssertEqual(c, a)
        let large = try XCTUnwrap(arena.allocate(YajlArena.capacity))
        fill(large, YajlArena.capacity, 5)
        XCTAssertTrue(holds(large, YajlArena.capacity, 5))
        arena.deallocateBlock(large)
    }

    /// Documents whose parser state outgrows the arena (deep nesting grows yajl's state stack, long
    /// escaped strings its decode buffer), parsed one after another with the same tokenizer.
    func testDocumentsLargerThanTheArenaParseOneAfterAnother() throws {
        let depth = 400
        let nested = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let escaped = "[\"" + String(repeating: "\\u00e9\\n", count: 5000) + "\"]"
        for _ in 0..<3 {
            var value = try JSONValue(json: nested, depthLimit: 1000)
            var levels = 0
            while case .array(let items) = value, items.count == 1 {
                levels += 1
                value = items[0]
            }
            XCTAssertEqual(levels, depth)
            guard case .number(let one) = value else { return XCTFail("expected the innermost number, got \(value)") }
            XCTAssertEqual(one.text, "1")
            XCTAssertEqual(try JSONValue(json: escaped), .array([.string(String(repeating: "\u{E9}\n", count: 5000))]))
            XCTAssertEqual(try JSONValue(json: "{\"a\": [true]}"), .object(["a": .array([.bool(true)])]))
        }
    }
}

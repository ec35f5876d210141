import XCTest
import ModelMapper

// `let` properties are encoded but never written, even when the JSON has their key: the optimizer may constant-fold
// them, so writing through memory would be undefined. CI also runs this in a release build
// (`swift test -c release -Xswiftc -enable-testing --filter LetPropertyTests`).

private struct WithLets: JSONMappable, Equatable {
    let version = 1
    var name = ""
    let tag = "fixed"
    var count = 0
}

final class LetPropertyTests: XCTestCase {
    func testLetPropertiesAreNotWritten() throws {
        let model = try WithLets(json: #"{"version":99,"name":"n","tag":"changed","count":3}"#)
        XCTAssertEqual(model.version, 1)
        XCTAssertEqual(model.tag, "fixed")
        XCTAssertEqual(model.name, "n")
        XCTAssertEqual(model.count, 3)
        // Read through a non-inlined path too, so a folded constant and the stored value must agree.
        let mirror = Mirror(reflecting: model)
        XCTAssertEqual(mirror.children.first { $0.label == "version" }?.value as? Int, 1)
        XCTAssertEqual(mirror.children.first { $0.label == "tag" }?.value as? String, "fixed")
    }

    func testLetPropertiesAreEncodedButNotDecoded() throws {
        let value = try WithLets().jsonValue()
        XCTAssertEqual(value["version"], 1, "reading a let is safe: it is encoded")
        XCTAssertEqual(value["tag"], "fixed")
        XCTAssertEqual(try WithLets(json: WithLets().jsonData()), WithLets())
    }
}

import XCTest
import ModelMapper

// `let` properties (of structs and classes) are encoded but never written, even when the JSON has their key: the optimizer may constant-fold
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

// A class's `let` is skipped too (it was written through memory: a release build read the folded 1 while
// `Mirror` showed 99), and so is a struct's `let` after a function-typed field (the key-path walk that told
// `let` from `var` stopped at the function).

private final class ClassWithLet: JSONMappable {
    let id: Int = 1
    var name = ""
    required init() {}
}

private class BaseWithLet: JSONMappable {
    let kind = "base"
    var size = 0
    required init() {}
}

private final class SubclassOfBaseWithLet: BaseWithLet {
    let level = 3
    var label = ""
}

private struct LetAfterFunction: JSONMappable {
    var name = ""
    var callback: () -> Void = {}
    let version = 1
    var count = 0
    static let mapping = ModelMapping(ignored: ["callback"])
}

private final class Parent: JSONMappable {
    var x = 0
    required init() {}
}

private struct WithWeak: JSONMappable {
    var name = ""
    weak var parent: Parent?
}

private struct WithWeakIgnored: JSONMappable {
    var name = ""
    weak var parent: Parent?
    static let mapping = ModelMapping(ignored: ["parent"])
}

extension LetPropertyTests {
    private func stored<T>(_ label: String, of value: Any, as: T.Type) -> T? {
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == label }) { return child.value as? T }
            mirror = current.superclassMirror
        }
        return nil
    }

    func testClassLetIsNotWritten() throws {
        let model = try ClassWithLet(json: #"{"id":99,"name":"n"}"#)
        XCTAssertEqual(model.id, 1)
        XCTAssertEqual(stored("id", of: model, as: Int.self), 1)
        XCTAssertEqual(model.name, "n")
        XCTAssertEqual(try model.jsonValue()["id"], 1, "a class's let is encoded")
    }

    func testInheritedAndOwnClassLetsAreNotWritten() throws {
        let model = try SubclassOfBaseWithLet(json: #"{"kind":"changed","size":2,"level":9,"label":"l"}"#)
        XCTAssertEqual(stored("kind", of: model, as: String.self), "base")
        XCTAssertEqual(stored("level", of: model, as: Int.self), 3)
        XCTAssertEqual(model.kind, "base")
        XCTAssertEqual(model.level, 3)
        XCTAssertEqual(model.size, 2)
        XCTAssertEqual(model.label, "l")
    }

    func testStructLetAfterFunctionTypedFieldIsNotWritten() throws {
        let model = try LetAfterFunction(json: #"{"name":"n","version":99,"count":4}"#)
        XCTAssertEqual(model.version, 1)
        XCTAssertEqual(stored("version", of: model, as: Int.self), 1)
        XCTAssertEqual(model.name, "n")
        XCTAssertEqual(model.count, 4)
    }

    func testRequiredClassLetIsRejected() {
        final class RequiredLet: JSONMappable {
            let id = 0
            required init() {}
            static let mapping = ModelMapping(required: ["id"])
        }
        XCTAssertThrowsError(try RequiredLet(json: #"{"id":1}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
        }
    }

    func testWeakPropertyMustBeIgnored() throws {
        // A weak field's memory is not a strong reference: writing or reading one there is undefined.
        XCTAssertThrowsError(try WithWeak(json: #"{"name":"n","parent":{"x":1}}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
            XCTAssertTrue("\(error)".contains("weak or unowned"), "\(error)")
        }
        XCTAssertEqual(try WithWeakIgnored(json: #"{"name":"n"}"#).name, "n")
    }
}

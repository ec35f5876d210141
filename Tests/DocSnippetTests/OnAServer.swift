import Foundation
import ModelMapper
import XCTest

/// The code of OnAServer.md.
final class OnAServerSnippets: XCTestCase {
    override func setUp() {
        super.setUp()
        printed.removeAll()
    }

    struct CreateUser: JSONMappable {
        var email = ""
        var age = 0
        var nickname: String? = nil
        static let mapping = ModelMapping(required: ["email"])
    }

    func testStrictOptionsAndRequiredKeys() throws {
        var strictest = DecodingOptions.strict
        strictest.requiresAllKeys = true

        do {
            _ = try CreateUser(json: #"{"nickname": "al"}"#, options: strictest)
        } catch let error as MappingError {
            print(error)                    // line 1, column 1: missingKey at email: required keys email, age are missing
            print(error.missingProperties)  // ["email", "age"]
        }

        do {
            _ = try CreateUser(json: #"{"email": "al@example.com", "age": "42"}"#, options: strictest)
        } catch let error as MappingError {
            print(error)  // line 1, column 36: typeMismatch at age: expected an integer, found the string "42"
        }

        let lenient = try CreateUser(json: #"{"email": "al@example.com", "age": "42"}"#)
        // lenient.age == 42: the default options convert the string, as YYModel does
        XCTAssertEqual(printed.lines, [
            "line 1, column 1: missingKey at email: required keys email, age are missing",
            #"["email", "age"]"#,
            #"line 1, column 36: typeMismatch at age: expected an integer, found the string "42""#])
        XCTAssertEqual(lenient.age, 42)

        // Without requiresAllKeys only `required` is checked; an Optional is never required by it; a null
        // for a non-Optional key is a missingKey too.
        XCTAssertEqual(try CreateUser(json: #"{"email": "al@example.com"}"#, options: .strict).age, 0)
        XCTAssertNil(try CreateUser(json: #"{"email": "a", "age": 1}"#, options: strictest).nickname)
        XCTAssertThrowsError(try CreateUser(json: #"{"email": "a", "age": null}"#, options: strictest)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .missingKey)
        }
        // Nested models are held to it as well.
        struct Envelope: JSONMappable { var user = CreateUser() }
        XCTAssertThrowsError(try Envelope(json: #"{"user": {"email": "a"}}"#, options: strictest)) { error in
            XCTAssertEqual((error as? MappingError)?.path, "user.age")
        }
        // An update checks only the keys it carries.
        var user = try CreateUser(json: #"{"email": "a", "age": 1}"#, options: strictest)
        try user.update(json: #"{"age": 2}"#, options: strictest)
        XCTAssertEqual(user.age, 2)
    }

    struct Address: JSONMappable {
        var city = ""
        var onChange: @Sendable () -> Void = {}
    }

    struct Customer: JSONMappable {
        var name = ""
        var address = Address()
    }

    func testValidateAtStartUp() throws {
        do {
            try ModelMapping.validate(Customer.self)
        } catch let error as MappingError {
            print(error)  // unsupportedType: property address of Customer: property onChange of Address: @Sendable () -> () is not supported (not a model, collection, raw-value enum or Decodable); add it to `ignored`
        }

        var strictest = DecodingOptions.strict
        strictest.requiresAllKeys = true
        try ModelMapping.validate([CreateUser.self], decoding: strictest)
        XCTAssertEqual(printed.lines, [
            "unsupportedType: property address of Customer: property onChange of Address: @Sendable () -> () is not supported (not a model, collection, raw-value enum or Decodable); add it to `ignored`"])
        // The same error at every use, not only at start-up: nothing was published.
        XCTAssertThrowsError(try Customer(json: "{}")) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
        }
    }

    final class Preferences: JSONMappable, @unchecked Sendable {
        static let standard = Preferences()
        var theme = "light"
        required init() {}
    }

    struct Account: JSONMappable {
        var name = ""
        var preferences = Preferences.standard
    }

    func testClassDefaultsAndUpdate() throws {
        let alice = try Account(json: #"{"name": "alice", "preferences": {"theme": "dark"}}"#)
        let bob = try Account(json: #"{"name": "bob"}"#)
        // alice.preferences is a new instance: alice.preferences.theme == "dark"
        // bob.preferences === Preferences.standard (absent: kept), and Preferences.standard.theme == "light"
        XCTAssertFalse(alice.preferences === Preferences.standard)
        XCTAssertEqual(alice.preferences.theme, "dark")
        XCTAssertTrue(bob.preferences === Preferences.standard)
        XCTAssertEqual(Preferences.standard.theme, "light")

        var carol = Account()
        carol.preferences = Preferences()   // her own instance: update merges into what the value holds
        try carol.update(json: #"{"preferences": {"theme": "blue"}}"#)
        // carol.preferences.theme == "blue", Preferences.standard.theme == "light"
        XCTAssertEqual(carol.preferences.theme, "blue")
        XCTAssertEqual(Preferences.standard.theme, "light")

        // Without her own instance, the update writes into the shared default.
        var dave = Account()
        try dave.update(json: #"{"preferences": {"theme": "blue"}}"#)
        XCTAssertTrue(dave.preferences === Preferences.standard)
        XCTAssertEqual(Preferences.standard.theme, "blue")
        Preferences.standard.theme = "light"

        // Every decoding entry point makes new instances (SharedDefaultInstanceTests covers them all).
        let fromObject = try Account(jsonObject: ["preferences": ["theme": "dark"]])
        XCTAssertFalse(fromObject.preferences === Preferences.standard)
        let fromDecoder = try ModelDecoder().decode(Account.self, from: Data(#"{"preferences": {"theme": "dark"}}"#.utf8))
        XCTAssertFalse(fromDecoder.preferences === Preferences.standard)
        let many = try JSONLines<Account>.decodeAll(Data(#"{"preferences": {"theme": "dark"}}"#.utf8 + [10]), workers: 2)
        XCTAssertFalse(many[0].preferences === Preferences.standard)
        XCTAssertEqual(Preferences.standard.theme, "light")
    }

    struct Counter: JSONMappable {
        var value = 0 {
            didSet { print("value changed to \(value)") }
        }
    }

    final class Gauge: JSONMappable {
        var level = 0 {
            willSet { print("level will change") }
            didSet { print("level changed") }
        }
        required init() {}
    }

    func testPropertyObservers() throws {
        var counter = try Counter(json: #"{"value": 3}"#)   // prints nothing
        try counter.update(json: #"{"value": 4}"#)          // prints nothing
        counter.value = 5                                   // prints "value changed to 5"
        XCTAssertEqual(printed.lines, ["value changed to 5"])
        printed.removeAll()

        // Every entry point writes storage, observers or not: dictionary input, arrays, ModelDecoder, streams,
        // classes.
        _ = try Counter(jsonObject: ["value": 1])
        try counter.update(jsonObject: ["value": 6])
        _ = try [Counter](json: #"[{"value": 1}]"#)
        _ = try ModelDecoder().decode(Counter.self, from: Data(#"{"value": 1}"#.utf8))
        _ = try JSONLines<Counter>.decodeAll(Data("{\"value\": 1}\n{\"value\": 2}\n".utf8), workers: 2)
        let gauge = try Gauge(json: #"{"level": 9}"#)
        XCTAssertEqual(gauge.level, 9)
        XCTAssertEqual(counter.value, 6)
        XCTAssertEqual(printed.lines, [])
        gauge.level = 1
        XCTAssertEqual(printed.lines, ["level will change", "level changed"])
    }

    func testMemory() throws {
        _ = try CreateUser(json: #"{"email": "al@example.com"}"#)  // leaves this thread a spare tokenizer
        let freed = DecodingBuffers.releaseIdle()
        // freed: how many spare tokenizers and decoding states were dropped; model metadata stays
        XCTAssertGreaterThan(freed, 0)
        XCTAssertEqual(try CreateUser(json: #"{"email": "al@example.com"}"#).email, "al@example.com")
    }

    func testLimits() throws {
        var requests = DecodingOptions.strict
        requests.depthLimit = 32
        let nested = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        do {
            _ = try CreateUser(json: #"{"email": "al@example.com", "extra": "# + nested + "}", options: requests)
        } catch let error as MappingError {
            print(error)  // line 1, column 69: depthLimit: nesting deeper than 32 levels
        }
        XCTAssertEqual(printed.lines, ["line 1, column 69: depthLimit: nesting deeper than 32 levels"])
        XCTAssertEqual(DecodingOptions.defaultDepthLimit, 512)
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try CreateUser(json: #"{"extra": "# + deep + "}")) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .depthLimit)
        }
        // A handler does not forgive it.
        XCTAssertThrowsError(try CreateUser(json: #"{"email": "a", "extra": "# + nested + "}",
                                            options: requests.skippingInvalidValues { _ in })) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .depthLimit)
        }
    }

    func testForgivingHandlers() throws {
        final class Forgiven: @unchecked Sendable {
            private let lock = NSLock()
            private var errors: [MappingError] = []
            func append(_ error: MappingError) { lock.lock(); errors.append(error); lock.unlock() }
            var kinds: [MappingError.Kind] { lock.lock(); defer { lock.unlock() }; return errors.map(\.kind) }
        }

        let forgiven = Forgiven()
        let forgiving = DecodingOptions.lenient.skippingInvalidValues { error in forgiven.append(error) }
        let user = try CreateUser(json: #"{"email": "al@example.com", "age": "old", "nickname": [7]}"#, options: forgiving)
        // user.age == 0, user.nickname == nil: each keeps its value
        // forgiven.kinds == [.invalidValue, .typeMismatch]

        do {
            _ = try CreateUser(json: #"{"age": "old"}"#, options: forgiving)
        } catch let error as MappingError {
            print(error.kind)  // missingKey: thrown, after the handler got the age's invalidValue
        }
        XCTAssertEqual(user.age, 0)
        XCTAssertNil(user.nickname)
        XCTAssertEqual(printed.lines, ["missingKey"])
        XCTAssertEqual(forgiven.kinds, [.invalidValue, .typeMismatch, .invalidValue])
        // A mapping mistake is not forgiven either.
        XCTAssertThrowsError(try Customer(json: "{}", options: forgiving)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
        }

        // Syntax and validation errors are thrown too.
        struct Checked: JSONMappable, JSONDecodingHooks {
            var age = 0
            func didDecode(from object: JSONObject) throws {
                if age < 0 { throw MappingError(.validation, "age is negative") }
            }
        }
        for (json, kind) in [(#"{"email": "a", "age": 1"#, MappingError.Kind.syntax)] {
            XCTAssertThrowsError(try CreateUser(json: json, options: forgiving)) { error in
                XCTAssertEqual((error as? MappingError)?.kind, kind)
            }
        }
        XCTAssertThrowsError(try Checked(json: #"{"age": -1}"#, options: forgiving)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .validation)
        }
        // A lossy collection drops an element whose model fails for any reason, and reports it.
        var lossy = forgiving
        lossy.lossyCollections = true
        XCTAssertEqual(try [Checked](json: #"[{"age": 1}, {"age": -1}, {"age": 2}]"#, options: lossy).map(\.age), [1, 2])
        XCTAssertEqual(try [CreateUser](json: #"[{"email": "a"}, {"age": 1}]"#, options: lossy).map(\.email), ["a"])
        XCTAssertEqual(forgiven.kinds.suffix(2), [.validation, .missingKey])
        // The same handler through invalidValueHandler.
        var options = DecodingOptions.strict
        options.invalidValueHandler = { error in forgiven.append(error) }
        XCTAssertEqual(try CreateUser(json: #"{"email": "a", "age": "1"}"#, options: options).age, 0)
        XCTAssertEqual(forgiven.kinds.last, .typeMismatch)
    }

    /// Many threads decode at once, with no setup, and each gets its own values.
    func testConcurrentDecoding() throws {
        let results = Printed()
        DispatchQueue.concurrentPerform(iterations: 64) { i in
            let account = try? Account(json: #"{"name": "u\#(i)", "preferences": {"theme": "t\#(i)"}}"#)
            if let account, account.name == "u\(i)", account.preferences.theme == "t\(i)" { results.add("ok") }
        }
        XCTAssertEqual(results.lines.count, 64)
        XCTAssertEqual(Preferences.standard.theme, "light")
    }
}

private let printed = Printed()

/// The snippets' `print`, recorded for the assertions.
private func print(_ item: Any) { printed.add("\(item)") }

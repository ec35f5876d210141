import Foundation
import XCTest
import ModelMapper

// A metadata build that fails publishes nothing that depends on the failure: the models it reached stay
// unbuilt, and every later use reports the error again (it crashed with an illegal instruction when a model
// of the failed build was published holding a codec whose meta was never set).

private struct NotSupported {}

private struct FailingParent: JSONMappable {
    var children: [ChildOfFailing] = []
    var bad = NotSupported()
}

private struct ChildOfFailing: JSONMappable {
    var parents: [FailingParent] = []
}

final class MetaBuildSafetyTests: XCTestCase {
    func testFailedBuildPublishesNothingThatDependsOnIt() {
        XCTAssertThrowsError(try FailingParent(json: #"{"children":[]}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
        }
        // The child was reached by the failed build: it must report the same failure, not decode with a
        // parent codec that has no meta.
        XCTAssertThrowsError(try ChildOfFailing(json: #"{"parents":[{}]}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
            XCTAssertTrue("\(error)".contains("NotSupported"), "\(error)")
        }
        XCTAssertThrowsError(try FailingParent(json: #"{"children":[{"parents":[]}]}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
        }
    }
}

// No user code runs under a process-wide lock: a mapping may itself decode with ModelMapper the first time
// it is read (its keys from a configuration, say), and a slow mapping does not hold up another thread's
// first use of another type. A mapping that decodes its own model is a cycle: an error, never a hang.

private struct KeyConfig: JSONMappable { var idKey = "" }

private struct ConfiguredModel: JSONMappable {
    var id = 0
    static let mapping: ModelMapping = {
        let config = try! KeyConfig(json: #"{"idKey":"identifier"}"#)
        return ModelMapping(keys: ["id": .init(stringLiteral: config.idKey)])
    }()
}

private let slowBuildStarted = DispatchSemaphore(value: 0)
private let slowBuildMayFinish = DispatchSemaphore(value: 0)

private struct SlowlyMappedModel: JSONMappable {
    var a = 0
    static var mapping: ModelMapping {
        slowBuildStarted.signal()
        slowBuildMayFinish.wait()
        return ModelMapping()
    }
}

private struct QuicklyMappedModel: JSONMappable { var b = 0 }

private let selfDecodingErrors = Locked<[Error]>([])

private struct SelfDecodingMapping: JSONMappable {
    var c = 0
    static var mapping: ModelMapping {
        do { _ = try SelfDecodingMapping(json: #"{"c":1}"#) } catch { selfDecodingErrors.withValue { $0.append(error) } }
        return ModelMapping()
    }
}

extension MetaBuildSafetyTests {
    /// Runs `body` on a new thread; false if it has not finished within `seconds` (a hang: the thread
    /// is left behind, the test fails instead of hanging).
    private func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        return done.wait(timeout: .now() + seconds) == .success
    }

    func testMappingThatDecodesWithModelMapperOnFirstUseDoesNotHang() {
        let result = Locked<Result<Int, Error>?>(nil)
        XCTAssertTrue(finishes(within: 20) {
            result.withValue { $0 = Result { try ConfiguredModel(json: #"{"identifier":7}"#).id } }
        }, "decoding a model whose mapping decodes on first use hung")
        XCTAssertEqual(try result.current?.get(), 7)
    }

    func testSlowBuildDoesNotBlockAnotherThreadsFirstUse() {
        let slow = Thread { _ = try? SlowlyMappedModel(json: #"{"a":1}"#) }
        slow.start()
        slowBuildStarted.wait()
        let result = Locked<Result<Int, Error>?>(nil)
        let finished = finishes(within: 20) { result.withValue { $0 = Result { try QuicklyMappedModel(json: #"{"b":2}"#).b } } }
        slowBuildMayFinish.signal()
        XCTAssertTrue(finished, "another type's first use waited behind a slow build")
        XCTAssertEqual(try result.current?.get(), 2)
    }

    func testMappingThatDecodesItsOwnModelIsACycleError() throws {
        XCTAssertTrue(finishes(within: 20) { _ = try? SelfDecodingMapping(json: #"{"c":2}"#) }, "a self-decoding mapping hung")
        let errors = selfDecodingErrors.current
        XCTAssertFalse(errors.isEmpty)
        for error in errors {
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
            XCTAssertTrue("\(error)".contains("SelfDecodingMapping"), "\(error)")
        }
    }
}

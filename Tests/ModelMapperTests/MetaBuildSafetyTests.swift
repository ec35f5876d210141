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

// Test support shared by every test file: the one helper that expects a `MappingError`.

import Foundation
import ModelMapper
import XCTest

/// The `MappingError` that `body` throws. Fails the test (and returns nil) when `body` throws nothing or
/// throws another kind of error.
func mappingError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> MappingError? {
    do {
        let value = try body()
        XCTFail("expected a MappingError, got no error (\(value))", file: file, line: line)
    } catch let error as MappingError {
        return error
    } catch {
        XCTFail("expected a MappingError, got \(type(of: error)): \(error)", file: file, line: line)
    }
    return nil
}

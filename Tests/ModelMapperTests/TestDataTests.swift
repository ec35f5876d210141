// The test data lookup of TestSupport.swift (`TestData`): the default data sets are found in the repository's
// data/ folder, a missing committed file fails, and the optional corpora skip with a message naming
// MODELMAPPER_DATA.

import Foundation
import XCTest

final class TestDataTests: XCTestCase {
    func testDefaultDataSetsAreInTheRepository() throws {
        let paths = ["bench/twitter.json", "bench/citm_catalog.json", "bench/canada.json", "bench/github_events.json",
                     "yymodel/user.json", "yymodel/weibo.json", "JSONTestSuite/test_parsing"]
        for path in paths {
            XCTAssertNoThrow(try TestData.url(path), path)
        }
        XCTAssertEqual(TestData.directory.lastPathComponent, "data")
        XCTAssertThrowsError(try TestData.url("bench/absent-by-design.json")) { error in
            XCTAssertTrue(error is TestData.Missing, "\(error)")
        }
    }

    func testOptionalDataSkipsNamingTheVariable() {
        do {
            let url = try TestData.optionalURL("ndjson/absent-by-design.jsonl")
            XCTFail("expected XCTSkip, got \(url.path)")
        } catch let skip as XCTSkip {
            XCTAssertTrue(skip.message?.contains(TestData.optionalVariable) == true, "\(skip)")
        } catch {
            XCTFail("expected XCTSkip, got \(error)")
        }
    }
}

// The benchmark models do the same work in every contender: for each data set, ModelMapper's decode
// (from bytes and from JSONSerialization objects) gives exactly JSONDecoder's value for the same types and
// bytes, and ModelMapper's encoding decodes back (JSONDecoder) to that value. The data is read in place from
// the repository's data/ folder (`TestData`).

import ModelMapperBenchmarkModels
import Foundation
import ModelMapper
import XCTest

final class BenchmarkModelsTests: XCTestCase {
    func testTwitter() throws { try verifyModel(TwitterTimeline.self, "bench/twitter.json") }
    func testCitmCatalog() throws { try verifyModel(CitmCatalog.self, "bench/citm_catalog.json") }
    func testCanada() throws { try verifyModel(CanadaFeatureCollection.self, "bench/canada.json") }
    func testGithubEvents() throws { try verifyArray(GithubEvent.self, "bench/github_events.json") }
    // Partial models: a subset of each object's fields, the other keys skipped.
    func testTwitterPartial() throws { try verifyModel(TwitterPartialTimeline.self, "bench/twitter.json") }
    func testGithubEventsPartial() throws { try verifyArray(GithubPartialEvent.self, "bench/github_events.json") }
    func testYYModelUser() throws { try verifyModel(GithubUser.self, "yymodel/user.json") }
    func testYYModelWeibo() throws { try verifyModel(WeiboStatus.self, "yymodel/weibo.json") }

    /// weibo.json sends some picture sizes as strings ("640"): the default lenient mode converts them, as the
    /// Codable and handwritten sides do; strict mode rejects them with the property path.
    func testWeiboStringSizesNeedLenientMode() throws {
        let data = try TestData.data("yymodel/weibo.json")
        let status = try WeiboStatus(json: data)
        XCTAssertFalse(status.picInfos.isEmpty)
        XCTAssertTrue(status.picInfos.values.contains { $0.large.width > 0 && $0.large.height > 0 })
        XCTAssertThrowsError(try WeiboStatus(json: data, options: .strict)) { error in
            guard let error = error as? MappingError else { return XCTFail("not a MappingError: \(error)") }
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertTrue(error.path.hasSuffix(".width") || error.path.hasSuffix(".height"), error.path)
        }
    }

    // MARK: Helpers

    func verifyModel<M: BenchmarkModel>(_ type: M.Type, _ path: String, file: StaticString = #filePath,
                                        line: UInt = #line) throws {
        try verify(path, file: file, line: line, decode: { try M(json: $0) }, decodeObject: { try M(jsonObject: $0) },
                   handwritten: { M(dictionary: try XCTUnwrap($0 as? [String: Any])) }, encode: { try $0.jsonData() })
    }

    func verifyArray<M: BenchmarkModel>(_ type: M.Type, _ path: String, file: StaticString = #filePath,
                                        line: UInt = #line) throws {
        try verify(path, file: file, line: line, decode: { try [M](json: $0) }, decodeObject: { try [M](jsonObject: $0) },
                   handwritten: { try XCTUnwrap($0 as? [[String: Any]]).map(M.init(dictionary:)) },
                   encode: { try $0.jsonData() })
    }

    func verify<Document: Codable & Equatable>(
        _ path: String, file: StaticString, line: UInt,
        decode: (Data) throws -> Document, decodeObject: (Any) throws -> Document,
        handwritten: (Any) throws -> Document, encode: (Document) throws -> Data
    ) throws {
        let data = try TestData.data(path)
        let expected = try JSONDecoder().decode(Document.self, from: data)
        let foundationObject = try JSONSerialization.jsonObject(with: data)

        func expectEqual(_ actual: Document, _ what: String) {
            guard actual != expected else { return }
            let where_ = firstDifference(actual, expected) ?? "somewhere"
            XCTFail("\(path): \(what) differs from JSONDecoder's value at \(where_)", file: file, line: line)
        }

        // Decode from the same bytes.
        expectEqual(try decode(data), "ModelMapper decode")
        // Decode from JSONSerialization's objects (YYModel's dictionary input).
        expectEqual(try decodeObject(foundationObject), "ModelMapper init(jsonObject:)")
        // The handwritten mapping of the "Manually" rows does the same work too.
        expectEqual(try handwritten(foundationObject), "JSONSerialization + handwritten init(dictionary:)")
        // ModelMapper's encoding reads back, with JSONDecoder, as the same value.
        let encoded = try encode(expected)
        expectEqual(try JSONDecoder().decode(Document.self, from: encoded), "JSONDecoder(ModelMapper jsonData())")
        // And ModelMapper reads JSONEncoder's output (which escapes "/") as the same value.
        expectEqual(try decode(try JSONEncoder().encode(expected)), "ModelMapper decode of JSONEncoder output")
    }
}

/// The path of the first difference between two values of the same type ("statuses[3].user.id: 1 vs 2"),
/// found with Mirror; nil if none is found (e.g. only a dictionary's order differs in its description).
private func firstDifference(_ a: Any, _ b: Any, path: String = "") -> String? {
    let ma = Mirror(reflecting: a), mb = Mirror(reflecting: b)
    if ma.children.isEmpty && mb.children.isEmpty {
        let da = String(reflecting: a), db = String(reflecting: b)
        return da == db ? nil : "\(path.isEmpty ? "<root>" : path): \(da) vs \(db)"
    }
    if ma.displayStyle == .dictionary || mb.displayStyle == .dictionary {
        func entries(_ m: Mirror) -> [String: Any] {
            var result: [String: Any] = [:]
            for child in m.children {
                let pair = Array(Mirror(reflecting: child.value).children)
                if pair.count == 2 { result[String(describing: pair[0].value)] = pair[1].value }
            }
            return result
        }
        let ea = entries(ma), eb = entries(mb)
        if Set(ea.keys) != Set(eb.keys) {
            return "\(path): keys \(ea.keys.sorted()) vs \(eb.keys.sorted())"
        }
        for key in ea.keys.sorted() {
            if let d = firstDifference(ea[key]!, eb[key]!, path: "\(path)[\"\(key)\"]") { return d }
        }
        return nil
    }
    let ca = Array(ma.children), cb = Array(mb.children)
    if ca.count != cb.count { return "\(path): \(ca.count) vs \(cb.count) elements/fields" }
    let indexed = ma.displayStyle == .collection || ma.displayStyle == .set
    for (i, (x, y)) in zip(ca, cb).enumerated() {
        let component = indexed ? "[\(i)]" : (x.label.map { path.isEmpty ? $0 : ".\($0)" } ?? "[\(i)]")
        if let d = firstDifference(x.value, y.value, path: path + component) { return d }
    }
    return nil
}

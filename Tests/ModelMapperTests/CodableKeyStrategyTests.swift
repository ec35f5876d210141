import Foundation
import XCTest
@testable import ModelMapper

// `.convertFromSnakeCase` and `.custom` key strategies against JSONDecoder with the same strategy, on
// the inputs where a per-spelling table (SnakeCaseSpellings) could go wrong: keys that collide after the
// conversion, underscores at either end, non-ASCII keys, spellings met before their key is asked for, key
// types past 64 keys or with two keys of one name, many objects and decodings reusing the thread's state.

private struct Account: Codable, Equatable {
    var userName: String?
    var userId: Int?
    var _private: Int?
    var trailing_: Int?
    var ñameÜber: Int?
    var nested: [Account]?
}

/// Reads whichever of its keys are present, in an order that depends on the data (keys are learned midway).
private struct Sparse: Decodable, Equatable {
    var values: [String: Int] = [:]
    enum CodingKeys: String, CodingKey, CaseIterable { case aB, ab, a_b, _aB, aB_, abc, bC }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let order = (try c.decodeIfPresent(Int.self, forKey: .abc) ?? 0) % 2 == 0 ? CodingKeys.allCases : CodingKeys.allCases.reversed()
        for key in order {
            if let v = try c.decodeIfPresent(Int.self, forKey: key) { values[key.stringValue] = v }
        }
        values["allKeys"] = c.allKeys.count
    }
}

/// Two keys with one name (a hand-written key type).
private struct Twins: Decodable, Equatable {
    var first: Int?
    var second: Int?
    enum Keys: CodingKey {
        case first, second
        var stringValue: String { "sameName" }
        init?(stringValue: String) { if stringValue == "sameName" { self = .first } else { return nil } }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        second = try c.decodeIfPresent(Int.self, forKey: .second)
        first = try c.decodeIfPresent(Int.self, forKey: .first)
    }
}

/// Two keys with one name, the second asked for only once the first read 2: its key type learns the
/// second name after objects were indexed with the first (a member whose spelling had a tag then has two).
private struct LateTwins: Decodable, Equatable {
    var first: Int?
    var second: Int?
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Twins.Keys.self)
        second = try c.decodeIfPresent(Int.self, forKey: .second)
        if second == 2 { first = try c.decodeIfPresent(Int.self, forKey: .first) }
    }
}

/// A key type of 70 keys (tags past 63 are found by name).
private struct Wide: Decodable, Equatable {
    var values: [Int] = []
    enum Keys: Int, CodingKey, CaseIterable { case k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18, k19, k20, k21, k22, k23, k24, k25, k26, k27, k28, k29, k30, k31, k32, k33, k34, k35, k36, k37, k38, k39, k40, k41, k42, k43, k44, k45, k46, k47, k48, k49, k50, k51, k52, k53, k54, k55, k56, k57, k58, k59, k60, k61, k62, k63, k64, k65, k66, k67, k68, k69 }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        for key in Keys.allCases.reversed() { values.append(try c.decodeIfPresent(Int.self, forKey: key) ?? -1) }
    }
}

final class CodableKeyStrategyTests: XCTestCase {
    private func same<T: Decodable & Equatable>(_ type: T.Type, _ json: String, _ strategy: JSONDecoder.KeyDecodingStrategy,
                                                file: StaticString = #filePath, line: UInt = #line) {
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = strategy
        let theirs = JSONDecoder()
        theirs.keyDecodingStrategy = strategy
        let data = Data(json.utf8)
        switch (Result { try theirs.decode(T.self, from: data) }, Result { try ours.decode(T.self, from: data) }) {
        case (.success(let e), .success(let a)): XCTAssertEqual(a, e, json, file: file, line: line)
        case (.failure, .failure): break
        case (let e, let a): XCTFail("JSONDecoder: \(e), ModelDecoder: \(a) for \(json)", file: file, line: line)
        }
    }

    func testSnakeCaseCollisionsUnderscoresAndNonASCII() {
        let inputs = [
            #"{"user_name":"a","userName":"b"}"#,
            #"{"userName":"b","user_name":"a"}"#,
            #"{"user__name":"a","USER_NAME":"b","user_id":1}"#,
            #"{"user_name_":"x","_user_name":"y","user_id":2}"#,
            #"{"_private":1,"__private":2,"trailing_":3,"trailing__":4}"#,
            #"{"_":1,"__":2,"":3,"user_name":"z"}"#,
            #"{"ñame_über":1}"#,
            #"{"ÑAME_ÜBER":1,"ñame_über":2}"#,
            #"{"\u00f1ame_\u00fcber":5}"#,
            #"{"nested":[{"user_name":"n1"},{"userName":"n2","user_name":"n3"},{"nested":[{"user_id":9}]}],"user_name":"top"}"#,
        ]
        for json in inputs { same(Account.self, json, .convertFromSnakeCase) }
        // The same documents again and as one array: the second time every spelling is in the table.
        for json in inputs { same(Account.self, json, .convertFromSnakeCase) }
        same([Account].self, "[" + inputs.joined(separator: ",") + "]", .convertFromSnakeCase)
    }

    /// Every spelling of up to four characters over `a`, `b`, `B`, `_`, `c`, with keys asked for in an order that
    /// depends on the object, in one array (spellings first met before their key is learned) and one by one.
    func testSnakeCaseSpellingsAgainstJSONDecoder() {
        let alphabet = ["a", "b", "B", "_", "c"]
        var spellings = alphabet
        var last = alphabet
        for _ in 0..<3 {
            last = last.flatMap { s in alphabet.map { s + $0 } }
            spellings += last
        }
        var objects: [String] = []
        for (i, chunk) in stride(from: 0, to: spellings.count, by: 7).enumerated() {
            let members = spellings[chunk..<min(chunk + 7, spellings.count)].enumerated().map { #""\#($1)":\#($0 + i)"# }
            objects.append("{" + members.joined(separator: ",") + #","abc":\#(i)}"#)
        }
        same([Sparse].self, "[" + objects.joined(separator: ",") + "]", .convertFromSnakeCase)
        for object in objects.prefix(60) { same(Sparse.self, object, .convertFromSnakeCase) }
    }

    func testKeysOfOneNameAndWideKeyTypes() {
        same([LateTwins].self, #"[{"same_name":1},{"same_name":2},{"sameName":3,"same_name":2}]"#, .convertFromSnakeCase)
        same(Twins.self, #"{"same_name":1}"#, .convertFromSnakeCase)
        same(Twins.self, #"{"sameName":1,"same_name":2}"#, .convertFromSnakeCase)
        let wide = "{" + (0..<70).map { #""k_\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        same(Wide.self, wide, .convertFromSnakeCase)
        same([Wide].self, #"[\#(wide),{"k_69":1,"k69":2,"k_0":3}]"#, .convertFromSnakeCase)
    }

    /// A custom strategy that depends on the coding path: the same key spelling names different keys at
    /// different depths, and in different array elements; ModelDecoder calls it per member, as JSONDecoder.
    func testCustomStrategyDependingOnTheCodingPath() {
        let byPath: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            let last = path.last!.stringValue
            let inSecondElement = path.dropLast().last?.intValue == 1
            if path.count == 1 { return JSONStringKey(last == "name" ? "userName" : last) }
            return JSONStringKey(inSecondElement && last == "id" ? "userId" : FoundationKeys.fromSnakeCase(last))
        }
        same(Account.self, #"{"name":"top","nested":[{"user_id":1,"id":2},{"user_id":3,"id":4,"name":"x"}]}"#, .custom(byPath))
        same([Account].self, #"[{"name":"a","nested":[{"id":1},{"id":2}]},{"name":"b"}]"#, .custom(byPath))
    }
}

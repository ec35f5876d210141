// `@JSONModel` against reflection (issue 45.5, DESIGN section 8's `@JSONModel` row): the macro twins of the
// partial models and of YYModel's GithubUser (Models/MacroTwins.swift) decode the same bytes as the reflected
// `JSONMappable` models and JSONDecoder (on the reflected models' Codable conformance: a macro model's own
// Codable goes through its mapping, so JSONDecoder on it would measure ModelMapper), in one run. The
// `@JSONModel` row's ratio is against the reflected decode ("ModelMapper"); its ratio to JSONDecoder is the
// product of the two rows' ratios. Its own block of suites (`macroTwinSuites`, appended in Suites.swift).

import BenchmarkModels
import CYajlFloor
import Foundation
import ModelMapper

/// The macro twins' suites, in order.
var macroTwinSuites: [SuiteFactory] { [
    macroTwinSuite("twitter_partial_macro", file: "bench/twitter.json", objectDocument(TwitterPartialTimeline.self),
                   macro: { try MacroTwitterPartialTimeline(json: $0) }, encode: { try $0.jsonData() }),
    macroTwinSuite("github_events_partial_macro", file: "bench/github_events.json", arrayDocument(GithubPartialEvent.self),
                   macro: { try [MacroGithubPartialEvent](json: $0) }, encode: { try $0.jsonData() }),
    macroTwinSuite("yymodel_user_macro", file: "yymodel/user.json", objectDocument(GithubUser.self),
                   macro: { try MacroGithubUser(json: $0) }, encode: { try $0.jsonData() }, yyModelIterations: true),
] }

extension ContenderName {
    static let jsonModel = "ModelMapper @JSONModel"
    static let jsonModelEncode = "ModelMapper @JSONModel jsonData()"
}

/// One data set decoded by the reflected model (`kind`), its macro twin (`macro`) and JSONDecoder; encoded
/// by both ModelMapper models and JSONEncoder. The check: both ModelMapper decodes encode to the same bytes (the twins have
/// the same fields, in the same order, with the same keys), so they decoded the same values.
func macroTwinSuite<Document, Macro>(_ name: String, file: String, _ kind: DocumentKind<Document>,
                                     macro: @escaping (Data) throws -> Macro, encode: @escaping (Macro) throws -> Data,
                                     yyModelIterations: Bool = false) -> SuiteFactory {
    SuiteFactory(name: name) { environment in
        let data = try environment.load(file)
        let bytes = [UInt8](data)
        let decoder = JSONDecoder(), encoder = JSONEncoder()
        let reflected = try kind.decode(data)
        let twin = try macro(data)
        var checks: [String] = []
        if environment.settings.checksSameWork {
            let fromReflected = try kind.encode(reflected), fromMacro = try encode(twin)
            if fromReflected != fromMacro {
                throw UnexpectedJSON(description: "\(name): the @JSONModel twin did not decode what the reflected model did")
            }
            checks.append("the @JSONModel twin and the reflected model encode to the same \(fromMacro.count) bytes")
        }
        typealias N = ContenderName
        var suite = BenchmarkSuite(
            name: name, detail: "\(file) (\(formatBytes(data.count))) → \(kind.modelName), @JSONModel twin",
            bytesPerOp: data.count, floor: N.yajlFloor,
            contenders: [
                Contender(.parse, N.yajlFloor, reference: N.jsonDecoder, comparesToFloor: true) {
                    let tokens = bytes.withUnsafeBufferPointer { yajl_floor_parse($0.baseAddress, $0.count, 1) }
                    if tokens == 0 { throw UnexpectedJSON(description: "yajl rejected the input") }
                },
                Contender(.decode, N.modelMapper, reference: N.jsonDecoder, comparesToFloor: true) {
                    blackHole(try kind.decode(data))
                },
                Contender(.decode, N.jsonModel, reference: N.modelMapper, comparesToFloor: true) {
                    blackHole(try macro(data))
                },
                Contender(.decode, N.jsonDecoder, reference: N.jsonDecoder, comparesToFloor: true) {
                    blackHole(try decoder.decode(Document.self, from: data))
                },
                Contender(.encode, N.modelMapperEncode, reference: N.jsonEncoder) {
                    blackHole(try kind.encode(reflected))
                },
                Contender(.encode, N.jsonModelEncode, reference: N.modelMapperEncode) {
                    blackHole(try encode(twin))
                },
                // The reference of the reflected encode, so the section 8 table's "encode vs JSONEncoder" column
                // reads the same ratio here as in the reflected model's own suite.
                Contender(.encode, N.jsonEncoder, reference: N.jsonEncoder) {
                    blackHole(try encoder.encode(reflected))
                },
            ])
        suite.checks = checks
        if yyModelIterations { suite.fixedOpsPerSample = environment.settings.yyModelIterations }
        return suite
    }
}

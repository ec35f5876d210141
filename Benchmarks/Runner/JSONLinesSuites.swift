// JSON Lines throughput (issues 46.2 and 47.4): twitter.json's statuses as one record per line.
// - A `Decodable` type through `JSONLines(decoder:)` against `ModelDecoder.decode` of each line: the stream
//   should cost no more than the per-line calls it replaces (split + positions are cheap).
// - A mapped model streamed from a file: synchronous and `for try await`, 1 and 2 workers.

import BenchmarkModels
import Foundation
import ModelMapper

extension BenchmarkGroup {
    static let jsonLines = BenchmarkGroup(name: "jsonl", summary: "JSON Lines records -> models (ratio: against the row named)")
}

/// A status known only as `Decodable` (its `init(from:)` is TwitterStatus's): read on the Codable path,
/// not through the mapping that `TwitterStatus`'s `JSONMappable` conformance would pick.
struct CodableStatus: Decodable {
    let status: TwitterStatus
    init(from decoder: any Decoder) throws { status = try TwitterStatus(from: decoder) }
}

/// Blocks the calling (non-cooperative) benchmark thread until an async body is done.
private func runBlocking(_ body: @escaping @Sendable () async throws -> Int) throws -> Int {
    final class Box: @unchecked Sendable { var result: Result<Int, any Error> = .success(0) }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result.get()
}

func jsonLinesSuite(_ name: String, file: String, copies: Int) -> SuiteFactory {
    SuiteFactory(name: name) { environment in
        let data = try environment.load(file)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let statuses = object["statuses"] as? [Any] else { throw SkipSuite(reason: "\(file) has no statuses") }
        let lines = try statuses.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        var text = ""
        for _ in 0..<copies { for line in lines { text += line; text += "\n" } }
        let bytes = Data(text.utf8)
        let lineData = text.split(separator: "\n").map { Data($0.utf8) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("modelmapper-bench-\(getpid()).jsonl")
        try bytes.write(to: url)
        let records = lineData.count
        let decoder = ModelDecoder()
        func check(_ count: Int) throws {
            if count != records { throw SkipSuite(reason: "decoded \(count) of \(records) records") }
        }
        let perLine = "ModelDecoder per line (Decodable)"
        let syncOne = "mapped, file, sync, 1 worker"
        let asyncOne = "mapped, file, for try await, 1 worker"
        let suite = BenchmarkSuite(
            name: name, detail: "\(file) statuses × \(copies) as JSON Lines (\(records) records, \(formatBytes(bytes.count)))",
            bytesPerOp: bytes.count, floor: nil,
            contenders: [
                Contender(.jsonLines, perLine, reference: nil) {
                    var n = 0
                    for line in lineData { blackHole(try decoder.decode(CodableStatus.self, from: line)); n += 1 }
                    try check(n)
                },
                Contender(.jsonLines, "JSONLines<Decodable>, Data, forEach, 1 worker", reference: perLine) {
                    var n = 0
                    try JSONLines<CodableStatus>(data: bytes, decoder: decoder).forEach { blackHole($0); n += 1 }
                    try check(n)
                },
                Contender(.jsonLines, "JSONLines<Decodable>.decodeAll, 1 worker", reference: perLine) {
                    try check(try JSONLines<CodableStatus>.decodeAll(bytes, decoder: decoder, workers: 1).count)
                },
                Contender(.jsonLines, "JSONLines<Decodable>.decodeAll, 2 workers", reference: perLine) {
                    try check(try JSONLines<CodableStatus>.decodeAll(bytes, decoder: decoder, workers: 2).count)
                },
                Contender(.jsonLines, syncOne, reference: nil) {
                    var n = 0
                    try JSONLines<TwitterStatus>(url: url, workers: 1).forEach { blackHole($0); n += 1 }
                    try check(n)
                },
                Contender(.jsonLines, "mapped, file, sync, 2 workers", reference: syncOne) {
                    var n = 0
                    try JSONLines<TwitterStatus>(url: url, workers: 2).forEach { blackHole($0); n += 1 }
                    try check(n)
                },
                Contender(.jsonLines, asyncOne, reference: syncOne) {
                    try check(try runBlocking {
                        var n = 0
                        for try await status in JSONLines<TwitterStatus>(url: url, workers: 1) { blackHole(status); n += 1 }
                        return n
                    })
                },
                Contender(.jsonLines, "mapped, file, for try await, 2 workers", reference: asyncOne) {
                    try check(try runBlocking {
                        var n = 0
                        for try await status in JSONLines<TwitterStatus>(url: url, workers: 2) { blackHole(status); n += 1 }
                        return n
                    })
                },
            ])
        return suite
    }
}

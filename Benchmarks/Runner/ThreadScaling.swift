// Thread scaling: the same decodes on one thread, then split over two. After a type's first use a decode
// takes no lock and writes no shared memory (MetaCache and the Codable caches are read without a lock), so
// two threads should get close to twice the throughput of one on an idle machine with two cores or more;
// a lock or a shared write on the hot path shows as a ratio well under 2.

import BenchmarkModels
import Foundation
import ModelMapper

extension BenchmarkGroup {
    static let threads = BenchmarkGroup(
        name: "threads", summary: "the same decodes on 1 thread and split over 2 (ratio: throughput gained)")
}

/// A second thread that runs one job each time it is asked and says when it is done.
final class PartnerThread: @unchecked Sendable {
    private let go = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// Set before `go` is signalled, read by the thread after it waits on `go`.
    private var job: () -> Void = {}

    init() {
        let thread = Thread { [unowned self] in
            while true {
                go.wait()
                job()
                done.signal()
            }
        }
        thread.start()
    }

    /// Runs `mine` here while the partner runs `theirs`; returns when both are done.
    func run(_ theirs: @escaping () -> Void, alongside mine: () -> Void) {
        job = theirs
        go.signal()
        mine()
        done.wait()
    }
}

/// Decodes `file` as `kind` `perThread` times on each of two threads against `2 * perThread` times on one.
func threadScalingSuite<Document>(_ name: String, file: String, _ kind: DocumentKind<Document>,
                                  perThread: Int) -> SuiteFactory {
    SuiteFactory(name: name) { environment in
        let data = try environment.load(file)
        let expected = try JSONDecoder().decode(Document.self, from: data)
        let partner = PartnerThread()
        var failure: Error?
        func decodes(_ count: Int) -> () -> Void {
            {
                for _ in 0..<count {
                    do { blackHole(try kind.decode(data)) } catch { failure = error }
                }
            }
        }
        let oneThread = "1 thread, \(2 * perThread) decodes"
        let twoThreads = "2 threads, \(perThread) decodes each"
        var suite = BenchmarkSuite(
            name: name, detail: "\(file) (\(formatBytes(data.count))) → \(kind.modelName), \(2 * perThread) per op",
            bytesPerOp: 2 * perThread * data.count, floor: nil,
            contenders: [
                Contender(.threads, oneThread, reference: oneThread) {
                    decodes(2 * perThread)()
                    if let error = failure { throw error }
                },
                Contender(.threads, twoThreads, reference: oneThread) {
                    partner.run(decodes(perThread), alongside: decodes(perThread))
                    if let error = failure { throw error }
                },
            ])
        suite.checks = [(try? kind.decode(data)) == expected ? "ok: ModelMapper decode == JSONDecoder"
                                                              : "MISMATCH: ModelMapper decode differs from JSONDecoder's value"]
        return suite
    }
}

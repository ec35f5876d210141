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

/// A second thread that runs one job each time it is asked and says when it is done; it exits when the
/// partner is released.
final class PartnerThread: @unchecked Sendable {
    /// What the thread shares with its partner. The thread holds this, never the partner: a thread holding
    /// the partner `unowned` read it after the suite had released it (a crash at the end of a full run).
    private final class Handoff: @unchecked Sendable {
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        /// Set before `go` is signalled, read by the thread after it waits on `go`; nil tells it to exit.
        var job: (() -> Void)? = nil
    }

    private let handoff = Handoff()

    init() {
        let thread = Thread { [handoff] in
            while true {
                handoff.go.wait()
                guard let job = handoff.job else { return }
                job()
                handoff.done.signal()
            }
        }
        thread.start()
    }

    deinit {
        handoff.job = nil
        handoff.go.signal()
    }

    /// Runs `mine` here while the partner runs `theirs`; returns when both are done.
    func run(_ theirs: @escaping () -> Void, alongside mine: () -> Void) {
        handoff.job = theirs
        handoff.go.signal()
        mine()
        handoff.done.wait()
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

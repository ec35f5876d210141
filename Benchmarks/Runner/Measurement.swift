// Benchmark cases, the interleaved measurement loop and the statistics.
//
// A `BenchmarkSuite` is one input (a data set) and the contenders that process it. Contenders of a suite
// are measured in interleaved rounds after a warm-up: round r runs one sample of every contender (in an
// order rotated by r), so slow drifts of the machine (frequency, other processes) hit all of them alike.
// A sample times `opsPerSample` back-to-back operations; the per-op time of a sample is its time divided
// by that count. Rows report the median and the spread (min/max, p10/p90) of the per-op times.
// Heap allocations per operation are counted after the warm-up, outside the timed samples (`countAllocations`).

import CYajlFloor
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a value alive and opaque to the optimizer, so the work producing it cannot be dropped.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// What a row compares: the columns and ratios of the report are per group.
struct BenchmarkGroup: Hashable, Sendable {
    /// Short name shown in the tables ("decode", "encode", ...).
    let name: String
    /// One line of explanation for the report.
    let summary: String

    static let parse = BenchmarkGroup(name: "parse", summary: "bytes -> tokens / Foundation objects, no model")
    static let decode = BenchmarkGroup(name: "decode", summary: "bytes -> models")
    static let dictionary = BenchmarkGroup(
        name: "dict input", summary: "already-parsed JSONSerialization objects -> models")
    static let encode = BenchmarkGroup(name: "encode", summary: "models -> JSON bytes")
}

/// One contender of a suite: a named operation on the suite's input.
struct Contender {
    let group: BenchmarkGroup
    let name: String
    /// The contender this one's speed is compared with (same suite), by `name`; nil for none.
    let reference: String?
    /// Whether the "vs yajl floor" column applies (rows that start from the same bytes).
    let comparesToFloor: Bool
    /// One operation. Throwing during warm-up marks the contender as failed (reported, not measured).
    let run: () throws -> Void

    init(_ group: BenchmarkGroup, _ name: String, reference: String?, comparesToFloor: Bool = false,
         run: @escaping () throws -> Void) {
        self.group = group
        self.name = name
        self.reference = reference
        self.comparesToFloor = comparesToFloor
        self.run = run
    }
}

/// One input and its contenders. Add suites to `benchmarkSuites` (Suites.swift) to add rows.
struct BenchmarkSuite {
    /// Short name used by `--filter` and in the tables.
    let name: String
    /// The input, e.g. "twitter.json → TwitterTimeline".
    let detail: String
    /// Bytes of input per operation: the MB/s column is this divided by the median time.
    let bytesPerOp: Int
    /// The contender whose median is the parse floor ("vs yajl floor" column), by name.
    let floor: String?
    let contenders: [Contender]
    /// Operations per sample for every contender (YYModel's benchmark runs 10000 iterations); nil lets
    /// the runner pick a count so that one sample lasts about `Settings.sampleTarget`.
    var fixedOpsPerSample: Int? = nil
    /// Checks that the contenders do the same work (e.g. decode to equal values); messages for the report.
    var checks: [String] = []
}

/// How long to measure; `--quick` and `--iterations` change them.
struct Settings: Sendable {
    /// Warm-up per contender (also estimates the time per operation).
    var warmup: Double = 0.25
    /// Target duration of one sample; operations are batched up to it.
    var sampleTarget: Double = 0.010
    /// Measuring time per suite, split into rounds.
    var suiteBudget: Double = 14
    var minRounds = 10
    var maxRounds = 300
    /// Exact number of rounds (samples per contender), overriding the budget.
    var rounds: Int? = nil
    /// Operations per sample for the YYModel GithubUser suite.
    var yyModelIterations = 10_000
    /// Whether suites run the same-work checks (every contender once, compared with JSONDecoder's value)
    /// before measuring; `--profile` turns them off, so profiles and counts see only the profiled contender.
    var checksSameWork = true

    static let quick = Settings(warmup: 0.04, sampleTarget: 0.003, suiteBudget: 2.0, minRounds: 5,
                                maxRounds: 100, rounds: nil, yyModelIterations: 1_000)
}

/// Per-op time statistics of one contender, in nanoseconds.
struct Stats: Sendable {
    let samples: [Double]
    let median: Double
    let min: Double
    let max: Double
    let p10: Double
    let p90: Double
    let mean: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        samples = values
        func quantile(_ q: Double) -> Double {
            guard sorted.count > 1 else { return sorted.first ?? .nan }
            let position = q * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down))
            let upper = Swift.min(lower + 1, sorted.count - 1)
            let fraction = position - Double(lower)
            return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
        }
        median = quantile(0.5)
        min = sorted.first ?? .nan
        max = sorted.last ?? .nan
        p10 = quantile(0.1)
        p90 = quantile(0.9)
        mean = sorted.isEmpty ? .nan : sorted.reduce(0, +) / Double(sorted.count)
    }
}

/// The measured result of one contender.
struct ContenderResult {
    let group: BenchmarkGroup
    let name: String
    let reference: String?
    let comparesToFloor: Bool
    /// nil when the contender failed.
    let stats: Stats?
    let opsPerSample: Int
    let failure: String?
    /// Heap allocations per operation (malloc, calloc, realloc, aligned allocations: see alloc_counter.c);
    /// nil when the contender failed or allocation counting is unavailable.
    var allocations: AllocationCount? = nil
}

/// Heap allocations per operation, averaged over `runs` operations.
struct AllocationCount: Sendable {
    let perOp: Double
    let bytesPerOp: Double
    let runs: Int
}

/// Whether the allocation counter sees this process's allocations (the interposed malloc of alloc_counter.c
/// was bound by the dynamic linker: the Swift runtime has allocated before main runs, so the count is > 0).
let allocationCountingWorks = alloc_counter_active() != 0

/// Runs `body` `runs` times and counts the heap allocations of the whole process meanwhile, per run.
/// Untimed; call it after a warm-up so one-time allocations (caches, lazy metadata) do not count.
func countAllocations(runs: Int, _ body: () throws -> Void) rethrows -> AllocationCount? {
    guard allocationCountingWorks, runs > 0 else { return nil }
    let allocations0 = alloc_counter_read(), bytes0 = alloc_counter_bytes()
    for _ in 0..<runs { try body() }
    let allocations = alloc_counter_read() - allocations0, bytes = alloc_counter_bytes() - bytes0
    return AllocationCount(perOp: Double(allocations) / Double(runs), bytesPerOp: Double(bytes) / Double(runs),
                           runs: runs)
}

/// The measured results of one suite.
struct SuiteResult {
    let name: String
    let detail: String
    let bytesPerOp: Int
    let floor: String?
    let rounds: Int
    let results: [ContenderResult]
    let checks: [String]
    /// Peak resident set size of the process after this suite (getrusage ru_maxrss), in bytes.
    let peakRSSAfter: Int
    let seconds: Double

    func result(named name: String?) -> ContenderResult? {
        guard let name else { return nil }
        return results.first { $0.name == name && $0.stats != nil }
    }

    /// Bytes per second of a contender (median).
    func throughput(_ r: ContenderResult) -> Double? {
        guard let s = r.stats, s.median > 0 else { return nil }
        return Double(bytesPerOp) / (s.median / 1e9)
    }

    /// Speed relative to the contender's reference: reference time / own time (> 1: faster).
    func ratioToReference(_ r: ContenderResult) -> Double? {
        guard let s = r.stats, let ref = result(named: r.reference)?.stats else { return nil }
        return ref.median / s.median
    }

    /// Throughput as a fraction of the parse floor's: floor time / own time.
    func ratioToFloor(_ r: ContenderResult) -> Double? {
        guard r.comparesToFloor, let s = r.stats, let floor = result(named: floor)?.stats else { return nil }
        return floor.median / s.median
    }
}

@inline(__always)
func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
}

/// Peak resident set size of this process so far, in bytes.
func peakRSS() -> Int {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
}

/// Warms up, calibrates and measures the contenders of `suite` in interleaved rounds.
func measure(_ suite: BenchmarkSuite, settings: Settings, log: (String) -> Void) -> SuiteResult {
    let started = now()
    var failures = [String?](repeating: nil, count: suite.contenders.count)
    var opsPerSample = [Int](repeating: 1, count: suite.contenders.count)
    var estimates = [Double](repeating: 0, count: suite.contenders.count)  // seconds per op
    var allocations = [AllocationCount?](repeating: nil, count: suite.contenders.count)

    // Warm-up and calibration, one contender after the other.
    for (i, contender) in suite.contenders.enumerated() {
        do {
            try contender.run()  // first use: caches, lazy initialisation; also checks it works
            var count = 0
            let t0 = now()
            var elapsed = 0.0
            repeat {
                try contender.run()
                count += 1
                elapsed = Double(now() - t0) / 1e9
            } while elapsed < settings.warmup
            estimates[i] = elapsed / Double(count)
            opsPerSample[i] = suite.fixedOpsPerSample
                ?? Swift.max(1, Int((settings.sampleTarget / Swift.max(estimates[i], 1e-9)).rounded(.up)))
            // Allocations per op, untimed: one sample's worth of operations, at least 3 and at most 200.
            allocations[i] = try countAllocations(runs: Swift.min(200, Swift.max(3, opsPerSample[i])), contender.run)
        } catch {
            failures[i] = "\(error)"
            log("  \(contender.name): FAILED: \(error)")
        }
    }

    // Rounds: as many as fit the budget, within [minRounds, maxRounds], unless --iterations says.
    let roundTime = zip(estimates, opsPerSample).enumerated()
        .filter { failures[$0.offset] == nil }
        .map { $0.element.0 * Double($0.element.1) }
        .reduce(0, +)
    let rounds = settings.rounds
        ?? Swift.min(settings.maxRounds, Swift.max(settings.minRounds, Int(settings.suiteBudget / Swift.max(roundTime, 1e-9))))

    var samples = [[Double]](repeating: [], count: suite.contenders.count)
    let active = suite.contenders.indices.filter { failures[$0] == nil }
    for round in 0..<rounds {
        for k in active.indices {
            let i = active[(k + round) % active.count]
            let contender = suite.contenders[i]
            let ops = opsPerSample[i]
            do {
                let t0 = now()
                for _ in 0..<ops { try contender.run() }
                let t1 = now()
                samples[i].append(Double(t1 - t0) / Double(ops))
            } catch {
                failures[i] = failures[i] ?? "\(error)"
            }
        }
    }

    let results = suite.contenders.enumerated().map { i, c in
        ContenderResult(group: c.group, name: c.name, reference: c.reference, comparesToFloor: c.comparesToFloor,
                        stats: failures[i] == nil && !samples[i].isEmpty ? Stats(samples[i]) : nil,
                        opsPerSample: opsPerSample[i], failure: failures[i],
                        allocations: failures[i] == nil ? allocations[i] : nil)
    }
    return SuiteResult(name: suite.name, detail: suite.detail, bytesPerOp: suite.bytesPerOp, floor: suite.floor,
                       rounds: rounds, results: results, checks: suite.checks, peakRSSAfter: peakRSS(),
                       seconds: Double(now() - started) / 1e9)
}

// swift run -c release Benchmarks [--quick] [--filter NAME] [--iterations N] [--report PATH] [--data DIR]
//                                 [--require-all-data]
//
// Compares ModelMapper with what a Swift user would otherwise pick (JSONDecoder/JSONEncoder,
// JSONSerialization with handwritten mapping) and with the parse floor (yajl with no-op callbacks), on the
// same bytes, in one run. Prints the results table and writes a Markdown report, a JSON results file and
// an SVG chart. The suites are listed in Suites.swift (`benchmarkSuites`).

import CYajlFloor
import Foundation

let usage = """
usage: Benchmarks [options]
  --quick            short run (about 30 s): shorter warm-up and budget, 1000 YYModel iterations
  --filter NAME      only suites (data sets) or contenders whose name contains NAME (case-insensitive);
                     repeatable or comma-separated; the rows a ratio needs are kept
  --iterations N     exactly N measured rounds (samples per contender) instead of the time budget
  --report PATH      Markdown report path (default results/benchmark.md); the JSON results and the SVG
                     chart are written next to it (same name, .json and .svg)
  --data DIR         the data directory holding bench/ and yymodel/ (default: the repository's data/
                     folder, where every data set the suites read is committed)
  --require-all-data exit with status 1 when any selected suite was skipped for want of its data (on by
                     default when the environment has CI=true), after writing the report
  --profile NAME     no measurement: run only the contender named exactly NAME (in the suites --filter
                     selects; a filter equal to a suite's name selects that suite alone) for about 5 s
                     each, e.g. under `perf record`; no report is written
  --ops N            with --profile: run exactly N operations instead of 5 s (for callgrind and other
                     counters: run twice with different N and take the difference)
  --list             list the suites and exit
  --help             this text
"""

// MARK: Arguments

var settings = Settings()
var filters: [String] = []
var reportPath = "results/benchmark.md"
var dataPath: String?
/// A skipped suite fails the run: CI must not pass by measuring nothing.
var requireAllData = ProcessInfo.processInfo.environment["CI"] == "true"
var quick = false
var listOnly = false
var rounds: Int?
var profileName: String?
var profileOps: Int?

var arguments = CommandLine.arguments.dropFirst()
@MainActor func value(for flag: String) -> String {
    guard let v = arguments.popFirst() else {
        FileHandle.standardError.write(Data("Benchmarks: \(flag) needs a value\n\(usage)\n".utf8))
        exit(2)
    }
    return v
}
while let argument = arguments.popFirst() {
    switch argument {
    case "--quick": quick = true
    case "--filter": filters += value(for: argument).split(separator: ",").map { $0.lowercased() }
    case "--iterations":
        guard let n = Int(value(for: argument)), n > 0 else {
            FileHandle.standardError.write(Data("Benchmarks: --iterations needs a positive integer\n".utf8))
            exit(2)
        }
        rounds = n
    case "--report": reportPath = value(for: argument)
    case "--data": dataPath = value(for: argument)
    case "--require-all-data": requireAllData = true
    case "--profile": profileName = value(for: argument)
    case "--ops":
        guard let n = Int(value(for: argument)), n >= 0 else {
            FileHandle.standardError.write(Data("Benchmarks: --ops needs a non-negative integer\n".utf8))
            exit(2)
        }
        profileOps = n
    case "--list": listOnly = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("Benchmarks: unknown argument \(argument)\n\(usage)\n".utf8))
        exit(2)
    }
}
if quick { settings = .quick }
settings.rounds = rounds
settings.checksSameWork = profileName == nil

if listOnly {
    for suite in benchmarkSuites { print(suite.name) }
    exit(0)
}

/// The repository's data/ folder (this file is Benchmarks/Runner/main.swift), where the data sets of every suite
/// are committed: the same rule as the tests' (Tests/ModelMapperTests/TestSupport.swift), scripts/fuzz's,
/// scripts/counts' and scripts/gen-jsonl's. The optional large corpora of $MODELMAPPER_DATA are not benchmarked.
func defaultDataDirectory() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data")
}
let dataDirectory = dataPath.map { URL(fileURLWithPath: $0) } ?? defaultDataDirectory()
let environment = BenchmarkEnvironment(dataDirectory: dataDirectory.standardizedFileURL, settings: settings)

func log(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: Selection

/// The contenders of `suite` selected by the filters: all when the suite's name matches, else those whose
/// name matches plus the references and floor their ratios need. Nil when nothing matches.
@MainActor func select(_ suite: BenchmarkSuite) -> BenchmarkSuite? {
    guard !filters.isEmpty else { return suite }
    if filters.contains(where: { suite.name.lowercased().contains($0) }) { return suite }
    let matching = suite.contenders.filter { c in filters.contains { c.name.lowercased().contains($0) } }
    guard !matching.isEmpty else { return nil }
    var needed = Set(matching.map(\.name))
    for c in matching {
        if let reference = c.reference { needed.insert(reference) }
        if c.comparesToFloor, let floor = suite.floor { needed.insert(floor) }
    }
    return BenchmarkSuite(name: suite.name, detail: suite.detail, bytesPerOp: suite.bytesPerOp, floor: suite.floor,
                          contenders: suite.contenders.filter { needed.contains($0.name) },
                          fixedOpsPerSample: suite.fixedOpsPerSample, checks: suite.checks)
}

/// When a filter names suites, the other suites are not even loaded.
let filtersNameSuites = benchmarkSuites.contains { f in filters.contains { f.name.lowercased().contains($0) } }

// MARK: Run

#if DEBUG
log("warning: debug build; the numbers are not meaningful. Use: swift run -c release Benchmarks")
#endif
let machine = MachineInfo.current(yajlVersion: yajl_floor_yajl_version())
let settingsText = [
    quick ? "--quick" : "default run",
    rounds.map { "--iterations \($0)" },
    filters.isEmpty ? nil : "--filter \(filters.joined(separator: ","))",
].compactMap { $0 }.joined(separator: ", ")
log("ModelMapper benchmarks (\(settingsText)); data: \(environment.dataDirectory.path)")
log("machine: \(machine.cpu), \(machine.cores) cores; \(machine.build) build; load average \(machine.loadAverageAtStart)")
if !allocationCountingWorks {
    log("warning: the interposed malloc of alloc_counter.c is not in use: no allocs/op column")
}

let runStarted = now()
var results: [SuiteResult] = []
var skipped: [String] = []
/// Profiling runs exactly the suites a filter names in full when there is one (`--filter twitter` is
/// twitter alone, not twitter_partial too), so per-operation counts cover one suite.
let exactSuiteFilter = profileName != nil && benchmarkSuites.contains { f in filters.contains(f.name.lowercased()) }
for factory in benchmarkSuites {
    if filtersNameSuites && !filters.contains(where: { factory.name.lowercased().contains($0) }) { continue }
    if exactSuiteFilter && !filters.contains(factory.name.lowercased()) { continue }
    let suite: BenchmarkSuite
    do {
        suite = try factory.make(environment)
    } catch let skip as SkipSuite {
        log("\(factory.name): skipped: \(skip.reason)")
        skipped.append("\(factory.name): \(skip.reason)")
        continue
    } catch {
        log("\(factory.name): skipped: \(error)")
        skipped.append("\(factory.name): \(error)")
        continue
    }
    if let profileName {
        guard let contender = suite.contenders.first(where: { $0.name == profileName }) else { continue }
        log("\(suite.name): profiling \(profileName) " + (profileOps.map { "for \($0) ops" } ?? "for 5 s"))
        let t0 = now()
        let allocations0 = alloc_counter_read()
        var count = 0
        do {
            if let profileOps {
                while count < profileOps { try contender.run(); count += 1 }
            }
            while profileOps == nil && Double(now() - t0) / 1e9 < 5 { try contender.run(); count += 1 }
        } catch {
            log("  failed: \(error)")
        }
        log(String(format: "  %d ops, %.4f ms/op", count, Double(now() - t0) / 1e6 / Double(max(count, 1))))
        if allocationCountingWorks {
            let allocations = alloc_counter_read() - allocations0
            log(String(format: "  %llu allocations, %.1f per op", allocations, Double(allocations) / Double(max(count, 1))))
        }
        continue
    }
    guard let selected = select(suite) else { continue }
    log("\(selected.name): \(selected.detail): \(selected.contenders.count) contenders")
    for check in selected.checks where !check.hasPrefix("ok:") { log("  \(check)") }
    let result = measure(selected, settings: settings, log: log)
    log(String(format: "  %d rounds in %.1f s, peak RSS %@", result.rounds, result.seconds, formatRSS(result.peakRSSAfter)))
    results.append(result)
}
let totalSeconds = Double(now() - runStarted) / 1e9

/// Under --require-all-data (or CI=true), exits with status 1 when a suite was skipped.
@MainActor func exitIfDataWasMissing() {
    guard requireAllData && !skipped.isEmpty else { return }
    log("Benchmarks: FAIL: \(skipped.count) suite(s) skipped for want of data (--require-all-data or CI=true):")
    for reason in skipped { log("  \(reason)") }
    exit(1)
}
if profileName != nil {
    exitIfDataWasMissing()
    exit(0)
}

// MARK: Output

print("")
print(resultsTable(results).render())
print("")
print(suitesTable(results).render())
let targetText = targetsTable(results)
if !targetText.rows.isEmpty {
    print("\nTargets (DESIGN.md section 8): speed ratios, higher is better")
    print(targetText.render())
}
print(String(format: "\nPeak RSS: %@; %.0f s", formatRSS(peakRSS()), totalSeconds))

let reportURL = URL(fileURLWithPath: reportPath)
let stem = reportURL.deletingPathExtension()
let jsonURL = stem.appendingPathExtension("json")
let svgURL = stem.appendingPathExtension("svg")
do {
    try FileManager.default.createDirectory(at: reportURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let settingsRecord: [String: String] = [
        "quick": "\(quick)", "rounds": rounds.map(String.init) ?? "budget",
        "filter": filters.joined(separator: ","), "warmupSeconds": "\(settings.warmup)",
        "sampleTargetSeconds": "\(settings.sampleTarget)", "suiteBudgetSeconds": "\(settings.suiteBudget)",
        "yyModelIterations": "\(settings.yyModelIterations)", "data": environment.dataDirectory.path,
        "allocationCounting": allocationCountingWorks ? "interposed malloc (alloc_counter.c)" : "unavailable",
    ]
    try encoder.encode(jsonResults(results, machine: machine, settings: settingsRecord, totalSeconds: totalSeconds))
        .write(to: jsonURL)
    try Data(ratioChart(results).utf8).write(to: svgURL)
    let report = markdownReport(results, skipped: skipped, machine: machine, settingsText: settingsText,
                                chartFile: svgURL.lastPathComponent, jsonFile: jsonURL.lastPathComponent,
                                totalSeconds: totalSeconds)
    try Data(report.utf8).write(to: reportURL)
    print("Report: \(reportURL.path)\nResults: \(jsonURL.path)\nChart: \(svgURL.path)")
} catch {
    log("Benchmarks: could not write the report: \(error)")
    exit(1)
}
exitIfDataWasMissing()

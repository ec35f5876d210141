// Output: the results table (terminal and Markdown), the section-8 targets, the JSON results file and a
// hand-written SVG bar chart of the ratios.

import Foundation

// MARK: - Formatting

/// Three significant digits in plain notation: 0.00234, 0.0234, 2.34, 23.4, 234, 2340.
func significant(_ value: Double) -> String {
    guard value.isFinite else { return "—" }
    if value == 0 { return "0" }
    let rounded = Double(String(format: "%.3g", value)) ?? value  // 99.96 -> 100, so the magnitude is 2
    let magnitude = Int(floor(log10(abs(rounded))))
    let decimals = max(0, 2 - magnitude)
    return String(format: "%.\(decimals)f", rounded)
}

func formatRatio(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "—" }
    return String(format: "%.2f", value)
}

/// Allocations per operation: whole numbers as such ("1234"), averages of uneven counts with one decimal.
func formatAllocations(_ count: AllocationCount?) -> String {
    guard let count else { return "—" }
    let rounded = count.perOp.rounded()
    return abs(count.perOp - rounded) < 0.05 ? String(format: "%.0f", rounded) : String(format: "%.1f", count.perOp)
}

func formatRSS(_ bytes: Int) -> String {
    String(format: "%.1f MB", Double(bytes) / 1_048_576)
}

/// A table whose columns are padded so that it reads well in a terminal and is valid Markdown.
struct TextTable {
    let header: [String]
    /// "l" left, "r" right, per column.
    let alignment: [Character]
    var rows: [[String]] = []

    func render() -> String {
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            "| " + cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return alignment[i] == "r" ? pad + cell : cell + pad
            }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.enumerated().map { i, w in
            alignment[i] == "r" ? String(repeating: "-", count: w + 1) + ":" : ":" + String(repeating: "-", count: w + 1)
        }.joined(separator: "|") + "|"
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

// MARK: - Results table

func resultsTable(_ suites: [SuiteResult]) -> TextTable {
    var table = TextTable(
        header: ["data set", "op", "contender", "MB/s", "ms/op", "min – max ms", "speed vs reference", "× yajl floor",
                 "allocs/op"],
        alignment: ["l", "l", "l", "r", "r", "r", "l", "r", "r"])
    for suite in suites {
        for r in suite.results {
            guard let s = r.stats else {
                table.rows.append([suite.name, r.group.name, r.name, "—", "—", "—", "failed: \(r.failure ?? "?")", "—", "—"])
                continue
            }
            let throughput = suite.throughput(r).map { String(format: "%.1f", $0 / 1e6) } ?? "—"
            var versus = "—"
            if let ratio = suite.ratioToReference(r), let reference = r.reference {
                versus = reference == r.name ? "reference" : String(format: "%.2f× %@", ratio, reference)
            }
            table.rows.append([
                suite.name, r.group.name, r.name, throughput, significant(s.median / 1e6),
                "\(significant(s.min / 1e6)) – \(significant(s.max / 1e6))", versus,
                formatRatio(suite.ratioToFloor(r)), formatAllocations(r.allocations),
            ])
        }
    }
    return table
}

func suitesTable(_ suites: [SuiteResult]) -> TextTable {
    var table = TextTable(
        header: ["data set", "input → model", "rounds", "ops/sample", "peak RSS after", "seconds", "same work"],
        alignment: ["l", "l", "r", "r", "r", "r", "l"])
    for suite in suites {
        let ops = Set(suite.results.filter { $0.stats != nil }.map(\.opsPerSample)).sorted()
        let opsText = ops.count == 1 ? "\(ops[0])" : "\(ops.first ?? 0)–\(ops.last ?? 0)"
        let problems = suite.checks.filter { !$0.hasPrefix("ok:") }
        let checks = suite.checks.isEmpty ? "—" : problems.isEmpty ? "all \(suite.checks.count) checks ok"
            : problems.joined(separator: "; ")
        table.rows.append([suite.name, suite.detail, "\(suite.rounds)", opsText, formatRSS(suite.peakRSSAfter),
                           String(format: "%.1f", suite.seconds), checks])
    }
    return table
}

// MARK: - Targets (DESIGN.md section 8)

/// One performance target: a ratio of one contender's row, and the threshold it must reach.
struct Target {
    let label: String
    let contender: String
    /// "reference" (speed vs the row's reference) or "floor" (throughput fraction of the yajl floor).
    let metric: Metric
    let threshold: Double
    let goal: String

    enum Metric: String { case reference, floor }

    func value(in suite: SuiteResult) -> Double? {
        guard let r = suite.result(named: contender) else { return nil }
        switch metric {
        case .reference: return suite.ratioToReference(r)
        case .floor: return suite.ratioToFloor(r)
        }
    }
}

let targets: [Target] = [
    Target(label: "decode vs JSONDecoder", contender: ContenderName.modelMapper, metric: .reference,
           threshold: 3, goal: "≥ 3×"),
    Target(label: "decode vs yajl floor", contender: ContenderName.modelMapper, metric: .floor,
           threshold: 0.75, goal: "≥ 0.75"),
    Target(label: "dict input vs handwritten", contender: ContenderName.modelMapperObject, metric: .reference,
           threshold: 1 / 1.3, goal: "time ≤ 1.3× (speed ≥ 0.77)"),
    Target(label: "encode vs JSONEncoder", contender: ContenderName.modelMapperEncode, metric: .reference,
           threshold: 3, goal: "≥ 3×"),
]

func targetsTable(_ suites: [SuiteResult]) -> TextTable {
    var table = TextTable(header: ["data set"] + targets.map { "\($0.label) (\($0.goal))" },
                          alignment: ["l"] + targets.map { _ in "r" })
    for suite in suites {
        let cells = targets.map { target -> String in
            guard let v = target.value(in: suite) else { return "—" }
            // Two decimals, three when rounding would hide which side of the threshold the value is on.
            var text = String(format: "%.2f", v)
            if (Double(text) ?? v) >= target.threshold, v < target.threshold { text = String(format: "%.3f", v) }
            return text + (v >= target.threshold ? " ✅" : " ❌")
        }
        if cells.allSatisfy({ $0 == "—" }) { continue }
        table.rows.append([suite.name] + cells)
    }
    return table
}

/// YYModel's README table: total milliseconds for its iteration count, per contender.
func yyModelTable(_ suite: SuiteResult) -> TextTable {
    let iterations = suite.results.first?.opsPerSample ?? 0
    var table = TextTable(header: ["contender", "op", "ms per \(iterations) (median)", "min – max"],
                          alignment: ["l", "l", "r", "r"])
    for r in suite.results {
        guard let s = r.stats else { continue }
        let scale = Double(iterations) / 1e6
        table.rows.append([r.name, r.group.name, significant(s.median * scale),
                           "\(significant(s.min * scale)) – \(significant(s.max * scale))"])
    }
    return table
}

// MARK: - Machine

struct MachineInfo: Codable {
    let cpu: String
    let cores: Int
    let os: String
    let swift: String
    let yajl: String
    let build: String
    /// /proc/loadavg when the run started: other processes on the machine make the numbers noisier.
    let loadAverageAtStart: String

    static func current(yajlVersion: Int32) -> MachineInfo {
        var cpu = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
           let colon = line.firstIndex(of: ":") {
            cpu = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        #if compiler(>=6.4)
        let swift = "6.4 or later"
        #elseif compiler(>=6.3)
        let swift = "6.3"
        #elseif compiler(>=6.2)
        let swift = "6.2"
        #else
        let swift = "6.1 or earlier"
        #endif
        #if DEBUG
        let build = "debug (numbers are not meaningful: use swift run -c release Benchmarks)"
        #else
        let build = "release"
        #endif
        let v = Int(yajlVersion)
        return MachineInfo(cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount,
                           os: ProcessInfo.processInfo.operatingSystemVersionString, swift: swift,
                           yajl: "\(v / 10000).\(v / 100 % 100).\(v % 100)", build: build,
                           loadAverageAtStart: loadAverage())
    }
}

/// The 1, 5 and 15 minute load averages ("1.73 1.81 1.18"), or "unknown".
func loadAverage() -> String {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
    return text.split(separator: " ").prefix(3).joined(separator: " ")
}

// MARK: - JSON results

struct JSONResults: Codable {
    struct Row: Codable {
        let group: String
        let contender: String
        let reference: String?
        let failure: String?
        let opsPerSample: Int
        let samples: Int
        let medianNs: Double?
        let minNs: Double?
        let maxNs: Double?
        let p10Ns: Double?
        let p90Ns: Double?
        let meanNs: Double?
        let megabytesPerSecond: Double?
        let speedVsReference: Double?
        let fractionOfYajlFloor: Double?
        /// Heap allocations (malloc, calloc, realloc, aligned allocations) per operation, counted untimed
        /// over `allocationRuns` operations after the warm-up; nil when counting is unavailable.
        let allocationsPerOp: Double?
        /// Bytes those allocations requested, per operation.
        let allocatedBytesPerOp: Double?
        let allocationRuns: Int?
    }
    struct Suite: Codable {
        let name: String
        let input: String
        let bytesPerOp: Int
        let rounds: Int
        let seconds: Double
        let peakRSSBytesAfter: Int
        let checks: [String]
        let rows: [Row]
        let targets: [String: Double]
    }
    let generated: String
    let machine: MachineInfo
    let settings: [String: String]
    let peakRSSBytes: Int
    let totalSeconds: Double
    let suites: [Suite]
}

func jsonResults(_ suites: [SuiteResult], machine: MachineInfo, settings: [String: String], totalSeconds: Double) -> JSONResults {
    JSONResults(
        generated: ISO8601DateFormatter().string(from: Date()), machine: machine, settings: settings,
        peakRSSBytes: peakRSS(), totalSeconds: totalSeconds,
        suites: suites.map { suite in
            JSONResults.Suite(
                name: suite.name, input: suite.detail, bytesPerOp: suite.bytesPerOp, rounds: suite.rounds,
                seconds: suite.seconds, peakRSSBytesAfter: suite.peakRSSAfter, checks: suite.checks,
                rows: suite.results.map { r in
                    JSONResults.Row(
                        group: r.group.name, contender: r.name, reference: r.reference, failure: r.failure,
                        opsPerSample: r.opsPerSample, samples: r.stats?.samples.count ?? 0,
                        medianNs: r.stats?.median, minNs: r.stats?.min, maxNs: r.stats?.max, p10Ns: r.stats?.p10,
                        p90Ns: r.stats?.p90, meanNs: r.stats?.mean,
                        megabytesPerSecond: suite.throughput(r).map { $0 / 1e6 },
                        speedVsReference: suite.ratioToReference(r), fractionOfYajlFloor: suite.ratioToFloor(r),
                        allocationsPerOp: r.allocations?.perOp, allocatedBytesPerOp: r.allocations?.bytesPerOp,
                        allocationRuns: r.allocations?.runs)
                },
                targets: Dictionary(uniqueKeysWithValues: targets.compactMap { t in t.value(in: suite).map { (t.label, $0) } }))
        })
}

// MARK: - SVG chart

/// A horizontal bar chart of the target ratios per data set, with each target marked.
func ratioChart(_ suites: [SuiteResult]) -> String {
    let colors = ["#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"]
    struct Bar { let label: String; let value: Double; let target: Double; let color: String }
    var groups: [(String, [Bar])] = []
    for suite in suites {
        let bars = targets.enumerated().compactMap { i, t in
            t.value(in: suite).map { Bar(label: t.label, value: $0, target: t.threshold, color: colors[i % colors.count]) }
        }
        if !bars.isEmpty { groups.append((suite.name, bars)) }
    }
    let labelWidth = 200.0, plotWidth = 560.0, rightMargin = 70.0
    let barHeight = 14.0, barGap = 4.0, groupGap = 14.0, top = 58.0
    let maxValue = max(4, (groups.flatMap { $0.1 }.map(\.value).max() ?? 1).rounded(.up))
    let height = top + groups.reduce(0) { $0 + groupGap + 4 + Double($1.1.count) * (barHeight + barGap) } + 30
    let width = labelWidth + plotWidth + rightMargin
    func x(_ v: Double) -> Double { labelWidth + plotWidth * min(v, maxValue) / maxValue }
    func esc(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
    func f(_ v: Double) -> String { String(format: "%.1f", v) }

    var svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="\(f(width))" height="\(f(height))" \
    viewBox="0 0 \(f(width)) \(f(height))" font-family="sans-serif" font-size="12">
    <rect width="100%" height="100%" fill="white"/>
    <text x="10" y="20" font-size="15" font-weight="bold">ModelMapper speed ratios (higher is better; red tick = target)</text>

    """
    // Legend.
    var legendX = 10.0
    for (i, t) in targets.enumerated() {
        svg += "<rect x=\"\(f(legendX))\" y=\"32\" width=\"12\" height=\"12\" fill=\"\(colors[i % colors.count])\"/>"
        svg += "<text x=\"\(f(legendX + 16))\" y=\"43\">\(esc(t.label))</text>\n"
        legendX += 30 + Double(t.label.count) * 6.6
    }
    // Grid: one line per unit (per half unit when the scale is small), the 1× line dashed.
    let step = maxValue <= 6 ? 0.5 : maxValue <= 12 ? 1 : 2
    let plotBottom = height - 30
    var g = 0.0
    while g <= maxValue + 1e-9 {
        let gx = x(g)
        let dash = g == 1 ? " stroke-dasharray=\"4 3\" stroke=\"#555\"" : " stroke=\"#ddd\""
        svg += "<line x1=\"\(f(gx))\" y1=\"\(f(top - 4))\" x2=\"\(f(gx))\" y2=\"\(f(plotBottom))\"\(dash)/>"
        svg += "<text x=\"\(f(gx))\" y=\"\(f(plotBottom + 14))\" text-anchor=\"middle\" fill=\"#555\">\(g.truncatingRemainder(dividingBy: 1) == 0 ? String(Int(g)) : String(g))×</text>\n"
        g += step
    }
    var y = top
    for (name, bars) in groups {
        y += groupGap
        svg += "<text x=\"10\" y=\"\(f(y))\" font-weight=\"bold\">\(esc(name))</text>\n"
        y += 4
        for bar in bars {
            let w = max(1, x(bar.value) - labelWidth)
            svg += "<text x=\"\(f(labelWidth - 6))\" y=\"\(f(y + barHeight - 3))\" text-anchor=\"end\">\(esc(bar.label))</text>"
            svg += "<rect x=\"\(f(labelWidth))\" y=\"\(f(y))\" width=\"\(f(w))\" height=\"\(f(barHeight))\" fill=\"\(bar.color)\"/>"
            let tx = x(bar.target)
            svg += "<line x1=\"\(f(tx))\" y1=\"\(f(y - 2))\" x2=\"\(f(tx))\" y2=\"\(f(y + barHeight + 2))\" stroke=\"#d62728\" stroke-width=\"2\"/>"
            let clipped = bar.value > maxValue ? "+" : ""
            let textX = max(labelWidth + w, tx) + 5  // after the bar and the target tick
            svg += "<text x=\"\(f(textX))\" y=\"\(f(y + barHeight - 3))\">\(String(format: "%.2f", bar.value))\(clipped)</text>\n"
            y += barHeight + barGap
        }
    }
    svg += "</svg>\n"
    return svg
}

// MARK: - Markdown report

func markdownReport(_ suites: [SuiteResult], skipped: [String], machine: MachineInfo, settingsText: String,
                    chartFile: String, jsonFile: String, totalSeconds: Double) -> String {
    var md = "# ModelMapper benchmarks\n\n"
    md += "Generated \(ISO8601DateFormatter().string(from: Date())) by `swift run -c release Benchmarks` "
    md += "(\(settingsText)); \(String(format: "%.0f", totalSeconds)) s.\n\n"
    md += "Machine: \(machine.cpu), \(machine.cores) cores, \(machine.os); Swift \(machine.swift), "
    md += "yajl \(machine.yajl), \(machine.build) build. Load average at the start: \(machine.loadAverageAtStart), "
    md += "at the end: \(loadAverage()) (other processes add noise; the ratios within a data set are measured "
    md += "interleaved, so they suffer less than the absolute numbers). Peak RSS of the whole run: \(formatRSS(peakRSS())).\n"
    md += "Raw numbers: [\(jsonFile)](\(jsonFile)).\n\n"
    md += "## Targets (DESIGN.md section 8)\n\n"
    md += "Speed ratios of ModelMapper's median to the named contender's median on the same bytes/values "
    md += "(higher is better).\n\n"
    md += targetsTable(suites).render() + "\n\n"
    md += "![speed ratios](\(chartFile))\n\n"
    md += "## All results\n\n"
    var groups: [BenchmarkGroup] = []
    for r in suites.flatMap(\.results) where !groups.contains(r.group) { groups.append(r.group) }
    let groupsText = groups.map { "**\($0.name)**: \($0.summary)" }.joined(separator: "; ")
    md += """
    Per data set, every contender works on the same bytes (or the same parsed objects / model values), on the \
    same machine, measured in interleaved rounds after a warm-up. MB/s is the size of the input document \
    (also for encode rows) divided by the median time per operation; `ms/op` is that median, `min – max` \
    the spread over the samples (p10/p90 are in the JSON file). "speed vs reference" is the reference's \
    median time divided by the row's (> 1: faster); "× yajl floor" is the floor's median time divided by \
    the row's, the floor being yajl with no-op C callbacks and numbers passed raw (`yajl_number`), which \
    is the tokenizer ModelMapper runs on. "allocs/op" counts the heap allocations (malloc, calloc, realloc, \
    aligned allocations, through an interposed malloc) of one operation, over a few untimed operations after \
    the warm-up (bytes allocated per op are in the JSON file).

    Groups: \(groupsText).


    """
    md += resultsTable(suites).render() + "\n\n"
    md += "## Runs\n\n"
    md += suitesTable(suites).render() + "\n\n"
    for suite in suites {
        let problems = suite.checks.filter { !$0.hasPrefix("ok:") }
        if !problems.isEmpty {
            md += "**\(suite.name)**: " + problems.joined(separator: "; ") + "\n\n"
        }
    }
    if let user = suites.first(where: { $0.name == "yymodel_user" }) {
        md += "## YYModel's benchmark (GithubUser, \(user.results.first?.opsPerSample ?? 0) iterations)\n\n"
        md += "As in YYModel's README: time for the whole loop of iterations, per contender "
        md += "(\"JSONSerialization + handwritten\" is YYModel's \"Manually\" row).\n\n"
        md += yyModelTable(user).render() + "\n\n"
    }
    if !skipped.isEmpty {
        md += "## Skipped\n\n" + skipped.map { "- \($0)" }.joined(separator: "\n") + "\n"
    }
    return md
}

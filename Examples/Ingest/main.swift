// Ingest: reads a JSON Lines file of tweets into typed models, streaming with bounded memory, and writes
// the records it rejects (with their errors) to a dead-letter file. Prints counts and throughput, and a
// progress line when stderr is a terminal.
//
//   swift run -c release Ingest FILE [--workers N] [--format lines|concatenated|array] [--chunk-kb N]
//                                    [--dead-letter FILE] [--all] [--async] [--quiet]
//
//   --workers N     decode on N threads (default 1; with --all, default: all cores)
//   --all           decode the whole file at once (mapped into memory) with JSONLines.decodeAll
//   --async         iterate with `for try await` instead of the synchronous iterator
//   --dead-letter   where rejected records go (default FILE.rejected.jsonl; written only if any)
//
// Generate input with scripts/gen-jsonl, e.g. `scripts/gen-jsonl 100 -o /tmp/tweets.jsonl --corrupt 0.001`.
import Foundation
import ModelMapper
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: The model (a subset of a Twitter status; unknown keys are skipped)

struct Status: JSONMappable {
    var id: Int64 = 0
    var createdAt = Date(timeIntervalSince1970: 0)
    var text = ""
    var lang: String? = nil
    var retweetCount = 0
    var favoriteCount = 0
    var user = User()
    var entities = Entities()
    static let mapping = ModelMapping(keyStrategy: .snakeCase)
}

struct User: JSONMappable {
    var id: Int64 = 0
    var screenName = ""
    var followersCount = 0
    var verified = false
    static let mapping = ModelMapping(keyStrategy: .snakeCase)
}

struct Entities: JSONMappable {
    var hashtags: [Hashtag] = []
    var urls: [Link] = []
}

struct Hashtag: JSONMappable { var text = "" }
struct Link: JSONMappable { var expandedUrl: URL? = nil; static let mapping = ModelMapping(keyStrategy: .snakeCase) }

/// One dead-letter line: where the rejected record was, why, and its bytes.
struct DeadLetter: JSONMappable {
    var index = 0
    var line = 0
    var offset = 0
    var kind = ""
    var path = ""
    var errorLine: Int? = nil
    var errorColumn: Int? = nil
    var errorOffset: Int? = nil
    var message = ""
    var raw = ""
    static let mapping = ModelMapping(keyStrategy: .snakeCase)
}

// MARK: Arguments

struct Arguments {
    var file = ""
    var workers: Int? = nil
    var format = JSONStreamFormat.lines
    var chunkSize = JSONLines<Status>.defaultChunkSize
    var deadLetter: String? = nil
    var all = false
    var async = false
    var quiet = false
}

func usage() -> Never {
    FileHandle.standardError.write(Data("""
    usage: Ingest FILE [--workers N] [--format lines|concatenated|array] [--chunk-kb N] [--dead-letter FILE]
                       [--all] [--async] [--quiet]

    """.utf8))
    exit(2)
}

func parseArguments() -> Arguments {
    var a = Arguments()
    var rest = CommandLine.arguments.dropFirst()
    while let arg = rest.popFirst() {
        switch arg {
        case "--workers": guard let v = rest.popFirst().flatMap({ Int($0) }), v > 0 else { usage() }; a.workers = v
        case "--chunk-kb": guard let v = rest.popFirst().flatMap({ Int($0) }), v > 0 else { usage() }; a.chunkSize = v << 10
        case "--dead-letter": guard let v = rest.popFirst() else { usage() }; a.deadLetter = v
        case "--format":
            switch rest.popFirst() {
            case "lines": a.format = .lines
            case "concatenated": a.format = .concatenated
            case "array": a.format = .array
            default: usage()
            }
        case "--all": a.all = true
        case "--async": a.async = true
        case "--quiet": a.quiet = true
        case "-h", "--help": usage()
        default:
            if arg.hasPrefix("-") || !a.file.isEmpty { usage() }
            a.file = arg
        }
    }
    if a.file.isEmpty { usage() }
    return a
}

// MARK: Dead letters and statistics

/// Collects rejected records and appends them to the dead-letter file (created on the first one).
/// `@unchecked Sendable`: the `.skip` closure that feeds it is `@Sendable`, but the reader calls it on the
/// iterating thread only, one record at a time, and nothing else touches the writer meanwhile.
final class DeadLetterWriter: @unchecked Sendable {
    let path: String
    private var handle: FileHandle?
    private var buffer: [UInt8] = []
    private(set) var count = 0
    private(set) var byKind: [String: Int] = [:]

    init(path: String) { self.path = path }

    func add(_ r: RejectedRecord) {
        count += 1
        byKind[r.error.kind.rawValue, default: 0] += 1
        let letter = DeadLetter(index: r.index, line: r.line, offset: r.offset, kind: r.error.kind.rawValue,
                                path: r.error.path, errorLine: r.error.line, errorColumn: r.error.column,
                                errorOffset: r.error.offset, message: r.error.message, raw: r.rawText)
        buffer += (try? letter.jsonData(options: [])) ?? Data("{}".utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        if handle == nil {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            handle = FileHandle(forWritingAtPath: path)
        }
        handle?.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    func close() {
        flush()
        try? handle?.close()
    }
}

/// Running totals over the decoded models (so the work is used).
struct Totals {
    var records = 0
    var retweets = 0
    var hashtags = 0
    var verifiedUsers = 0

    mutating func add(_ s: Status) {
        records += 1
        retweets += s.retweetCount
        hashtags += s.entities.hashtags.count
        if s.user.verified { verifiedUsers += 1 }
    }
}

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

/// The progress line on stderr, drawn from the reader's own statistics (`JSONLinesProgress`: records
/// decoded and rejected, bytes read, time elapsed), which it hands over 5 times a second and once at the end.
func progressLine(_ p: JSONLinesProgress, total: Int) -> String {
    let percent = total > 0 ? Double(p.bytesRead) * 100 / Double(total) : 0
    return String(format: "\r%@ / %@ (%3.0f%%)  %d records  %d rejected  %.1f MB/s   ",
                  megabytes(p.bytesRead), megabytes(total), percent, p.recordsDecoded, p.recordsRejected,
                  p.bytesPerSecond / 1e6)
}

// MARK: Main

let args = parseArguments()
let fileSize = (try? FileManager.default.attributesOfItem(atPath: args.file)[.size] as? Int) ?? 0
let deadLetters = DeadLetterWriter(path: args.deadLetter ?? args.file + ".rejected.jsonl")
var totals = Totals()
let showsProgress = !args.quiet && isatty(STDERR_FILENO) != 0
/// Redraws the progress line (on the thread that reads; with `--all`, from the decoding threads).
let progress = ProgressReporting.every(.milliseconds(200)) { [fileSize] p in
    guard showsProgress else { return }
    FileHandle.standardError.write(Data((progressLine(p, total: fileSize) + (p.isFinished ? "\n" : "")).utf8))
}
let started = now()
var mode = ""

do {
    if args.all {
        let workers = args.workers ?? ProcessInfo.processInfo.activeProcessorCount
        mode = "decodeAll, \(workers) worker(s)"
        let models = try JSONLines<Status>.decodeAll(contentsOf: URL(fileURLWithPath: args.file), format: args.format,
                                                     workers: workers, onError: .skip { deadLetters.add($0) },
                                                     progress: progress)
        for model in models { totals.add(model) }
    } else {
        let workers = args.workers ?? 1
        let lines = JSONLines<Status>(path: args.file, format: args.format, workers: workers, chunkSize: args.chunkSize,
                                      onError: .skip { deadLetters.add($0) })
            .reportingProgress(progress)
        if args.async {
            mode = "streaming (async), \(workers) worker(s)"
            for try await status in lines { totals.add(status) }
        } else {
            mode = "streaming, \(workers) worker(s)"
            try lines.forEach { totals.add($0) }
        }
    }
} catch {
    deadLetters.close()
    FileHandle.standardError.write(Data("Ingest: \(error)\n".utf8))
    exit(1)
}
deadLetters.close()

let seconds = now() - started
let rate = Double(fileSize) / 1e6 / seconds
print("\(args.file): \(megabytes(fileSize)) in \(String(format: "%.2f", seconds)) s, \(String(format: "%.1f", rate)) MB/s [\(mode)]")
print("  \(totals.records) records decoded, \(deadLetters.count) rejected"
      + (deadLetters.byKind.isEmpty ? "" : " (" + deadLetters.byKind.sorted { $0.key < $1.key }
         .map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"))
print("  \(totals.retweets) retweets, \(totals.hashtags) hashtags, \(totals.verifiedUsers) verified users")
if deadLetters.count > 0 { print("  rejected records written to \(deadLetters.path)") }

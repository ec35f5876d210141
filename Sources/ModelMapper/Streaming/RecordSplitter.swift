// Unsafe code: the splitters scan the window through raw pointers (`memchr`, a byte-class table indexed by
// each byte, unchecked `base[p]` reads).
//
// Invariants: every position is window-relative and within `0...window.count`; a read is at `p < count`;
// `memchr` gets `count - from` bytes from `from <= count`. `shift(by:)` moves positions back by at most
// `retainFrom`, so none becomes negative. `ByteClass.table` is 256 bytes, allocated once and never freed.
// Asserted at the start of each scan and in `shift(by:)`.
//
// Finding record boundaries in a window of input bytes, without parsing the records.
//
// A splitter works over a *window*: a contiguous buffer holding the input from some global offset on.
// Positions it stores are window-relative; when the owner discards a prefix of the window it calls
// `willDiscard(upTo:window:)` and then `shift(by:)`. It never reads outside `0..<window.count`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One record found by a splitter: a byte range of the window plus where it is in the whole input.
/// A trivial type, so batches of them are cheap to collect and hand to worker threads.
struct RecordSpan {
    /// Window-relative byte range.
    var start: Int
    var end: Int
    /// 1-based line and column of `start`.
    var line: Int
    var column: Int
    /// Record number.
    var index: Int
    /// A problem in the stream's own punctuation that makes this span a rejected record without parsing.
    var issue: FramingIssue
}

/// Problems between records (the array's brackets and commas), reported as rejected records.
enum FramingIssue: UInt8 {
    case none
    /// A `}` `]` `,` or `:` where a record should start (the span is that one byte).
    case unexpectedCharacter
    /// An array element not preceded by a comma.
    case missingComma
    /// `,]`: the span is the closing bracket.
    case trailingComma
    /// A top-level value that is not the array (the span is the value).
    case notAnArray
    /// The input ended before the top-level array began (empty span).
    case missingArray
    /// The input ended inside the top-level array (empty span).
    case unclosedArray
    /// Data after the top-level array's closing bracket.
    case trailingData
    /// A record longer than the reader's `maxRecordBytes` (the span is its kept prefix; the rest was
    /// skipped without being kept).
    case tooLarge

    /// The record's error, positioned at its first byte (`raw` is the span's bytes).
    func error(raw: UnsafeRawBufferPointer, limit: RecordLimit) -> MappingError {
        if self == .tooLarge {
            return MappingError(.invalidValue, "the record is longer than maxRecordBytes (\(limit.maxBytes) bytes)",
                                line: 1, column: 1, offset: 0)
        }
        return MappingError(.syntax, message(raw: raw), line: 1, column: 1, offset: 0)
    }

    private func message(raw: UnsafeRawBufferPointer) -> String {
        switch self {
        case .none, .tooLarge: return ""
        case .unexpectedCharacter:
            let text = raw.isEmpty ? "" : String(UnicodeScalar(raw[0]))
            return "unexpected '\(text)' where a value should start"
        case .missingComma: return "expected ',' or ']' before this array element"
        case .trailingComma: return "expected a value after ',' (trailing comma before ']')"
        case .notAnArray: return "expected a top-level array, found another value"
        case .missingArray: return "unexpected end of input: expected a top-level array"
        case .unclosedArray: return "unexpected end of input: the top-level array is not closed"
        case .trailingData: return "unexpected data after the top-level array"
        }
    }
}

/// The longest record a reader takes (`maxRecordBytes`): a longer one is cut when the limit is passed,
/// reported as one rejected record (`FramingIssue.tooLarge`) whose span is its first `keptBytes`,
/// and the rest of it is dropped as it streams, so the window never holds more than the limit plus a
/// refill of one record.
struct RecordLimit {
    let maxBytes: Int
    /// The bytes of a too-large record handed out in its ``RejectedRecord/raw``.
    let keptBytes: Int

    /// The bytes of a cut record kept at most (4 KiB).
    static var prefixBytes: Int { 4096 }

    init(maxBytes: Int) {
        self.maxBytes = max(1, maxBytes)
        keptBytes = min(self.maxBytes, Self.prefixBytes)
    }
}

enum SplitResult {
    case span(RecordSpan)
    /// The window ends inside a record: supply more input (or end it).
    case needMore
    /// No more records.
    case end
}

/// The number of Unicode scalars in UTF-8 bytes (bytes that are not continuation bytes), for columns.
@inline(__always)
func scalarCount(_ bytes: UnsafeRawBufferPointer) -> Int {
    var n = 0
    for byte in bytes where byte & 0xC0 != 0x80 { n += 1 }
    return n
}

// MARK: - JSON Lines

/// Splits on `\n` with `memchr`; every non-blank line is a record (a trailing `\r` is not part of it).
struct LineSplitter {
    /// Window-relative start of the next line.
    private(set) var position = 0
    /// Where the search for the next `\n` resumes (so a long line is not rescanned on each refill).
    private var searchFrom = 0
    /// The line number of the line at `position`.
    private(set) var line: Int
    /// The next record number.
    private(set) var index: Int
    private let limit: RecordLimit
    /// The line at `position` is the rest of a line cut at the limit (already reported): drop it.
    private var skipping = false

    init(limit: RecordLimit, firstLine: Int = 1, firstIndex: Int = 0) {
        self.limit = limit
        line = firstLine
        index = firstIndex
    }

    /// Number of `\n` seen so far.
    var newlineCount: Int { line - 1 }

    mutating func next(_ window: UnsafeRawBufferPointer, atEOF: Bool) -> SplitResult {
        guard let base = window.baseAddress else { return atEOF ? .end : .needMore }
        let count = window.count
        assert(0 <= position && position <= count && searchFrom <= count, "line splitter position outside its window")
        while true {
            if position >= count { return atEOF ? .end : .needMore }
            let from = max(position, searchFrom)
            var end: Int
            let newline: Bool
            if from < count, let hit = memchr(base + from, 0x0A, count - from) {
                end = UnsafeRawPointer(hit) - base
                newline = true
            } else if atEOF {
                end = count
                newline = false
            } else {
                searchFrom = count
                if skipping {
                    position = count  // the cut line's bytes go as they come
                    return .needMore
                }
                let length = count - position - (window[count - 1] == 0x0D ? 1 : 0)
                if length > limit.maxBytes {
                    // Longer than the limit before its end is even here: report it now, drop the rest.
                    let start = position
                    skipping = true
                    position = count
                    return span(start: start, end: start + limit.keptBytes, line: line, issue: .tooLarge)
                }
                return .needMore
            }
            let start = position
            let lineNumber = line
            position = newline ? end + 1 : end
            searchFrom = position
            if newline { line += 1 }
            if skipping {
                skipping = false
                continue
            }
            if end > start && window[end - 1] == 0x0D { end -= 1 }
            if Self.isBlank(window, start, end) { continue }
            if end - start > limit.maxBytes {
                return span(start: start, end: start + limit.keptBytes, line: lineNumber, issue: .tooLarge)
            }
            return span(start: start, end: end, line: lineNumber, issue: .none)
        }
    }

    private mutating func span(start: Int, end: Int, line: Int, issue: FramingIssue) -> SplitResult {
        defer { index += 1 }
        return .span(RecordSpan(start: start, end: end, line: line, column: 1, index: index, issue: issue))
    }

    @inline(__always)
    private static func isBlank(_ window: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end {
            switch window[i] {
            case 0x20, 0x09, 0x0D: i += 1
            default: return false
            }
        }
        return true
    }

    /// Bytes before this offset are no longer needed.
    var retainFrom: Int { position }

    mutating func shift(by delta: Int) {
        assert(0 <= delta && delta <= position, "discarding bytes the line splitter still needs")
        position -= delta
        searchFrom -= delta
    }

    /// Starts after a byte-order mark of `count` bytes (before the first `next`).
    mutating func skipByteOrderMark(_ count: Int) {
        position = count
        searchFrom = count
    }
}

// MARK: - Concatenated values and top-level arrays

/// Byte classes for the structural scan, one table lookup per byte.
private enum ByteClass {
    /// Interesting inside a string: `"`, `\`, newline.
    static let inString: UInt8 = 1
    /// Interesting outside strings inside a container: quotes, brackets, newline.
    static let structural: UInt8 = 2
    /// Ends a bare scalar (number, literal or garbage): whitespace and punctuation.
    static let delimiter: UInt8 = 4
    /// JSON whitespace.
    static let space: UInt8 = 8

    nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
        let t = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        t.initialize(repeating: 0, count: 256)
        for c in "\"\\\n".utf8 { t[Int(c)] |= inString }
        for c in "\"{}[]\n".utf8 { t[Int(c)] |= structural }
        for c in " \t\r\n,:{}[]\"".utf8 { t[Int(c)] |= delimiter }
        for c in " \t\r\n".utf8 { t[Int(c)] |= space }
        return UnsafePointer(t)
    }()
}

/// Finds complete JSON values (concatenated, or the elements of one top-level array) by tracking strings
/// and brackets, without validating them: each value is then parsed on its own, so a bad value is
/// rejected alone and the scan resumes after it. A closing bracket that does not match the open one, or a
/// raw line break inside a string, ends the value early (it cannot be valid), which keeps one broken or
/// truncated value from swallowing the rest.
struct StructuralSplitter {
    private enum Phase {
        /// Concatenated: between values. Array: before `[`.
        case top
        /// After `[`.
        case afterOpen
        /// After an element: `,` or `]` expected.
        case afterElement
        /// After `,`: an element expected.
        case afterComma
        /// After the closing `]`: only whitespace may follow.
        case afterArray
        /// After a value cut short at a line break inside a string: `,`, `]` or the next element.
        case afterBroken
        /// Nothing more (after a truncated value or an end-of-input report).
        case finished
    }

    let isArray: Bool
    private var phase: Phase = .top
    /// Window-relative scan position.
    private(set) var position = 0
    private var line = 1
    /// Column checkpoint: `checkColumn` is the column of window-relative `checkPosition`, on `line`.
    private var checkPosition = 0
    private var checkColumn = 1
    private(set) var index = 0

    // The value being scanned, if any.
    private var inValue = false
    private var valueStart = 0
    private var valueLine = 1
    private var valueColumn = 1
    private var valueIssue = FramingIssue.none
    /// Phase after the value.
    private var valueNext = Phase.top
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var bare = false
    /// One bit per open container up to `trackedDepth` (1 = object), to catch `{…]`.
    private var kinds: [UInt64]
    private let trackedDepth: Int
    private let limit: RecordLimit
    /// The value being scanned was cut at the limit (already reported): its bytes are scanned for its
    /// end and not kept.
    private var skipping = false

    init(isArray: Bool, depthLimit: Int, limit: RecordLimit) {
        self.isArray = isArray
        self.limit = limit
        trackedDepth = max(1, min(depthLimit, 1 << 16))
        kinds = Array(repeating: 0, count: trackedDepth / 64 + 1)
    }

    var retainFrom: Int { inValue && !skipping ? valueStart : position }

    /// Keeps the column checkpoint valid when the window's first `count` bytes are about to go.
    mutating func willDiscard(upTo count: Int, window: UnsafeRawBufferPointer) {
        if checkPosition < count {
            checkColumn += scalarCount(UnsafeRawBufferPointer(rebasing: window[checkPosition..<count]))
            checkPosition = count
        }
    }

    mutating func shift(by delta: Int) {
        assert(0 <= delta && delta <= retainFrom && delta <= checkPosition, "discarding bytes the splitter still needs")
        position -= delta
        checkPosition -= delta
        valueStart -= delta
    }

    /// Starts after a byte-order mark of `count` bytes (before the first `next`); it is no column.
    mutating func skipByteOrderMark(_ count: Int) {
        position = count
        checkPosition = count
    }

    @inline(__always)
    private mutating func column(at offset: Int, _ window: UnsafeRawBufferPointer) -> Int {
        if offset > checkPosition {
            checkColumn += scalarCount(UnsafeRawBufferPointer(rebasing: window[checkPosition..<offset]))
            checkPosition = offset
        }
        return checkColumn
    }

    @inline(__always)
    private mutating func newline(at offset: Int) {
        line += 1
        checkPosition = offset + 1
        checkColumn = 1
    }

    private mutating func makeSpan(start: Int, end: Int, line: Int, column: Int, issue: FramingIssue) -> SplitResult {
        defer { index += 1 }
        return .span(RecordSpan(start: start, end: end, line: line, column: column, index: index, issue: issue))
    }

    /// A one-byte framing error at `position`.
    private mutating func framingByte(_ issue: FramingIssue, _ window: UnsafeRawBufferPointer) -> SplitResult {
        let start = position
        let column = column(at: start, window)
        position += 1
        return makeSpan(start: start, end: start + 1, line: line, column: column, issue: issue)
    }

    /// An empty framing error at the end of the input.
    private mutating func framingAtEnd(_ issue: FramingIssue, _ window: UnsafeRawBufferPointer) -> SplitResult {
        phase = .finished
        let column = column(at: position, window)
        return makeSpan(start: position, end: position, line: line, column: column, issue: issue)
    }

    private mutating func beginValue(issue: FramingIssue, next: Phase, _ window: UnsafeRawBufferPointer) {
        inValue = true
        valueStart = position
        valueLine = line
        valueColumn = column(at: position, window)
        valueIssue = issue
        valueNext = next
        depth = 0
        inString = false
        escaped = false
        bare = false
        let byte = window[position]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            push(isObject: byte == UInt8(ascii: "{"))
        case UInt8(ascii: "\""):
            inString = true
        default:
            bare = true
        }
        position += 1
    }

    /// The value's span; nil for a value cut at the limit (reported when it was cut).
    private mutating func endValue(at end: Int, truncated: Bool) -> SplitResult? {
        inValue = false
        phase = truncated ? .finished : valueNext
        if skipping {
            skipping = false
            return nil
        }
        if end - valueStart > limit.maxBytes {
            return makeSpan(start: valueStart, end: valueStart + limit.keptBytes, line: valueLine, column: valueColumn,
                            issue: .tooLarge)
        }
        return makeSpan(start: valueStart, end: end, line: valueLine, column: valueColumn, issue: valueIssue)
    }

    /// The window ends inside the value: `.needMore`, or the value's report once it is longer than the
    /// limit (from then on it is only scanned for its end, its bytes dropped as they come).
    private mutating func valueNeedsMore(windowCount count: Int) -> SplitResult {
        guard !skipping, count - valueStart > limit.maxBytes else { return .needMore }
        skipping = true
        return makeSpan(start: valueStart, end: valueStart + limit.keptBytes, line: valueLine, column: valueColumn,
                        issue: .tooLarge)
    }

    /// A raw line break inside a string: the value cannot be valid JSON (control characters must be
    /// escaped), and it is most likely a record cut short, so it ends here (before the line break) and
    /// the scan resumes on the next line — a truncated record does not swallow the ones after it.
    private mutating func breakValue(at p: Int) -> SplitResult? {
        position = p
        let result = endValue(at: p, truncated: false)
        phase = isArray ? .afterBroken : .top
        return result
    }

    @inline(__always)
    private mutating func push(isObject: Bool) {
        if depth < trackedDepth {
            let (word, bit) = (depth >> 6, UInt64(1) << UInt64(depth & 63))
            if isObject { kinds[word] |= bit } else { kinds[word] &= ~bit }
        }
        depth += 1
    }

    /// Pops a container; false if `isObject` does not match the open one.
    @inline(__always)
    private mutating func pop(isObject: Bool) -> Bool {
        depth -= 1
        guard depth < trackedDepth else { return true }
        let open = kinds[depth >> 6] & (UInt64(1) << UInt64(depth & 63)) != 0
        return open == isObject
    }

    mutating func next(_ window: UnsafeRawBufferPointer, atEOF: Bool) -> SplitResult {
        let count = window.count
        let table = ByteClass.table
        while true {
            if inValue {
                if let result = scanValue(window, atEOF: atEOF, table: table) { return result }
                continue
            }
            // Between records: skip whitespace.
            while position < count, table[Int(window[position])] & ByteClass.space != 0 {
                if window[position] == 0x0A { newline(at: position) }
                position += 1
            }
            if position >= count {
                guard atEOF else { return .needMore }
                switch phase {
                case .top:
                    if isArray && index == 0 { return framingAtEnd(.missingArray, window) }
                    return .end
                case .afterOpen, .afterElement, .afterComma, .afterBroken:
                    return framingAtEnd(.unclosedArray, window)
                case .afterArray, .finished:
                    return .end
                }
            }
            let byte = window[position]
            let isCloser = byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            let isPunctuation = isCloser || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":")
            switch phase {
            case .finished:
                return .end
            case .top:
                if isArray && byte == UInt8(ascii: "[") {
                    position += 1
                    phase = .afterOpen
                } else if isPunctuation {
                    return framingByte(.unexpectedCharacter, window)
                } else {
                    beginValue(issue: isArray ? .notAnArray : .none, next: .top, window)
                }
            case .afterOpen:
                if byte == UInt8(ascii: "]") {
                    position += 1
                    phase = .afterArray
                } else if isPunctuation {
                    return framingByte(.unexpectedCharacter, window)
                } else {
                    beginValue(issue: .none, next: .afterElement, window)
                }
            case .afterElement, .afterBroken:
                if byte == UInt8(ascii: ",") {
                    position += 1
                    phase = .afterComma
                } else if byte == UInt8(ascii: "]") {
                    position += 1
                    phase = .afterArray
                } else if isPunctuation {
                    return framingByte(.unexpectedCharacter, window)
                } else {
                    // A broken value may have swallowed the comma: accept what follows it either way.
                    beginValue(issue: phase == .afterBroken ? .none : .missingComma, next: .afterElement, window)
                }
            case .afterComma:
                if byte == UInt8(ascii: "]") {
                    phase = .afterArray
                    return framingByte(.trailingComma, window)
                } else if isPunctuation {
                    return framingByte(.unexpectedCharacter, window)
                } else {
                    beginValue(issue: .none, next: .afterElement, window)
                }
            case .afterArray:
                if isPunctuation {
                    return framingByte(.trailingData, window)
                }
                beginValue(issue: .trailingData, next: .afterArray, window)
            }
        }
    }

    /// Continues the value being scanned: a span when it ends (nil when it ends after it was cut at the
    /// limit), `.needMore` (or the cut) when the window ends first.
    private mutating func scanValue(_ window: UnsafeRawBufferPointer, atEOF: Bool,
                                    table: UnsafePointer<UInt8>) -> SplitResult? {
        let count = window.count
        assert(0 <= position && position <= count && (!inValue || valueStart <= position), "splitter position outside its window")
        guard let base = window.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return atEOF ? endValue(at: valueStart, truncated: true) : .needMore
        }
        var p = position
        defer { position = p }
        if bare {
            while p < count, table[Int(base[p])] & ByteClass.delimiter == 0 { p += 1 }
            if p < count || atEOF {
                // Ended by a delimiter (not consumed) or by the end of the input: complete either way.
                position = p
                return endValue(at: p, truncated: false)
            }
            return valueNeedsMore(windowCount: count)
        }
        while p < count {
            if inString {
                if escaped {
                    escaped = false
                    if base[p] == 0x0A { return breakValue(at: p) }
                    p += 1
                    continue
                }
                while p < count, table[Int(base[p])] & ByteClass.inString == 0 { p += 1 }
                guard p < count else { break }
                switch base[p] {
                case UInt8(ascii: "\\"):
                    escaped = true
                case UInt8(ascii: "\""):
                    inString = false
                    if depth == 0 {
                        p += 1
                        position = p
                        return endValue(at: p, truncated: false)
                    }
                default:
                    return breakValue(at: p)
                }
                p += 1
                continue
            }
            while p < count, table[Int(base[p])] & ByteClass.structural == 0 { p += 1 }
            guard p < count else { break }
            let byte = base[p]
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                push(isObject: byte == UInt8(ascii: "{"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let matches = pop(isObject: byte == UInt8(ascii: "}"))
                if depth == 0 || !matches {
                    // Complete, or broken by a mismatched bracket (the parser will say why).
                    p += 1
                    position = p
                    return endValue(at: p, truncated: false)
                }
            default:
                newline(at: p)
            }
            p += 1
        }
        if atEOF {
            position = p
            return endValue(at: count, truncated: true)
        }
        return valueNeedsMore(windowCount: count)
    }
}

/// Either splitter, chosen by the stream format.
struct RecordSplitter {
    private let isLines: Bool
    private var lines: LineSplitter
    private var structural: StructuralSplitter
    /// Before the first record: a UTF-8 byte-order mark there is skipped (streams are read as UTF-8 only).
    private var atStart = true

    init(format: JSONStreamFormat, depthLimit: Int, limit: RecordLimit) {
        isLines = format == .lines
        lines = LineSplitter(limit: limit)
        structural = StructuralSplitter(isArray: format == .array, depthLimit: isLines ? 1 : depthLimit, limit: limit)
    }

    @inline(__always)
    mutating func next(_ window: UnsafeRawBufferPointer, atEOF: Bool) -> SplitResult {
        if atStart {
            let bom = Self.byteOrderMarkLength(window)
            if bom < 0 && !atEOF { return .needMore }
            atStart = false
            if bom > 0 {
                if isLines { lines.skipByteOrderMark(bom) } else { structural.skipByteOrderMark(bom) }
            }
        }
        return isLines ? lines.next(window, atEOF: atEOF) : structural.next(window, atEOF: atEOF)
    }

    /// 3 when `bytes` start with a UTF-8 byte-order mark, 0 when they do not, -1 when they are too short
    /// to tell (a prefix of one).
    static func byteOrderMarkLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        for (k, byte) in [UInt8(0xEF), 0xBB, 0xBF].enumerated() {
            guard k < bytes.count else { return -1 }
            if bytes[k] != byte { return 0 }
        }
        return 3
    }

    /// Bytes before this window offset are no longer needed.
    var retainFrom: Int { isLines ? lines.retainFrom : structural.retainFrom }

    /// Before the window's first `count` bytes are discarded (count <= retainFrom): rebase positions.
    mutating func discard(upTo count: Int, window: UnsafeRawBufferPointer) {
        if isLines {
            lines.shift(by: count)
        } else {
            structural.willDiscard(upTo: count, window: window)
            structural.shift(by: count)
        }
    }
}

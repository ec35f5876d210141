import Foundation
import ModelMapper

/// Collects the errors an `invalidValueHandler` receives, from any thread (streaming readers report from
/// worker threads).
final class ReportCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [MappingError] = []

    func add(_ error: MappingError) { lock.lock(); stored.append(error); lock.unlock() }

    var errors: [MappingError] { lock.lock(); defer { lock.unlock() }; return stored }

    /// Options that report into this collector.
    func options(_ base: DecodingOptions = .lenient) -> DecodingOptions {
        base.skippingInvalidValues { [self] in add($0) }
    }

    /// "path kind line:column" per error, in report order.
    var summary: [String] {
        errors.map { "\($0.path) \($0.kind) \($0.line.map(String.init) ?? "-"):\($0.column.map(String.init) ?? "-")" }
    }
}

/// What a `.skip` closure (which is `@Sendable`) collects: an array behind a lock. The closure runs on
/// the iterating thread, so the lock is never contended; it only makes the capture `Sendable`.
final class Collected<Element>: @unchecked Sendable, RandomAccessCollection {
    private let lock = NSLock()
    private var stored: [Element] = []

    init() {}

    func append(_ element: Element) { lock.lock(); stored.append(element); lock.unlock() }

    /// The elements collected so far.
    var items: [Element] { lock.lock(); defer { lock.unlock() }; return stored }

    func removeAll() { lock.lock(); stored.removeAll(); lock.unlock() }

    var startIndex: Int { 0 }
    var endIndex: Int { lock.lock(); defer { lock.unlock() }; return stored.count }
    subscript(position: Int) -> Element { lock.lock(); defer { lock.unlock() }; return stored[position] }
}

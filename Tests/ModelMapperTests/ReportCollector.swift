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

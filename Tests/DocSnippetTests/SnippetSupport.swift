import Foundation

/// What a test file's snippets print outside a local `print`, recorded for its assertions (a handler may
/// run on any thread). Each file keeps its own instance and its own `print`.
final class Printed: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    func removeAll() { lock.lock(); stored.removeAll(); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

import Foundation

/// The model types whose metadata the current thread is building, across nested build sessions.
///
/// No lock is held while a build runs user code (`M.mapping`), so that code may itself decode with
/// ModelMapper and start a nested build session on the same thread. If that nested session reaches a type
/// an outer session is still building (a mapping that decodes its own model), the type cannot be finished
/// first: that is a cycle, reported as an error instead of a hang or a half-built meta.
enum TypesBeingBuilt {
    private final class Set {
        var ids: Swift.Set<ObjectIdentifier> = []
    }
    private static let key = "ModelMapper.TypesBeingBuilt"

    private static var current: Set {
        let dictionary = Thread.current.threadDictionary
        if let set = dictionary[key] as? Set { return set }
        let set = Set()
        dictionary[key] = set
        return set
    }

    /// Marks `id` as being built on this thread; false if it already is (a cycle).
    static func begin(_ id: ObjectIdentifier) -> Bool {
        current.ids.insert(id).inserted
    }

    static func end(_ id: ObjectIdentifier) {
        current.ids.remove(id)
    }
}

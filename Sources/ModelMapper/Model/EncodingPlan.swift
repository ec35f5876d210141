// Unsafe code: a plan's flattened entries point into one allocation of key text (`keyText`), made when the
// plan is built and freed with the entries by its meta's deinit (`deallocate`), after the meta's last use.
//
// Invariants: each entry's `key[0..<keyCount]` lies inside that allocation; an object entry's `-1 - property`
// is an index of `members`; `deallocate` is called once, by the meta that owns the plan.

/// The shape of a model's JSON output: the mapping reversed. Key paths build nested objects (sibling paths
/// share one object), a property with alternative keys writes its first (or its `encodingKeys` entry),
/// properties in `ignoredWhenEncoding` are left out, and when two properties claim the same key the first
/// declared one writes it.
struct EncodingPlan {
    // Not `indirect`: `[Member]` already boxes the recursion, and an indirect enum stores its box pointer
    // with the case tag in the pointer's spare bits, which leak checkers (LeakSanitizer, valgrind) cannot
    // follow, so every cached plan was reported as "definitely lost".
    enum Node {
        /// The property at this index in the model's `properties`.
        case property(Int)
        case object([Member])
    }

    struct Member {
        let key: String
        /// `"key"` escaped and quoted, written as is.
        let escapedKey: [UInt8]
        var node: Node
    }

    let members: [Member]

    /// `members` (the top level) flattened for the compact loop: plain values, no reference counting.
    struct Entry {
        /// `,"key":`, escaped, written without its comma for the first member.
        let key: UnsafePointer<UInt8>
        let keyCount: Int
        /// The property's index in the model's `properties`, or `-1 - i` for `members[i]`, an object.
        let property: Int
    }

    /// One entry per member, allocated once and freed with the plan's meta (`deallocate`), like the meta's
    /// slots.
    let entries: UnsafeBufferPointer<Entry>
    /// The allocation the entries' keys point into.
    private let keyText: UnsafeMutablePointer<UInt8>

    init(properties: [PropertyMeta], sorted: Bool) {
        var root: [Member] = []
        for (i, property) in properties.enumerated() {
            guard let path = property.encodingPath, !path.isEmpty else { continue }
            EncodingPlan.insert(&root, path: path[...], property: i)
        }
        members = sorted ? EncodingPlan.sortedRecursively(root) : root
        (entries, keyText) = EncodingPlan.flatten(members)
        #if DEBUG
        MetadataBuffers.allocated()
        #endif
    }

    /// Frees the flattened entries and their key text; for the meta owning the plan, after its last use.
    func deallocate() {
        #if DEBUG
        MetadataBuffers.freed()
        #endif
        UnsafeMutableBufferPointer(mutating: entries).deallocate()
        keyText.deallocate()
    }

    private static func flatten(_ members: [Member]) -> (UnsafeBufferPointer<Entry>, UnsafeMutablePointer<UInt8>) {
        let keyBytes = members.reduce(0) { $0 + $1.escapedKey.count + 2 }
        let text = UnsafeMutablePointer<UInt8>.allocate(capacity: max(keyBytes, 1))
        let entries = UnsafeMutableBufferPointer<Entry>.allocate(capacity: members.count)
        var o = 0
        for (i, member) in members.enumerated() {
            let start = text + o
            start[0] = UInt8(ascii: ",")
            member.escapedKey.withUnsafeBufferPointer { (start + 1).initialize(from: $0.baseAddress!, count: $0.count) }
            start[member.escapedKey.count + 1] = UInt8(ascii: ":")
            let count = member.escapedKey.count + 2
            o += count
            let property: Int
            switch member.node {
            case .property(let p): property = p
            case .object: property = -1 - i
            }
            (entries.baseAddress! + i).initialize(to: Entry(key: UnsafePointer(start), keyCount: count, property: property))
        }
        assert(o == keyBytes, "plan keys miscounted")
        return (UnsafeBufferPointer(entries), text)
    }

    private static func member(_ key: String, _ node: Node) -> Member {
        var escaped: [UInt8] = []
        var key = key
        key.withUTF8 { JSONWriter.appendEscaped($0, to: &escaped, escapeSlashes: false) }
        return Member(key: key, escapedKey: escaped, node: node)
    }

    private static func insert(_ members: inout [Member], path: ArraySlice<String>, property: Int) {
        let key = path.first!
        let rest = path.dropFirst()
        if let i = members.firstIndex(where: { $0.key == key }) {
            // Only objects built from key paths can take more members; a property already there wins.
            guard !rest.isEmpty, case .object(var children) = members[i].node else { return }
            insert(&children, path: rest, property: property)
            members[i].node = .object(children)
        } else if rest.isEmpty {
            members.append(member(key, .property(property)))
        } else {
            var children: [Member] = []
            insert(&children, path: rest, property: property)
            members.append(member(key, .object(children)))
        }
    }

    private static func sortedRecursively(_ members: [Member]) -> [Member] {
        members.map { member in
            var member = member
            if case .object(let children) = member.node { member.node = .object(sortedRecursively(children)) }
            return member
        }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}

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

    init(properties: [PropertyMeta], sorted: Bool) {
        var root: [Member] = []
        for (i, property) in properties.enumerated() {
            guard let path = property.encodingPath, !path.isEmpty else { continue }
            EncodingPlan.insert(&root, path: path[...], property: i)
        }
        members = sorted ? EncodingPlan.sortedRecursively(root) : root
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

// Unsafe code: the filter graph the tokenizer's callbacks consult while recording a tape.
//
// Invariants:
// - Every `TapeFilterNode` owns one `TapeFilterTable` (and, for object nodes, its `members`), allocated in
//   `init`/`complete` and freed in `deinit`. The callbacks read tables through plain pointers: no reference
//   counting, no locks, no exclusivity checks.
// - A table is written only before any parse can use it: container nodes are complete when made; model
//   (object) nodes are completed by the metadata builder under the cache's lock, before the meta is
//   published. Afterwards it is immutable.
// - Every table a parse can reach is reachable from the root node, and a node keeps the nodes its table
//   points at alive (`owners`); the caller keeps the root node (its codec) alive for the whole parse.
//   Model nodes live as long as the metadata cache, i.e. the process.
// - `members` holds exactly `keys!.count` entries; `KeyTable` values index it.
//
// `TapeFilterNode` is `@unchecked Sendable` because of the above: after completion neither the node nor
// its table changes, and completion happens before the node is shared.

/// What the tape records of one JSON value while it is parsed: the "schema-guided tape".
///
/// A model decode only reads the members its model maps. The tokenizer therefore follows the model's
/// shape as yajl reports tokens: in an object of a model it looks each key up in the model's key table
/// and records the member only when the model reads it, skipping the whole value of any other key by
/// depth counting (recording nothing); it also writes the property's index into the key token (`hint`),
/// so the decoding walk does not hash the key a second time. Arrays and dictionaries pass their element's
/// table down. Anything else (scalars, `JSONValue` fields, hooks that see the whole object, polymorphic
/// classes, mismatched shapes) is recorded whole, exactly as without a filter, so decoding and error
/// reporting see the same tokens they would have seen.
struct TapeFilterTable {
    enum Shape: UInt8 {
        /// Members by key: `keys` finds the member entry of a key; keys not in it are skipped.
        case object
        /// Every element is filtered by `child`.
        case array
        /// An object whose every value is filtered by `child` (keys are all kept).
        case dictionary
        /// Recorded whole: a model whose hooks or subclass choice see the whole object.
        case whole
    }

    /// One member an object table keeps.
    struct Member {
        /// Written into the key token: the reading property's index + 1 (0: none, look the key up).
        var hint: UInt16
        /// The member value's table; nil records the value whole.
        var child: UnsafePointer<TapeFilterTable>?
    }

    var shape: Shape
    var isComplete: Bool
    /// Array and dictionary tables: the element's or value's table; nil records each one whole.
    var child: UnsafePointer<TapeFilterTable>?
    /// Object tables: key bytes -> index into `members`.
    var keys: KeyTable?
    var members: UnsafeMutablePointer<Member>?
    /// Object tables: the kept keys as Strings, in `members` order, for input that is looked up by key
    /// rather than read in order (a `[String: Any]` copied into a ``ValueTape``).
    var keyNames: [String] = []

    /// The table for a container of `kind` whose expected table is `table`: nil (record whole) when the
    /// JSON's shape is not the expected one, so a mismatch is decoded (and reported) from the full value.
    @inline(__always)
    static func table(_ table: UnsafePointer<TapeFilterTable>?, for kind: TokenKind) -> UnsafePointer<TapeFilterTable>? {
        guard let table else { return nil }
        assert(table.pointee.isComplete, "a filter is used before its model's metadata completed it")
        switch table.pointee.shape {
        case .object, .dictionary: return kind == .objectStart ? table : nil
        case .array: return kind == .arrayStart ? table : nil
        case .whole: return nil
        }
    }
}

/// Owns a ``TapeFilterTable``; codecs hold one per model, collection or optional type they decode.
final class TapeFilterNode: @unchecked Sendable {
    let table: UnsafeMutablePointer<TapeFilterTable>
    /// Nodes whose tables this node's table points at.
    private var owners: [TapeFilterNode] = []

    /// An array or dictionary node over `child` (nil: each element recorded whole).
    init(_ shape: TapeFilterTable.Shape, child: TapeFilterNode?) {
        precondition(shape == .array || shape == .dictionary, "object nodes are completed with their members")
        table = .allocate(capacity: 1)
        table.initialize(to: TapeFilterTable(shape: shape, isComplete: true, child: child.map { UnsafePointer($0.table) },
                                             keys: nil, members: nil))
        if let child { owners = [child] }
    }

    /// An object node whose members are given later with `complete(members:)` or `completeAsWhole()`
    /// (made first, so recursive models can point at themselves).
    init() {
        table = .allocate(capacity: 1)
        table.initialize(to: TapeFilterTable(shape: .object, isComplete: false, child: nil, keys: nil, members: nil))
    }

    deinit {
        // Only nodes of temporary codecs (a top-level `[Model]`, keys nil) and of root paths (`at:`, their
        // own key tables) are ever freed; model nodes live as long as the metadata cache.
        table.pointee.keys?.deallocate()
        table.pointee.members?.deallocate()
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// Lets go of the nodes this node's table points at (a recursive model's nodes hold each other): only
    /// for a node that is never read again, whose metadata cache is being freed.
    func releaseChildren() { owners = [] }

    /// Makes an object node record its objects whole.
    func completeAsWhole() {
        precondition(table.pointee.shape == .object && !table.pointee.isComplete, "an object node is completed once")
        table.pointee.shape = .whole
        table.pointee.isComplete = true
    }

    /// An object node chain keeping only the members on `paths` (a root path and its alternatives), with
    /// `leaf` for the value at the end; everything else in the document is skipped while parsing. A key
    /// where one alternative ends and another goes on is recorded whole.
    static func rootPath(_ paths: [ArraySlice<[UInt8]>], leaf: TapeFilterNode?) -> TapeFilterNode {
        var order: [[UInt8]] = []
        var rests: [[UInt8]: [ArraySlice<[UInt8]>]] = [:]
        for path in paths where !path.isEmpty {
            let key = path.first!
            if rests[key] == nil { order.append(key) }
            rests[key, default: []].append(path.dropFirst())
        }
        let node = TapeFilterNode()
        node.complete(members: order.map { key in
            let next = rests[key]!
            let child: TapeFilterNode?
            if next.allSatisfy(\.isEmpty) {
                child = leaf
            } else if next.contains(where: \.isEmpty) {
                child = nil
            } else {
                child = rootPath(next, leaf: leaf)
            }
            return (key: key, hint: -1, child: child)
        })
        return node
    }

    /// Sets an object node's members: for each kept key, the hint for the walk and the value's node.
    func complete(members entries: [(key: [UInt8], hint: Int, child: TapeFilterNode?)]) {
        precondition(table.pointee.shape == .object && !table.pointee.isComplete, "an object node is completed once")
        let members = UnsafeMutablePointer<TapeFilterTable.Member>.allocate(capacity: max(1, entries.count))
        for (i, entry) in entries.enumerated() {
            let hint = entry.hint >= 0 && entry.hint < Int(UInt16.max) ? UInt16(entry.hint + 1) : 0
            (members + i).initialize(to: .init(hint: hint, child: entry.child.map { UnsafePointer($0.table) }))
        }
        owners = entries.compactMap(\.child)
        let keys = KeyTable(entries.enumerated().map { (key: $0.element.key, value: $0.offset) })
        assert(keys.count == entries.count, "a filter's key table and members differ in count")
        table.pointee.keys = keys
        table.pointee.members = members
        table.pointee.keyNames = entries.map { String(decoding: $0.key, as: UTF8.self) }
        table.pointee.isComplete = true
    }
}

/// A root path given with `at:` (`try User(json: data, at: "data.user")`): where in the document the value
/// to decode is. The parse keeps only the members on the way (``TapeFilterNode/rootPath(_:leaf:)``), so the
/// rest of the document is skipped without being recorded; the value is then found by key and decoded by
/// its codec as if it were the document.
///
/// The empty path `""` is the whole document (no components): `at: ""` decodes as if no path were given.
struct RootPath {
    /// The alternatives (one for a plain key or key path), as components; `[]` is the document itself.
    let paths: [[String]]

    init(_ key: MappingKey) throws(MappingError) {
        if let text = key.invalidEscape { throw MetaBuilder.invalidEscape(text, at: "the root path") }
        paths = key.paths.map { $0 == [""] ? [] : $0 }
        for path in paths where path.contains(where: \.isEmpty) {
            throw MappingError(.unsupportedType, "the root path \(key) has an empty key path component")
        }
    }

    /// The tape filter for decoding the value at this path with `leaf` (the value codec's filter); the
    /// leaf itself for the whole document, nil (keep everything) when the document is one alternative of
    /// several.
    func filter(leaf: TapeFilterNode?) -> TapeFilterNode? {
        if paths.allSatisfy(\.isEmpty) { return leaf }
        if paths.contains(where: \.isEmpty) { return nil }
        return TapeFilterNode.rootPath(paths.map { $0.map { Array($0.utf8) }[...] }, leaf: leaf)
    }

    /// What following the path found: the value, or where it stopped (for the first alternative when none
    /// is present). `depth` is the index in `path` of the key that is missing or of the value that is not
    /// an object; `index` the token of the object searched or of that value.
    enum Found {
        case value(index: Int, path: [String])
        case missing(path: [String], depth: Int, index: Int)
        case notObject(path: [String], depth: Int, index: Int)
    }

    func find(_ tape: TapeView) -> Found {
        var first: Found? = nil
        for path in paths {
            var current = 0
            var failure: Found? = nil
            for (depth, component) in path.enumerated() {
                guard tape[current].kind == .objectStart else {
                    failure = .notObject(path: path, depth: depth, index: current)
                    break
                }
                guard let next = findValue(tape, objectIndex: current, path: [Array(component.utf8)]) else {
                    failure = .missing(path: path, depth: depth, index: current)
                    break
                }
                current = next
            }
            guard let failure else { return .value(index: current, path: path) }
            if first == nil { first = failure }
        }
        return first!
    }

    /// The token index of the value at the path (the first alternative present) and its components.
    ///
    /// - Throws: `.missingKey` with the whole path when a key is absent; `.typeMismatch` with the path of
    ///   the value when something on the way is not an object (the first alternative's error when none is
    ///   present).
    func locate(_ c: DecodeContext) throws(MappingError) -> (index: Int, components: [String]) {
        switch find(c.tape) {
        case .value(let index, let path):
            return (index, path)
        case .missing(let path, let depth, let index):
            var error = MappingError(.missingKey, "the root path \(Self.text(path)) is missing (no key \"\(path[depth])\")")
            error.tokenIndex = index
            for key in path.reversed() { error.prependKey(key) }
            throw error
        case .notObject(let path, let depth, let index):
            var error = c.mismatch(expected: "an object on the root path \(Self.text(path))", at: index)
            for key in path[..<depth].reversed() { error.prependKey(key) }
            throw error
        }
    }

    /// Locates the value and runs `body` on it; errors from `body` (thrown or reported) get the path in
    /// front of theirs, so they name where they are in the document.
    func decode<R>(_ c: DecodeContext, _ body: (DecodeContext, Int) throws(MappingError) -> R) throws(MappingError) -> R {
        let (index, components) = try locate(c)
        let reportDepth = c.report?.path.count ?? 0
        c.report?.path.append(contentsOf: components.map { ErrorReport.Component($0) })
        defer { c.report?.path.removeSubrange(reportDepth...) }
        do {
            return try body(c, index)
        } catch {
            var error = error
            for key in components.reversed() { error.prependKey(key) }
            throw error
        }
    }

    static func text(_ path: [String]) -> String { path.joined(separator: ".") }
}

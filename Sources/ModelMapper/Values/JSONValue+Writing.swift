// Writing a JSONValue as JSON text, with the writer of Text/.

extension JSONWriter {
    /// Writes any JSON value. Numbers whose text is not valid JSON (NaN, infinity) are written as given;
    /// the model encoder validates numbers before they get here.
    ///
    /// Iterative (open containers on an explicit stack): a value built in code may nest deeper than any
    /// thread's stack allows recursion.
    mutating func write(_ value: JSONValue) {
        var open: [JSONValue.Members] = []
        var current = value
        while true {
            switch current {
            case .null: null()
            case .bool(let b): bool(b)
            case .number(let n): raw(n.text)
            case .string(let s): string(s)
            case .array(let elements):
                beginArray()
                if elements.isEmpty { endArray(empty: true) } else { open.append(JSONValue.Members(elements)) }
            case .object(let object):
                beginObject()
                if object.isEmpty {
                    endObject(empty: true)
                } else {
                    open.append(JSONValue.Members(object, sortedKeys: layout.sortedKeys))
                }
            }
            // The next member to write, closing the containers that are done.
            while let last = open.indices.last {
                if let (position, key, member) = open[last].next() {
                    if let key { self.key(key, first: position == 0) } else { element(first: position == 0) }
                    current = member
                    break
                }
                if open.removeLast().isObject { endObject(empty: false) } else { endArray(empty: false) }
            }
            if open.isEmpty { return }
        }
    }
}

extension JSONValue {
    /// The members of an array or object being walked without recursion, and the next one to visit.
    struct Members {
        private let values: [JSONValue]
        /// The object's keys (nil for an array).
        private let keys: [String]?
        /// Visiting order when it is not the stored one (sorted keys).
        private let order: [Int]?
        private var position = 0

        init(_ elements: [JSONValue]) {
            values = elements
            keys = nil
            order = nil
        }

        init(_ object: JSONObject, sortedKeys: Bool = false) {
            let keys = object.keys
            values = object.values
            self.keys = keys
            order = sortedKeys ? keys.indices.sorted { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) } : nil
        }

        var isObject: Bool { keys != nil }
        var hasNext: Bool { position < values.count }

        /// The next member: its position in visiting order, its key (objects) and value; nil after the last.
        mutating func next() -> (position: Int, key: String?, value: JSONValue)? {
            guard position < values.count else { return nil }
            defer { position += 1 }
            let i = order?[position] ?? position
            return (position, keys?[i], values[i])
        }
    }
}

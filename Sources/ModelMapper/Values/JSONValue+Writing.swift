// Writing a JSONValue as JSON text, with the writer of Text/.

extension JSONWriter {
    /// Writes any JSON value. Numbers whose text is not valid JSON (NaN, infinity) are written as given;
    /// the model encoder validates numbers before they get here.
    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): raw(n.text)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for (i, element) in elements.enumerated() {
                self.element(first: i == 0)
                write(element)
            }
            endArray(empty: elements.isEmpty)
        case .object(let object):
            beginObject()
            if layout.sortedKeys {
                let sorted = object.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
                for (i, (k, v)) in sorted.enumerated() {
                    key(k, first: i == 0)
                    write(v)
                }
            } else {
                for (i, (k, v)) in object.enumerated() {
                    key(k, first: i == 0)
                    write(v)
                }
            }
            endObject(empty: object.isEmpty)
        }
    }
}

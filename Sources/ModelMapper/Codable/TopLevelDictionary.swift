/// `JSONDecoder.assumesTopLevelDictionary` (``ModelDecoder/assumesTopLevelDictionary``): members without
/// their braces (`"a":1,"b":2`) read as an object.
enum TopLevelDictionary {
    /// The input inside braces when, after a UTF-8 byte-order mark and whitespace, it does not open an
    /// object; nil when it does (or is not UTF-8: a zero byte among the first four, a UTF-16 mark), so
    /// that such input is read as it is. The copy is made only for input without braces.
    static func braced<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8]? {
        if bytes.prefix(4).contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) { return nil }
        let body = bytes.dropFirst(bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        let isWhitespace = { (byte: UInt8) in byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        if let first = body.first(where: { !isWhitespace($0) }), first == UInt8(ascii: "{") { return nil }
        var braced = [UInt8]()
        braced.reserveCapacity(body.count + 2)
        braced.append(UInt8(ascii: "{"))
        braced.append(contentsOf: body)
        braced.append(UInt8(ascii: "}"))
        return braced
    }
}

// Unsafe code: a `.custom` strategy's identity is read from the bytes of the strategy value itself
// (`withUnsafeBytes(of:)`): the closure it stores, its function and context words. Binding the payload
// (`case .custom(let f)`) instead hands out a reabstracted copy whose context can be a temporary box,
// whose address a later binding of another closure may reuse. Invariants:
// - the closure is the first two words of the value in the `.custom` case (its payload; the other cases
//   are told apart by the tag or by values the function pointer never takes), asserted by size;
// - the identity is compared only while both strategies are alive (or, in `MetaCache`, the strategy is
//   kept), so a context's address is not reused meanwhile.

extension DateStrategy {
    var isDefault: Bool {
        if case .default = self { return true }
        return false
    }

    /// The same case with the same argument; a `.custom` strategy only as the same closure value.
    func isSame(as other: DateStrategy) -> Bool {
        switch (self, other) {
        case (.default, .default), (.iso8601, .iso8601), (.secondsSince1970, .secondsSince1970),
             (.millisecondsSince1970, .millisecondsSince1970):
            return true
        case (.formatted(let a), .formatted(let b)):
            return a == b
        case (.custom, .custom):
            return closureWords(of: self) == closureWords(of: other)
        default:
            return false
        }
    }
}

extension KeyStrategy {
    /// The same case; a `.custom` strategy only as the same closure value.
    static func isSame(_ a: KeyStrategy?, _ b: KeyStrategy?) -> Bool {
        switch (a, b) {
        case (nil, nil), (.identity?, .identity?), (.snakeCase?, .snakeCase?), (.kebabCase?, .kebabCase?),
             (.pascalCase?, .pascalCase?), (.screamingSnakeCase?, .screamingSnakeCase?),
             (.firstLetterLowercased?, .firstLetterLowercased?):
            return true
        case (.custom?, .custom?):
            return a!.customIdentity! == b!.customIdentity!
        default:
            return false
        }
    }

    /// A `.custom` strategy's closure (function and context words); nil for the other cases.
    var customIdentity: ClosureWords? {
        guard case .custom = self else { return nil }
        return closureWords(of: self)
    }
}

/// The two words of a closure value: its function and its context.
struct ClosureWords: Hashable {
    let function: UInt
    let context: UInt
}

/// The closure a strategy value in its `.custom` case stores (its first two words).
private func closureWords<Strategy>(of strategy: Strategy) -> ClosureWords {
    assert(MemoryLayout<Strategy>.size >= 2 * MemoryLayout<UInt>.size, "a closure payload is two words")
    return withUnsafeBytes(of: strategy) { bytes in
        ClosureWords(function: bytes.load(as: UInt.self), context: bytes.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self))
    }
}

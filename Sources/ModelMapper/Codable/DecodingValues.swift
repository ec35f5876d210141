// Unsafe code: the setting borrowed unretained (`borrowed._withUnsafeGuaranteedRef`, valid while the
// state's `current` is set: TapeDecodingState.swift), and `unsafeBitCast(value, to: T.self)` in `same`
// only where the caller checked that `V.self == T.self` (asserted).
import Foundation

// Values from the tape: scalars through the codecs, then any Decodable (special types natively, mapped
// models through their mapping, the rest through `init(from:)`).

extension TapeDecodingState {
    // MARK: Scalars

    @inline(__always)
    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, _ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        let kind = self.kind(index)
        if kind == .number {
            do {
                return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try IntegerCodec<T>.read(s.numberContext, index) } }.get()
            } catch {
                throw converted(error, T.self, index, path())
            }
        }
        if kind == .null { throw valueNotFound(T.self, index, path()) }
        if isFoundation { throw typeMismatch(T.self, index, path()) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try IntegerCodec<T>.read(s.c, index) } }.get()
        } catch {
            throw converted(error, T.self, index, path())
        }
    }

    @inline(__always)
    func decodeString(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        if kind(index) == .null { throw valueNotFound(String.self, index, path()) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try StringCodec.read(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(String.self, index, path())
                : converted(error, String.self, index, path())
        }
    }

    @inline(__always)
    func decodeBool(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        if kind(index) == .null { throw valueNotFound(Bool.self, index, path()) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try BoolCodec.read(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(Bool.self, index, path())
                : converted(error, Bool.self, index, path())
        }
    }

    @inline(__always)
    func decodeDouble(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Double {
        let kind = self.kind(index)
        if kind == .null { throw valueNotFound(Double.self, index, path()) }
        if kind != .number, let special = try nonConforming(index, path()) { return special }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try DoubleCodec.read(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(Double.self, index, path())
                : converted(error, Double.self, index, path())
        }
    }

    func decodeFloat(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Float {
        let kind = self.kind(index)
        if kind == .null { throw valueNotFound(Float.self, index, path()) }
        if kind != .number, let special = try nonConforming(index, path()) { return Float(special) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try floatCodec.decode(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(Float.self, index, path())
                : converted(error, Float.self, index, path())
        }
    }

    // MARK: Any Decodable

    /// Special types natively, `JSONMappable` models through their mapping, everything else through its
    /// `init(from:)`. `type` is the dynamic type: a class metatype may name a subclass of `T`, which is
    /// what is decoded (as JSONDecoder calls `type.init(from:)`).
    func decodeValue<T: Decodable>(_ type: T.Type, _ index: Int, _ ref: PathRef) throws -> T {
        if T.self == String.self { return same(try decodeString(index, resolve(ref)), as: T.self) }
        if T.self == Int.self { return same(try decodeInteger(Int.self, index, resolve(ref)), as: T.self) }
        if T.self == Double.self { return same(try decodeDouble(index, resolve(ref)), as: T.self) }
        if T.self == Bool.self { return same(try decodeBool(index, resolve(ref)), as: T.self) }
        let info = typeInfo(T.self)
        switch info.kind {
        case .other: break
        case .int8: return same(try decodeInteger(Int8.self, index, resolve(ref)), as: T.self)
        case .int16: return same(try decodeInteger(Int16.self, index, resolve(ref)), as: T.self)
        case .int32: return same(try decodeInteger(Int32.self, index, resolve(ref)), as: T.self)
        case .int64: return same(try decodeInteger(Int64.self, index, resolve(ref)), as: T.self)
        case .uint: return same(try decodeInteger(UInt.self, index, resolve(ref)), as: T.self)
        case .uint8: return same(try decodeInteger(UInt8.self, index, resolve(ref)), as: T.self)
        case .uint16: return same(try decodeInteger(UInt16.self, index, resolve(ref)), as: T.self)
        case .uint32: return same(try decodeInteger(UInt32.self, index, resolve(ref)), as: T.self)
        case .uint64: return same(try decodeInteger(UInt64.self, index, resolve(ref)), as: T.self)
        case .float: return same(try decodeFloat(index, resolve(ref)), as: T.self)
        case .date: return same(try decodeDate(index, ref), as: T.self)
        case .data: return same(try decodeData(index, ref), as: T.self)
        case .url: return same(try decodeURL(index, ref), as: T.self)
        case .decimal: return same(try decodeWithCodec(decimalCodec, strictInFoundation: true, index, ref), as: T.self)
        case .jsonValue:
            if index < 0 { return same(JSONValue.null, as: T.self) }
            var i = index
            do { return same(try JSONValue(tape: tape, index: &i), as: T.self) } catch { throw converted(error, T.self, index, resolve(ref)) }
        case .uuid:
            if !isFoundation { return same(try decodeWithCodec(uuidCodec, strictInFoundation: false, index, ref), as: T.self) }
            // JSONDecoder's reading (`UUID(uuidString:)` of the string) of the canonical form, from the bytes;
            // anything else goes through UUID's `init(from:)` below, which reads it or makes the error.
            if index >= 0, tape[index].kind == .string, let uuid = UUIDParsing.parse(tape.bytes(tape[index])) {
                return same(uuid, as: T.self)
            }
        case .timeZone:
            // A model's rule (a name); JSONDecoder's is TimeZone's own Codable form, an object.
            if !isFoundation { return same(try decodeWithCodec(timeZoneCodec, strictInFoundation: false, index, ref), as: T.self) }
        case .mappable:
            if usesMapping, let model = type as? any MappedJSONModel.Type { return try decodeModel(model, index, ref) as! T }
        case .array:
            // Arrays element by element into their storage (no per-element generic append).
            try checkStack(index, ref)
            if let array = info.array { return try array.tapeDecode(self, index, ref, as: T.self) }
        case .unknownCaseEnum:
            if let value = try decodeUnknownCaseEnum(T.self, index, ref) { return value as! T }
        case .stringKeyedDictionary:
            if isFoundation, T.self == [String: String].self, let dictionary = stringDictionary(index) {
                return same(dictionary, as: T.self)
            }
            // JSONDecoder applies no key strategy to `[String: Value]` keys.
            try checkStack(index, ref)
            return try type.init(from: TapeDecoder(state: self, index: index, ref: ref, rawKeys: isFoundation))
        }
        try checkStack(index, ref)
        return try type.init(from: TapeDecoder(state: self, index: index, ref: ref))
    }

    /// A `[String: String]` made straight from the object's members: what `Dictionary.init(from:)` makes
    /// of them through a keyed container (every key as it is, each value a string), without the container
    /// and its per-member lookups. Nil, so that the caller takes that general path and its errors, when the
    /// token is not an object, a value is not a string, a key or value is not valid UTF-8, or a key repeats
    /// (the general path's reading of repeated keys stays the one rule).
    private func stringDictionary(_ index: Int) -> [String: String]? {
        guard index >= 0, tape[index].kind == .objectStart else { return nil }
        let end = tape[index].payload
        var dictionary = [String: String](minimumCapacity: (end - index - 1) / 2)
        var k = index + 1
        while k < end {
            guard tape[k + 1].kind == .string, let key = try? tape.string(at: k), let value = try? tape.string(at: k + 1),
                  dictionary.updateValue(value, forKey: key) == nil else { return nil }
            k += 2
        }
        return dictionary
    }

    /// A ``JSONUnknownCaseRepresentable`` raw-value enum: the raw value, then `init(rawValue:)` (what the
    /// synthesized `init(from:)` does), an unknown raw value becoming `unknownCase`, reported when the
    /// context has a report. Nil when the raw type is not `Decodable` (then `init(from:)` runs).
    /// Returns `Any?`, not `T?`: a `T?` result would make every `decodeValue` call look up `Optional<T>`'s
    /// metadata (the caller reserves its stack slot), +4% instructions on the twitter Codable decode.
    private func decodeUnknownCaseEnum<T: Decodable>(_ type: T.Type, _ index: Int, _ ref: PathRef) throws -> Any? {
        guard let enumType = T.self as? any RawRepresentable.Type else { return nil }
        func open<E: RawRepresentable>(_: E.Type) throws -> Any? {
            guard let rawType = E.RawValue.self as? any Decodable.Type else { return nil }
            func decodeRaw<R: Decodable>(_: R.Type) throws -> Any { try decodeValue(R.self, index, ref) }
            guard let raw = try decodeRaw(rawType) as? E.RawValue else { return nil }
            if let value = E(rawValue: raw) { return value }
            guard let fallback = (E.self as? any JSONUnknownCaseRepresentable.Type).map({ $0.unknownCase }) as? E else {
                return nil
            }
            if let report = c.report {
                var error = RawEnumCodec<E>.fallbackReport(
                    c.invalid("\(c.describe(at: index)) is not a valid \(E.self)", at: index), fallback)
                for key in resolve(ref).reversed() {
                    if let i = key.intValue { error.prependIndex(i) } else { error.prependKey(key.stringValue) }
                }
                report.record(error)
            }
            return fallback
        }
        return try open(enumType)
    }

    /// Nested Decodable values recurse on the thread's stack: stop before it runs out, as models do (a
    /// debug build overflowed a 512 KB stack at ~100 levels of a recursive class).
    @inline(__always)
    private func checkStack(_ index: Int, _ ref: PathRef) throws {
        guard StackGuard.hasRoom() else {
            throw DecodingError.dataCorrupted(.init(codingPath: resolve(ref),
                                                    debugDescription: "nesting too deep for this thread's stack",
                                                    underlyingError: location(index)))
        }
    }

    /// `value` as `T`, which the caller checked is its type (no dynamic cast).
    @inline(__always)
    func same<V, T>(_ value: V, as type: T.Type) -> T {
        assert(V.self == T.self, "not the same type")
        return unsafeBitCast(value, to: T.self)
    }

    func decodeWithCodec<V>(_ codec: ValueCodec<V>, strictInFoundation: Bool, _ index: Int, _ ref: PathRef) throws -> V {
        if kind(index) == .null { throw valueNotFound(V.self, index, resolve(ref)) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in
                Result { () throws(MappingError) in try codec.decode(s.isFoundation && strictInFoundation ? s.scalarContext : s.c, index) }
            }.get()
        } catch {
            throw converted(error, V.self, index, resolve(ref))
        }
    }

    /// A `JSONMappable` model on the same tape, with the caller's options; its errors are thrown (not
    /// reported), with this decoder's path in front.
    func decodeModel(_ type: any MappedJSONModel.Type, _ index: Int, _ ref: PathRef) throws -> Any {
        func open<M: MappedJSONModel>(_: M.Type) throws -> M {
            if index < 0 { throw valueNotFound(M.self, index, resolve(ref)) }
            do {
                let codec = try models.mappedCodec(for: M.self)
                if codec.reachesContext { return try codec.decode(trackingContext(ref), index) }
                return try codec.decode(c.report == nil ? c : unreported, index)
            } catch {
                // A coder's strategy failed inside the model: what it threw, as JSONDecoder throws it.
                if let thrown = error.codableError { throw Self.rebased(thrown, under: resolve(ref) + CodingPathRendering.keys(error.path)) }
                throw convertedModelError(error, M.self, index, resolve(ref))
            }
        }
        return try open(type)
    }

    /// For a model that may call a hook or transformer: `unreported`'s options with a report that only
    /// tracks the path (``MappingContext/path``), starting from the model's own path under the caller's
    /// (the Codable value's coding path after the path of the property holding it, when that is tracked).
    private func trackingContext(_ ref: PathRef) -> DecodeContext {
        var components = c.report?.path ?? []
        components += CodingPathRendering.components(resolve(ref)).map { ErrorReport.Component($0) }
        let tracker = ErrorReport(forgiving: false)
        tracker.path = components
        tracker.contextPrefix = c.report?.contextPrefix ?? []
        return DecodeContext(tape: tape, options: unreported.options, report: tracker)
    }
}

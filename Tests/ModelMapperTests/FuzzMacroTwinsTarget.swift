// Unsafe code: none written here; the generated `makeJSONModel(decodingSlots:)` below (the macro's
// expansion) hands the address of its local `JSONModelSlots` to the engine for one call, as
// Sources/ModelMapper/API/Types/GeneratedJSONModel.swift describes.
//
// The mapping fuzz target's macro twins (issue 45 point 6): `@JSONModel` models decoded beside
// `JSONMappable` twins with the same fields, on every input and option set (FuzzTargets.macroTwins, called
// from FuzzTargets.mapping in FuzzRegressionTests.swift, so the regression replay runs it too). The fuzzer is
// compiled by swiftc without the macro plugin (scripts/fuzz), so the macro models are written out as the
// macro expands them; Tests/ModelMapperMacrosPluginTests/BenchmarkTwinExpansionTests.swift expands the
// declarations below with the macro and asserts the code after `MARK: - The expansion` is exactly that
// (regenerate it from that test's failure message after changing the macro).
//
// The twins: every property of the macro model without an initial value (a `let`, not Optional) is a `var`
// with a placeholder default in `ModelMapping.required` of the reflected twin (JSONModelMacro.md: "the
// errors are those of a JSONMappable twin with the same properties in required"); Optionals are nil by
// default in both; a `var` with an initial value has the same one; `let kind = "order"` is a constant in both.
//
// The declarations, as a user writes them (the test reads them from between the markers):
//
// BEGIN @JSONModel DECLARATIONS
// @JSONModel
// struct FZMacroPart {
//     let id: Int
//     let label: String?
//     var weight: Double = 1.5
// }
//
// @JSONModel
// struct FZMacroOrder {
//     let orderID: Int64
//     let customer: String
//     let note: String?
//     let part: FZMacroPart
//     let parts: [FZMacroPart]
//     let tags: [String]?
//     var status: String = "new"
//     let kind = "order"
//     static let mapping = ModelMapping(keys: ["customer": ["customer", "buyer.name"]], keyStrategy: .snakeCase)
// }
// END @JSONModel DECLARATIONS

#if !FUZZING
@testable import ModelMapper
#endif
import Foundation

/// The reflected twin of `FZMacroPart`.
struct FZReflectedPart: JSONMappable {
    var id = 0
    var label: String? = nil
    var weight: Double = 1.5
    static let mapping = ModelMapping(required: ["id"])
}

/// The reflected twin of `FZMacroOrder`.
struct FZReflectedOrder: JSONMappable {
    var orderID: Int64 = 0
    var customer = ""
    var note: String? = nil
    var part = FZReflectedPart()
    var parts: [FZReflectedPart] = []
    var tags: [String]? = nil
    var status: String = "new"
    let kind = "order"
    static let mapping = ModelMapping(keys: ["customer": ["customer", "buyer.name"]], keyStrategy: .snakeCase,
                                      required: ["orderID", "customer", "part", "parts"])
}

extension FuzzTargets {
    /// Decodes each macro model and its reflected twin from `bytes` (alone and as a top-level array) with
    /// `variant`'s options. Both decode to the same value, or both throw a `MappingError` of the same kind,
    /// path, JSON path and offset (and a kind `checkError` allows for this input).
    ///
    /// "The same value": the same JSON when both are encoded (`jsonValue(options: .writesNulls)`, number
    /// texts and member order included). The twins differ only in how a property without an initial value
    /// is declared (a `let` without a value vs a required `var` with a placeholder): such a property is set
    /// from the JSON in both or both throw, so the placeholder never shows. One difference is allowed: with
    /// an invalid-value handler (the custom variant), a forgiven value of a required property leaves the
    /// reflected twin its placeholder, while the macro model has no value to build with and throws
    /// `.missingKey` ("has no value", GeneratedJSONModelSupport.missingValue).
    static func macroTwins(_ bytes: [UInt8], _ parseError: MappingError?, _ variant: Variant,
                           _ outcomes: inout [String: String]) throws(FuzzFailure) {
        try twins("FZMacroOrder", FZReflectedOrder.self, bytes, parseError, variant, &outcomes,
                  { try FZMacroOrder(json: $0, options: $1).jsonValue(options: .writesNulls) },
                  { try FZReflectedOrder(json: $0, options: $1).jsonValue(options: .writesNulls) },
                  roundTrip: { try FZMacroOrder(json: $0, options: $1).jsonData() },
                  decodeAgain: { try FZMacroOrder(json: $0, options: $1).jsonValue(options: .writesNulls) })
        try twins("[FZMacroPart]", [FZReflectedPart].self, bytes, parseError, variant, &outcomes,
                  { try [FZMacroPart](json: $0, options: $1).jsonValue(options: .writesNulls) },
                  { try [FZReflectedPart](json: $0, options: $1).jsonValue(options: .writesNulls) },
                  roundTrip: { try [FZMacroPart](json: $0, options: $1).jsonData() },
                  decodeAgain: { try [FZMacroPart](json: $0, options: $1).jsonValue(options: .writesNulls) })
    }

    /// One pair: `macro` and `reflected` decode `bytes` and encode the result; `roundTrip` decodes and
    /// encodes the macro model, `decodeAgain` reads that encoding back (strictly): the same value again.
    private static func twins<B>(
        _ macroName: String, _ reflectedType: B.Type, _ bytes: [UInt8], _ parseError: MappingError?,
        _ variant: Variant, _ outcomes: inout [String: String],
        _ macro: ([UInt8], DecodingOptions) throws -> JSONValue,
        _ reflected: ([UInt8], DecodingOptions) throws -> JSONValue,
        roundTrip: ([UInt8], DecodingOptions) throws -> Data,
        decodeAgain: (Data, DecodingOptions) throws -> JSONValue
    ) throws(FuzzFailure) {
        let name = "\(macroName).\(variant.name)"
        let macroResult = Result { try macro(bytes, variant.decoding) }
        let reflectedResult = Result { try reflected(bytes, variant.decoding) }
        switch (macroResult, reflectedResult) {
        case (.success(let x), .success(let y)):
            outcomes[name] = "ok"
            if let diff = jsonDiff(x, y, "") {
                throw FuzzFailure("\(name): the macro model and its reflected twin \(B.self) decode differently: \(diff)")
            }
            if let parseError, !parseError.isTextError { throw FuzzFailure("\(name) decoded a document JSONValue rejects") }
            let strict = DecodingOptions(conversion: .strict, dateStrategy: variant.decoding.dateStrategy)
            do {
                let data = try roundTrip(bytes, variant.decoding)
                let back = try decodeAgain(data, strict)
                if let diff = jsonDiff(x, back, "") {
                    throw FuzzFailure("\(name): decode(encode(m)) != m: \(diff)\n  json: \(String(decoding: data, as: UTF8.self))")
                }
            } catch let failure as FuzzFailure {
                throw failure
            } catch {
                throw FuzzFailure("\(name): the round trip of a decoded macro model threw \(error)")
            }
        case (.failure(let e), .failure(let f)):
            let kind = try checkError(e, name, parseError, variant)
            outcomes[name] = kind.rawValue
            guard let f = f as? MappingError, let e = e as? MappingError else {
                throw FuzzFailure("\(B.self).\(variant.name) threw a non-MappingError: \(f)")
            }
            if e.kind != f.kind || e.path != f.path || e.jsonPath != f.jsonPath || e.offset != f.offset {
                throw FuzzFailure("\(name): the macro model threw \(e) (kind \(e.kind), path \(e.path), JSON path \(e.jsonPath), offset \(e.offset.map(String.init) ?? "nil")), its reflected twin \(B.self) threw \(f) (kind \(f.kind), path \(f.path), JSON path \(f.jsonPath), offset \(f.offset.map(String.init) ?? "nil"))")
            }
        case (.failure(let e), .success):
            if variant.decoding.invalidValueHandler != nil, let e = e as? MappingError, e.kind == .missingKey,
               e.message.contains("has no value") {
                outcomes[name] = "forgiven"
                return
            }
            throw FuzzFailure("\(name): the macro model threw \(e), its reflected twin \(B.self) decodes")
        case (.success, .failure(let f)):
            throw FuzzFailure("\(name): the macro model decodes, its reflected twin \(B.self) threw \(f)")
        }
    }
}

// MARK: - The expansion

struct FZMacroPart {
    let id: Int
    let label: String?
    var weight: Double = 1.5

    struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        var id: Swift.Optional<Int> = nil
        var label: String? = nil
        var weight: Swift.Optional<Double> = nil
        init() {
        }
    }

    static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init(optional: "label", \JSONModelSlots.label, isLet: true),
            .init("weight", \JSONModelSlots.weight, hasInitialValue: true, isLet: false),
        ]
    }

    static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.id = self.id
        slots.label = self.label
        slots.weight = self.weight
        return slots
    }

    mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
struct FZMacroOrder {
    let orderID: Int64
    let customer: String
    let note: String?
    let part: FZMacroPart
    let parts: [FZMacroPart]
    let tags: [String]?
    var status: String = "new"
    let kind = "order"
    static let mapping = ModelMapping(keys: ["customer": ["customer", "buyer.name"]], keyStrategy: .snakeCase)

    struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        var orderID: Swift.Optional<Int64> = nil
        var customer: Swift.Optional<String> = nil
        var note: String? = nil
        var part: Swift.Optional<FZMacroPart> = nil
        var parts: Swift.Optional<[FZMacroPart]> = nil
        var tags: [String]? = nil
        var status: Swift.Optional<String> = nil
        var kind: Swift.Optional<String> = nil
        init() {
        }
    }

    static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("orderID", \JSONModelSlots.orderID, hasInitialValue: false, isLet: true),
            .init("customer", \JSONModelSlots.customer, hasInitialValue: false, isLet: true),
            .init(optional: "note", \JSONModelSlots.note, isLet: true),
            .init("part", \JSONModelSlots.part, hasInitialValue: false, isLet: true),
            .init("parts", \JSONModelSlots.parts, hasInitialValue: false, isLet: true),
            .init(optional: "tags", \JSONModelSlots.tags, isLet: true),
            .init("status", \JSONModelSlots.status, hasInitialValue: true, isLet: false),
            .init("kind", \JSONModelSlots.kind, hasInitialValue: true, isLet: true),
        ]
    }

    static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.orderID = self.orderID
        slots.customer = self.customer
        slots.note = self.note
        slots.part = self.part
        slots.parts = self.parts
        slots.tags = self.tags
        slots.status = self.status
        slots.kind = self.kind
        return slots
    }

    mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}

extension FZMacroPart: ModelMapper.GeneratedJSONModel {
    init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        self.id = _id
        self.label = slots.label.take()
        self.weight = slots.weight.take() ?? 1.5
    }
}

extension FZMacroOrder: ModelMapper.GeneratedJSONModel {
    init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _orderID = try slots.orderID.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("orderID", of: Self.self)
        let _customer = try slots.customer.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("customer", of: Self.self)
        let _part = try slots.part.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("part", of: Self.self)
        let _parts = try slots.parts.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("parts", of: Self.self)
        self.orderID = _orderID
        self.customer = _customer
        self.note = slots.note.take()
        self.part = _part
        self.parts = _parts
        self.tags = slots.tags.take()
        self.status = slots.status.take() ?? "new"
    }
}

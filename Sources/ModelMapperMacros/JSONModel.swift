@_exported import ModelMapper

/// Maps a struct or a final class to JSON with ModelMapper, from its stored properties as declared:
/// `let`s and `var`s, with or without initial values, and no `init()`.
///
/// ```swift
/// @JSONModel
/// struct Repo {
///     let id: Int                 // required: absent -> MappingError .missingKey
///     var stars: Int = 0          // the initial value when the key is absent
///     let license: String?        // nil when absent or null
///     let kind = "repo"           // a constant: encoded, never decoded
///     static let mapping = ModelMapping(keys: ["stars": "stargazers_count"])
/// }
/// let repo = try Repo(json: data)
/// ```
///
/// The macro conforms the type to ``ModelMapper/GeneratedJSONModel``: it lists the stored properties and
/// builds the value from what was decoded; every rule of ``ModelMapper/ModelMapping`` is applied by the
/// same engine as for ``ModelMapper/JSONMappable``. A struct keeps its memberwise initializer; a final
/// class gets a designated `init(jsonModelSlots:)` and, if it declares no initializer, a memberwise one.
@attached(member, names: named(JSONModelSlots), named(jsonModelFields), named(makeJSONModel), named(jsonModelSlots), named(updateJSONModel), named(init))
@attached(extension, conformances: GeneratedJSONModel, names: named(init))
public macro JSONModel() = #externalMacro(module: "ModelMapperMacrosPlugin", type: "JSONModelMacro")

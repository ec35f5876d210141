/// What a hook or transformer knows about the mapping it runs in: the options' `userInfo` and where in
/// the document it is.
///
/// Handed to ``JSONDecodingHooks/willDecode(_:context:)``, ``JSONDecodingHooks/didDecode(from:context:)``,
/// ``JSONEncodingHooks/didEncode(into:context:)`` and transformers made with
/// ``JSONTransformer/init(_:decodeInContext:encodeInContext:)``.
///
/// ```swift
/// struct Order: JSONMappable, JSONDecodingHooks {
///     var total = 0.0
///     mutating func didDecode(from object: JSONObject, context: MappingContext) throws {
///         let limit = context.userInfo["limit"] as? Double ?? .infinity
///         if total > limit { throw OrderError.overLimit(at: context.path) }
///     }
/// }
/// ```
public struct MappingContext: Sendable {
    /// ``DecodingOptions/userInfo`` when decoding, ``EncodingOptions/userInfo`` when encoding.
    public var userInfo: [String: any Sendable]
    /// The path of the model (for hooks) or of the transformed property (for transformers), written as in
    /// ``MappingError/path``: `"statuses[3].user"`, `""` at the root. In a JSON Lines record it starts
    /// with the record's index (`"[12].user"`); under a Codable value it uses the coding path's keys.
    public var path: String

    /// Creates a context (for calling hooks or transformer bodies in tests).
    public init(userInfo: [String: any Sendable] = [:], path: String = "") {
        self.userInfo = userInfo
        self.path = path
    }
}

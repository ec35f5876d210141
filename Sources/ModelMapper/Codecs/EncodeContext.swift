/// What every codec needs while encoding: the output and the options.
struct EncodeContext {
    var writer: JSONWriter
    let options: EncodingOptions
    let writesNulls: Bool
    let sortsKeys: Bool
    /// Keys from the encoding plan are pre-escaped without `\/`; with this option they are escaped again.
    let escapesSlashes: Bool
    /// Compact output with keys as the plan escaped them: members go through the flat loop.
    let writesPlainKeys: Bool
    /// The path components (`"user"`, `"[3]"`) of the value being written, for ``MappingContext/path``;
    /// nil (and never touched by the plain loops) unless the root codec reaches a hook or transformer.
    var path: [String]? = nil

    init(options: EncodingOptions, capacity: Int = 1024) {
        writer = JSONWriter(options: options, capacity: capacity)
        self.options = options
        writesNulls = options.writesNulls
        sortsKeys = options.sortedKeys
        escapesSlashes = options.escapesSlashes
        writesPlainKeys = !escapesSlashes && !options.prettyPrinted
    }
}

extension EncodeContext {
    /// The context handed to an encoding hook or transformer: built only when one is called.
    func mappingContext() -> MappingContext {
        var text = ""
        for component in path ?? [] {
            if component.first == "[" || text.isEmpty { text += component } else { text += "." + component }
        }
        return MappingContext(userInfo: options.userInfo, path: text)
    }
}

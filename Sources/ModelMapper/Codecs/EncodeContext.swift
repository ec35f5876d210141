/// What every codec needs while encoding: the output and the options.
struct EncodeContext {
    var writer: JSONWriter
    let options: EncodingOptions
    let writesNulls: Bool
    let sortsKeys: Bool
    /// Keys from the encoding plan are pre-escaped without `\/`; with this option they are escaped again.
    let escapesSlashes: Bool

    init(options: EncodingOptions, capacity: Int = 1024) {
        writer = JSONWriter(options: options, capacity: capacity)
        self.options = options
        writesNulls = options.contains(.writesNulls)
        sortsKeys = options.contains(.sortedKeys)
        escapesSlashes = options.contains(.escapesSlashes)
    }
}

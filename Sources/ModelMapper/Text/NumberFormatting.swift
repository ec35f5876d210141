/// Number text for JSON output.
enum NumberFormatting {
    /// The shortest text that reads back as exactly `value` (Swift's round-trip `description`, which is
    /// always valid JSON for finite values: `8.8`, `1e-07`, `1e+16`).
    static func shortest(_ value: Double) -> String { value.description }

    /// The shortest text that reads back as exactly `value` when parsed as a `Float`.
    static func shortest(_ value: Float) -> String { value.description }
}

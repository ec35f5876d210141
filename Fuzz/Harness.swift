// libFuzzer entry point. Built by `scripts/fuzz` together with the library sources and the fuzz targets
// (Tests/ModelMapperTests/FuzzRegressionTests.swift, compiled with -D FUZZING) into one module, so the
// targets can use internal API. Any broken invariant traps with its description, which libFuzzer reports
// as a crash and saves the input.

@_cdecl("LLVMFuzzerTestOneInput")
public func modelMapperFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
        try FuzzTargets.run(bytes)
    } catch {
        fatalError("fuzz invariant broken: \(error)")
    }
    return 0
}

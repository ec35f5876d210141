// Unsafe code: 64 elements stored inline in a homogeneous tuple and read and written through its raw bytes.
// Invariants:
// - A homogeneous tuple lays its elements out contiguously at `MemoryLayout<Element>.stride` (the layout
//   Swift guarantees for homogeneous tuples, the one C arrays imported into Swift rely on), so element `i` is
//   at byte offset `i * stride`;
// - `Element` is a trivial integer type (`BitwiseCopyable`): a raw load or store of it needs no retain or
//   release;
// - every index is checked (`precondition`, as an array's subscript traps) before the memory is touched.

/// Sixty-four `Element`s stored inline, with no heap allocation: the keyed decoding containers' member index
/// and the learned ordinals (`TapeKeyedDecodingContainer.members`, `KeyTypeEntry.ordinals`).
///
/// The standard library's `InlineArray<64, Element>` did this until issue 46.4: it needs the Swift 6.2
/// runtime (macOS and iOS 26), and the package supports the OS 15 releases.
struct FixedArray64<Element: FixedWidthInteger & BitwiseCopyable> {
    // swift-format-ignore
    private var storage: (
        Element, Element, Element, Element, Element, Element, Element, Element,
        Element, Element, Element, Element, Element, Element, Element, Element,
        Element, Element, Element, Element, Element, Element, Element, Element,
        Element, Element, Element, Element, Element, Element, Element, Element,
        Element, Element, Element, Element, Element, Element, Element, Element,
        Element, Element, Element, Element, Element, Element, Element, Element,
        Element, Element, Element, Element, Element, Element, Element, Element,
        Element, Element, Element, Element, Element, Element, Element, Element
    )

    /// The number of elements: 64.
    var count: Int { 64 }

    /// Sixty-four copies of `value`.
    init(repeating value: Element) {
        storage = (
            value, value, value, value, value, value, value, value, value, value, value, value, value, value, value, value,
            value, value, value, value, value, value, value, value, value, value, value, value, value, value, value, value,
            value, value, value, value, value, value, value, value, value, value, value, value, value, value, value, value,
            value, value, value, value, value, value, value, value, value, value, value, value, value, value, value, value
        )
        assert(MemoryLayout.size(ofValue: storage) == 64 * MemoryLayout<Element>.stride, "a tuple with padding")
    }

    subscript(index: Int) -> Element {
        // `mutating`, so that reading an element of a class's stored array accesses the array in place: a plain
        // getter is handed a copy of all 64 elements, which the optimizer did not always remove (the Codable
        // decoder on github_events: 10.5% more instructions per decode than with `InlineArray`, callgrind).
        @inline(__always)
        mutating get {
            precondition(index >= 0 && index < 64, "FixedArray64 index out of range")
            return withUnsafeMutableBytes(of: &storage) {
                UnsafeRawBufferPointer($0).load(fromByteOffset: index &* MemoryLayout<Element>.stride, as: Element.self)
            }
        }
        @inline(__always)
        set {
            precondition(index >= 0 && index < 64, "FixedArray64 index out of range")
            withUnsafeMutableBytes(of: &storage) {
                $0.storeBytes(of: newValue, toByteOffset: index &* MemoryLayout<Element>.stride, as: Element.self)
            }
        }
    }
}

import Synchronization

#if DEBUG
/// Debug builds: how many metadata buffers (key tables, a meta's property slots, encoding plans) are
/// allocated and not yet freed, so tests can check that metadata freed with its cache or its build session
/// takes its raw memory with it (a weak reference shows only that the owning object went).
enum MetadataBuffers {
    private static let counter = Atomic<Int>(0)

    static var alive: Int { counter.load(ordering: .relaxed) }
    static func allocated() { counter.add(1, ordering: .relaxed) }
    static func freed() { counter.subtract(1, ordering: .relaxed) }
}
#endif

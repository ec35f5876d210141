import Foundation
import XCTest
@testable import ModelMapper

// Concurrent first use: 64 threads decode and encode 20 distinct types whose metadata is not built yet.
// Run under `swift test --sanitize=thread` too (scripts/sanitize).

private struct Concurrent0: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild0? = nil; var list: [ConcurrentChild0] = [] }
private struct ConcurrentChild0: JSONMappable, Equatable { var v0 = 0.0; var tags: [String] = [] }
private struct Concurrent1: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild1? = nil; var list: [ConcurrentChild1] = [] }
private struct ConcurrentChild1: JSONMappable, Equatable { var v1 = 0.0; var tags: [String] = [] }
private struct Concurrent2: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild2? = nil; var list: [ConcurrentChild2] = [] }
private struct ConcurrentChild2: JSONMappable, Equatable { var v2 = 0.0; var tags: [String] = [] }
private struct Concurrent3: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild3? = nil; var list: [ConcurrentChild3] = [] }
private struct ConcurrentChild3: JSONMappable, Equatable { var v3 = 0.0; var tags: [String] = [] }
private struct Concurrent4: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild4? = nil; var list: [ConcurrentChild4] = [] }
private struct ConcurrentChild4: JSONMappable, Equatable { var v4 = 0.0; var tags: [String] = [] }
private struct Concurrent5: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild5? = nil; var list: [ConcurrentChild5] = [] }
private struct ConcurrentChild5: JSONMappable, Equatable { var v5 = 0.0; var tags: [String] = [] }
private struct Concurrent6: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild6? = nil; var list: [ConcurrentChild6] = [] }
private struct ConcurrentChild6: JSONMappable, Equatable { var v6 = 0.0; var tags: [String] = [] }
private struct Concurrent7: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild7? = nil; var list: [ConcurrentChild7] = [] }
private struct ConcurrentChild7: JSONMappable, Equatable { var v7 = 0.0; var tags: [String] = [] }
private struct Concurrent8: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild8? = nil; var list: [ConcurrentChild8] = [] }
private struct ConcurrentChild8: JSONMappable, Equatable { var v8 = 0.0; var tags: [String] = [] }
private struct Concurrent9: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild9? = nil; var list: [ConcurrentChild9] = [] }
private struct ConcurrentChild9: JSONMappable, Equatable { var v9 = 0.0; var tags: [String] = [] }
private struct Concurrent10: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild10? = nil; var list: [ConcurrentChild10] = [] }
private struct ConcurrentChild10: JSONMappable, Equatable { var v10 = 0.0; var tags: [String] = [] }
private struct Concurrent11: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild11? = nil; var list: [ConcurrentChild11] = [] }
private struct ConcurrentChild11: JSONMappable, Equatable { var v11 = 0.0; var tags: [String] = [] }
private struct Concurrent12: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild12? = nil; var list: [ConcurrentChild12] = [] }
private struct ConcurrentChild12: JSONMappable, Equatable { var v12 = 0.0; var tags: [String] = [] }
private struct Concurrent13: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild13? = nil; var list: [ConcurrentChild13] = [] }
private struct ConcurrentChild13: JSONMappable, Equatable { var v13 = 0.0; var tags: [String] = [] }
private struct Concurrent14: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild14? = nil; var list: [ConcurrentChild14] = [] }
private struct ConcurrentChild14: JSONMappable, Equatable { var v14 = 0.0; var tags: [String] = [] }
private struct Concurrent15: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild15? = nil; var list: [ConcurrentChild15] = [] }
private struct ConcurrentChild15: JSONMappable, Equatable { var v15 = 0.0; var tags: [String] = [] }
private struct Concurrent16: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild16? = nil; var list: [ConcurrentChild16] = [] }
private struct ConcurrentChild16: JSONMappable, Equatable { var v16 = 0.0; var tags: [String] = [] }
private struct Concurrent17: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild17? = nil; var list: [ConcurrentChild17] = [] }
private struct ConcurrentChild17: JSONMappable, Equatable { var v17 = 0.0; var tags: [String] = [] }
private struct Concurrent18: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild18? = nil; var list: [ConcurrentChild18] = [] }
private struct ConcurrentChild18: JSONMappable, Equatable { var v18 = 0.0; var tags: [String] = [] }
private struct Concurrent19: JSONMappable, Equatable { var id = 0; var name = ""; var child: ConcurrentChild19? = nil; var list: [ConcurrentChild19] = [] }
private struct ConcurrentChild19: JSONMappable, Equatable { var v19 = 0.0; var tags: [String] = [] }

private let concurrentDecoders: [@Sendable (Int) throws -> Bool] = [
    { n in
        let json = #"{"id":\#(n),"name":"t0","child":{"v0":1.5,"tags":["a"]},"list":[{"v0":2}]}"#
        let m = try Concurrent0(json: json)
        let back = try Concurrent0(json: m.jsonData())
        return m.id == n && m.child?.v0 == 1.5 && m.list.first?.v0 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t1","child":{"v1":1.5,"tags":["a"]},"list":[{"v1":2}]}"#
        let m = try Concurrent1(json: json)
        let back = try Concurrent1(json: m.jsonData())
        return m.id == n && m.child?.v1 == 1.5 && m.list.first?.v1 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t2","child":{"v2":1.5,"tags":["a"]},"list":[{"v2":2}]}"#
        let m = try Concurrent2(json: json)
        let back = try Concurrent2(json: m.jsonData())
        return m.id == n && m.child?.v2 == 1.5 && m.list.first?.v2 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t3","child":{"v3":1.5,"tags":["a"]},"list":[{"v3":2}]}"#
        let m = try Concurrent3(json: json)
        let back = try Concurrent3(json: m.jsonData())
        return m.id == n && m.child?.v3 == 1.5 && m.list.first?.v3 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t4","child":{"v4":1.5,"tags":["a"]},"list":[{"v4":2}]}"#
        let m = try Concurrent4(json: json)
        let back = try Concurrent4(json: m.jsonData())
        return m.id == n && m.child?.v4 == 1.5 && m.list.first?.v4 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t5","child":{"v5":1.5,"tags":["a"]},"list":[{"v5":2}]}"#
        let m = try Concurrent5(json: json)
        let back = try Concurrent5(json: m.jsonData())
        return m.id == n && m.child?.v5 == 1.5 && m.list.first?.v5 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t6","child":{"v6":1.5,"tags":["a"]},"list":[{"v6":2}]}"#
        let m = try Concurrent6(json: json)
        let back = try Concurrent6(json: m.jsonData())
        return m.id == n && m.child?.v6 == 1.5 && m.list.first?.v6 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t7","child":{"v7":1.5,"tags":["a"]},"list":[{"v7":2}]}"#
        let m = try Concurrent7(json: json)
        let back = try Concurrent7(json: m.jsonData())
        return m.id == n && m.child?.v7 == 1.5 && m.list.first?.v7 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t8","child":{"v8":1.5,"tags":["a"]},"list":[{"v8":2}]}"#
        let m = try Concurrent8(json: json)
        let back = try Concurrent8(json: m.jsonData())
        return m.id == n && m.child?.v8 == 1.5 && m.list.first?.v8 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t9","child":{"v9":1.5,"tags":["a"]},"list":[{"v9":2}]}"#
        let m = try Concurrent9(json: json)
        let back = try Concurrent9(json: m.jsonData())
        return m.id == n && m.child?.v9 == 1.5 && m.list.first?.v9 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t10","child":{"v10":1.5,"tags":["a"]},"list":[{"v10":2}]}"#
        let m = try Concurrent10(json: json)
        let back = try Concurrent10(json: m.jsonData())
        return m.id == n && m.child?.v10 == 1.5 && m.list.first?.v10 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t11","child":{"v11":1.5,"tags":["a"]},"list":[{"v11":2}]}"#
        let m = try Concurrent11(json: json)
        let back = try Concurrent11(json: m.jsonData())
        return m.id == n && m.child?.v11 == 1.5 && m.list.first?.v11 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t12","child":{"v12":1.5,"tags":["a"]},"list":[{"v12":2}]}"#
        let m = try Concurrent12(json: json)
        let back = try Concurrent12(json: m.jsonData())
        return m.id == n && m.child?.v12 == 1.5 && m.list.first?.v12 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t13","child":{"v13":1.5,"tags":["a"]},"list":[{"v13":2}]}"#
        let m = try Concurrent13(json: json)
        let back = try Concurrent13(json: m.jsonData())
        return m.id == n && m.child?.v13 == 1.5 && m.list.first?.v13 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t14","child":{"v14":1.5,"tags":["a"]},"list":[{"v14":2}]}"#
        let m = try Concurrent14(json: json)
        let back = try Concurrent14(json: m.jsonData())
        return m.id == n && m.child?.v14 == 1.5 && m.list.first?.v14 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t15","child":{"v15":1.5,"tags":["a"]},"list":[{"v15":2}]}"#
        let m = try Concurrent15(json: json)
        let back = try Concurrent15(json: m.jsonData())
        return m.id == n && m.child?.v15 == 1.5 && m.list.first?.v15 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t16","child":{"v16":1.5,"tags":["a"]},"list":[{"v16":2}]}"#
        let m = try Concurrent16(json: json)
        let back = try Concurrent16(json: m.jsonData())
        return m.id == n && m.child?.v16 == 1.5 && m.list.first?.v16 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t17","child":{"v17":1.5,"tags":["a"]},"list":[{"v17":2}]}"#
        let m = try Concurrent17(json: json)
        let back = try Concurrent17(json: m.jsonData())
        return m.id == n && m.child?.v17 == 1.5 && m.list.first?.v17 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t18","child":{"v18":1.5,"tags":["a"]},"list":[{"v18":2}]}"#
        let m = try Concurrent18(json: json)
        let back = try Concurrent18(json: m.jsonData())
        return m.id == n && m.child?.v18 == 1.5 && m.list.first?.v18 == 2 && back == m
    },
    { n in
        let json = #"{"id":\#(n),"name":"t19","child":{"v19":1.5,"tags":["a"]},"list":[{"v19":2}]}"#
        let m = try Concurrent19(json: json)
        let back = try Concurrent19(json: m.jsonData())
        return m.id == n && m.child?.v19 == 1.5 && m.list.first?.v19 == 2 && back == m
    },
]

final class ConcurrencyTests: XCTestCase {
    func testConcurrentFirstUseOfManyTypes() {
        let threads = 64
        let failures = LockedCounter()
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for t in 0..<threads {
            group.enter()
            let thread = Thread {
                start.wait()
                for k in 0..<concurrentDecoders.count {
                    let decoder = concurrentDecoders[(t + k) % concurrentDecoders.count]
                    do { if try !decoder(t) { failures.increment() } } catch { failures.increment() }
                }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        for _ in 0..<threads { start.signal() }
        group.wait()
        XCTAssertEqual(failures.value, 0)
    }
}


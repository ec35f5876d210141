import Foundation
import ModelMapper
import XCTest

/// The code of StreamingAndIngestion.md.
final class StreamingAndIngestionSnippets: XCTestCase {
    func testStreaming() throws {
        struct Event: JSONMappable {
            var id = 0
            var kind = ""
        }

        let input = Data("""
            {"id": 1, "kind": "login"}
            {"id": "two", "kind": "logout"}

            {"id": 3, "kind": "login"}
            {"id": 4,
            """.utf8)

        var deadLetters: [String] = []
        var ids: [Int] = []
        try JSONLines<Event>(data: input, onError: .skip { rejected in
            deadLetters.append("\(rejected) | \(rejected.rawText)")
        }).forEach { event in ids.append(event.id) }
        // ids == [1, 3]
        // deadLetters == [
        //     #"record 1 (line 2, byte 27): line 2, column 8: invalidValue at [1].id: the string "two" is not a number | {"id": "two", "kind": "logout"}"#,
        //     #"record 3 (line 5, byte 87): line 5, column 10: syntax at [3]: unexpected end of input | {"id": 4,"#]
        XCTAssertEqual(ids, [1, 3])
        XCTAssertEqual(deadLetters, [
            #"record 1 (line 2, byte 27): line 2, column 8: invalidValue at [1].id: the string "two" is not a number | {"id": "two", "kind": "logout"}"#,
            #"record 3 (line 5, byte 87): line 5, column 10: syntax at [3]: unexpected end of input | {"id": 4,"#])

        let many = Data((1...1000).map { "{\"id\": \($0)}\n" }.joined().utf8)
        let events = try JSONLines<Event>.decodeAll(many, workers: 2)
        // events.count == 1000, events.map(\.id) == Array(1...1000)
        XCTAssertEqual(events.count, 1000)
        XCTAssertEqual(events.map(\.id), Array(1...1000))

        _ = try Event(json: #"{"id": 5}"#)  // a whole-document decoding leaves this thread a spare tokenizer
        let released = DecodingBuffers.releaseIdle()
        // released: the number of spare buffers freed; the next decoding on each thread allocates again
        XCTAssertGreaterThan(released, 0)
        XCTAssertEqual(try JSONLines<Event>.decodeAll(many, workers: 2).count, 1000)
    }
}

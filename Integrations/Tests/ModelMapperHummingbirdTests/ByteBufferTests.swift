import IntegrationTestModels
import ModelMapperNIO
import NIOCore
import XCTest

// ModelMapperNIO on its own: a ByteBuffer as JSON input, and encoding into one.
final class ByteBufferTests: XCTestCase {
    func testReadsOnlyTheReadableBytes() throws {
        var buffer = ByteBuffer(string: "garbage" + Bodies.book)
        buffer.moveReaderIndex(forwardBy: 7)
        let book = try Book(json: buffer)
        XCTAssertEqual(book.bookID, 7)
        XCTAssertEqual(buffer.readerIndex, 7, "decoding does not consume the buffer")
        XCTAssertEqual(try ModelDecoder().decode(Order.self, from: ByteBuffer(string: Bodies.order)).orderID, 3)
    }

    func testErrorPositionsInABuffer() throws {
        XCTAssertThrowsError(try Book(json: ByteBuffer(string: Bodies.bookBadAge))) { error in
            let error = error as? MappingError
            XCTAssertEqual(error?.jsonPath, "authors[0].age")
            XCTAssertEqual(error?.line, 2)
        }
    }

    func testEncodesAfterWhatTheBufferHolds() throws {
        let book = try Book(json: Bodies.book)
        var buffer = ByteBuffer(string: "prefix:")
        try ModelEncoder().encode(book, into: &buffer)
        XCTAssertEqual(String(buffer: buffer), "prefix:" + String(decoding: try book.jsonData(), as: UTF8.self))
        let order = try Order(json: Bodies.order)
        var other = ByteBuffer()
        try ModelEncoder().encode(order, into: &other)
        XCTAssertEqual(Array(buffer: other), Array(try ModelEncoder().encode(order)))
        var notes = ByteBuffer()
        try ModelEncoder().encode([Note(text: "a", count: 1)], into: &notes)
        XCTAssertEqual(String(buffer: notes), #"[{"text":"a","count":1}]"#)
    }

    func testEncodingErrorLeavesTheBufferAsItWas() throws {
        struct Reading: JSONMappable { var value = Double.nan }
        var buffer = ByteBuffer(string: "kept")
        XCTAssertThrowsError(try ModelEncoder().encode(Reading(), into: &buffer))
        XCTAssertEqual(String(buffer: buffer), "kept")
    }

    func testBodyErrorFromADecodingError() throws {
        XCTAssertThrowsError(try ModelDecoder().decode(Note.self, from: ByteBuffer(string: Bodies.noteBadCount))) { error in
            guard let body = JSONBodyError(error) else { return XCTFail("no answer for \(error)") }
            XCTAssertEqual(body.jsonPath, "count")
            XCTAssertEqual(body.line, 1)
            XCTAssertNotNil(body.column)
        }
        // A model the server cannot map is not the client's fault.
        XCTAssertNil(JSONBodyError(MappingError(.unsupportedType, "no codec")))
        XCTAssertNil(JSONBodyError(CancellationError()))
    }
}

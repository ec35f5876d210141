import Foundation
import ModelMapper
import XCTest

/// The code of HooksTransformersAndPolymorphism.md.
final class HooksTransformersAndPolymorphismSnippets: XCTestCase {
    func testHooks() throws {
        struct Temperature: JSONMappable, JSONDecodingHooks {
            var celsius = 0.0
            var label = ""

            static func willDecode(_ object: JSONObject) throws -> JSONObject {
                var object = object
                if let fahrenheit = object["fahrenheit"]?.doubleValue, object["celsius"] == nil {
                    object["celsius"] = .number(JSONNumber((fahrenheit - 32) * 5 / 9))
                }
                return object
            }

            mutating func didDecode(from object: JSONObject) throws {
                guard celsius >= -273.15 else { throw MappingError(.validation, "below absolute zero") }
                label = "\(celsius) °C"
            }
        }

        let reading = try Temperature(json: #"{"fahrenheit": 212}"#)
        // reading.celsius == 100, reading.label == "100.0 °C"
        XCTAssertEqual(reading.celsius, 100)
        XCTAssertEqual(reading.label, "100.0 °C")

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try [Temperature](json: #"[{"celsius": 20}, {"celsius": -300}]"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 19: validation at [1]: below absolute zero
        }
        XCTAssertEqual(printed, "line 1, column 19: validation at [1]: below absolute zero")

        struct Message: JSONMappable, JSONEncodingHooks {
            var text = ""
            func didEncode(into object: inout JSONObject) throws {
                object["version"] = 2
            }
        }

        let message = try Message(json: #"{"text": "hi"}"#).jsonString(options: [.sortedKeys])
        // message == #"{"text":"hi","version":2}"#
        XCTAssertEqual(message, #"{"text":"hi","version":2}"#)
    }

    func testTransformers() throws {
        enum Priority: Equatable, Sendable { case low, high }

        struct Ticket: JSONMappable {
            var priority = Priority.low
            var due: Date? = nil
            var cents = 0
            static let mapping = ModelMapping(transformers: [
                "priority": .valueMap(["LOW": Priority.low, "HIGH": .high]),
                "due": .date(format: "dd/MM/yyyy"),
                "cents": JSONTransformer(Int.self,
                                         decode: { json in Int(((json.doubleValue ?? 0) * 100).rounded()) },
                                         encode: { cents in .number(JSONNumber(Double(cents) / 100)) }),
            ])
        }

        let ticket = try Ticket(json: #"{"priority": "HIGH", "due": "24/12/2026", "cents": 19.99}"#)
        let ticketJSON = try ticket.jsonString(options: [.sortedKeys])
        // ticket.priority == .high, ticket.cents == 1999
        // ticketJSON == #"{"cents":19.99,"due":"24/12/2026","priority":"HIGH"}"#
        XCTAssertEqual(ticket.priority, .high)
        XCTAssertEqual(ticket.cents, 1999)
        XCTAssertEqual(ticketJSON, #"{"cents":19.99,"due":"24/12/2026","priority":"HIGH"}"#)
        XCTAssertThrowsError(try Ticket(json: #"{"priority": "URGENT"}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue)
            XCTAssertEqual((error as? MappingError)?.message, #""URGENT" is not one of ["HIGH", "LOW"]"#)
        }
    }

    func testContext() throws {
        struct Invoice: JSONMappable, JSONDecodingHooks, JSONEncodingHooks {
            var total = 0.0
            var currency = ""
            static let mapping = ModelMapping(transformers: [
                "total": JSONTransformer(Double.self,
                                         decodeInContext: { json, context in
                                             (json.doubleValue ?? 0) * (context.userInfo["rate"] as? Double ?? 1)
                                         },
                                         encodeInContext: { total, context in
                                             .number(JSONNumber(total / (context.userInfo["rate"] as? Double ?? 1)))
                                         }),
            ])

            mutating func didDecode(from object: JSONObject, context: MappingContext) throws {
                currency = context.userInfo["currency"] as? String ?? "EUR"
                let limit = context.userInfo["limit"] as? Double ?? .infinity
                guard total <= limit else { throw MappingError(.validation, "\(context.path): over \(limit)") }
            }

            func didEncode(into object: inout JSONObject, context: MappingContext) throws {
                object["tenant"] = .string(context.userInfo["tenant"] as? String ?? "")
            }
        }
        struct Ledger: JSONMappable { var invoices: [Invoice] = [] }

        var options = DecodingOptions.lenient
        options.userInfo = ["rate": 2.0, "currency": "NOK", "limit": 100.0]
        let ledger = try Ledger(json: #"{"invoices": [{"total": 10}, {"total": 20}]}"#, options: options)
        // ledger.invoices[1].total == 40, ledger.invoices[1].currency == "NOK"

        var encoding = EncodingOptions.sortedKeys
        encoding.userInfo = ["rate": 2.0, "tenant": "acme"]
        let ledgerJSON = try ledger.jsonString(options: encoding)
        // ledgerJSON == #"{"invoices":[{"currency":"NOK","tenant":"acme","total":10.0},{"currency":"NOK","tenant":"acme","total":20.0}]}"#

        do {
            _ = try Ledger(json: #"{"invoices": [{"total": 10}, {"total": 80}]}"#, options: options)
        } catch let error as MappingError {
            // error.kind == .validation, error.path == "invoices[1]", error.message == "invoices[1]: over 100.0"
        }
        XCTAssertThrowsError(try Ledger(json: #"{"invoices": [{"total": 10}, {"total": 80}]}"#, options: options)) { error in
            let error = error as? MappingError
            XCTAssertEqual(error?.kind, .validation)
            XCTAssertEqual(error?.path, "invoices[1]")
            XCTAssertEqual(error?.message, "invoices[1]: over 100.0")
        }
        XCTAssertEqual(ledger.invoices[1].total, 40)
        XCTAssertEqual(ledger.invoices[1].currency, "NOK")
        XCTAssertEqual(ledgerJSON, #"{"invoices":[{"currency":"NOK","tenant":"acme","total":10.0},{"currency":"NOK","tenant":"acme","total":20.0}]}"#)
    }

    func testPolymorphism() throws {
        class Shape: JSONMappable, JSONPolymorphic {
            var name = ""
            required init() {}
            class var mapping: ModelMapping { ModelMapping() }
            static func modelType(for object: JSONObject) -> (any JSONMappable.Type)? {
                switch object["kind"]?.stringValue {
                case "circle": return Circle.self
                case "square": return Square.self
                default: return nil
                }
            }
        }
        final class Circle: Shape { var radius = 0.0 }
        final class Square: Shape { var side = 0.0 }

        struct Drawing: JSONMappable { var shapes: [Shape] = [] }

        let drawing = try Drawing(json: #"{"shapes": [{"kind": "circle", "radius": 2}, {"kind": "square", "side": 3}, {"name": "blob"}]}"#)
        // drawing.shapes[0] is Circle, drawing.shapes[1] is Square, drawing.shapes[2] is a plain Shape
        XCTAssertEqual((drawing.shapes[0] as? Circle)?.radius, 2)
        XCTAssertEqual((drawing.shapes[1] as? Square)?.side, 3)
        XCTAssertTrue(type(of: drawing.shapes[2]) == Shape.self)
        XCTAssertEqual(drawing.shapes[2].name, "blob")
    }
}

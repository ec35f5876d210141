import Foundation
import ModelMapper
import XCTest

/// The code of MigratingFromJSONModel.md.
final class MigratingFromJSONModelSnippets: XCTestCase {
    func testSideBySide() throws {
        struct OrderModel: JSONMappable {
            var orderId = 0
            var totalPrice: Float = 0
            var note: String? = nil
            var cachedLabel = ""
            static let mapping = ModelMapping(
                keys: ["orderId": "order_id", "totalPrice": "price.usd"],
                ignored: ["cachedLabel"],
                required: ["orderId", "totalPrice"])
        }

        let order = try OrderModel(json: #"{"order_id": 104, "price": {"usd": 12.95}}"#)
        // order.orderId == 104, order.totalPrice == 12.95, order.note == nil
        XCTAssertEqual(order.orderId, 104)
        XCTAssertEqual(order.totalPrice, 12.95)
        XCTAssertNil(order.note)
        XCTAssertThrowsError(try OrderModel(json: #"{"order_id": 104}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .missingKey)
        }
    }
}

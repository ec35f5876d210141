import Foundation
import ModelMapper
import XCTest

/// The code of Mapping.md.
final class MappingSnippets: XCTestCase {
    func testKeysAndStrategies() throws {
        struct Book: JSONMappable {
            var name = ""
            var desc = ""
            var bookID = 0
            var isbn = ""
            static let mapping = ModelMapping(keys: [
                "name": "n",
                "desc": "ext.desc",
                "bookID": ["id", "ID", "book_id"],
                "isbn": .literal("meta.isbn"),
            ])
        }

        let book = try Book(json: #"{"n": "Dune", "ext": {"desc": "sand"}, "book_id": 3, "ID": 2, "meta.isbn": "0441013597"}"#)
        // book.name == "Dune", book.desc == "sand", book.bookID == 2 ("ID" comes before "book_id" in the list)
        // book.isbn == "0441013597"
        XCTAssertEqual(book.name, "Dune")
        XCTAssertEqual(book.desc, "sand")
        XCTAssertEqual(book.bookID, 2)
        XCTAssertEqual(book.isbn, "0441013597")

        let json = try book.jsonString(options: [.sortedKeys])
        // {"ext":{"desc":"sand"},"id":2,"meta.isbn":"0441013597","n":"Dune"}
        XCTAssertEqual(json, #"{"ext":{"desc":"sand"},"id":2,"meta.isbn":"0441013597","n":"Dune"}"#)

        struct Account: JSONMappable {
            var userID = 0
            var addressLine1 = ""
            var htmlURL = ""
            static let mapping = ModelMapping(keyStrategy: .snakeCase)
        }

        let account = try Account(json: #"{"user_id": 1, "address_line1": "1 Main St", "html_url": "https://example.com"}"#)
        let encoded = try account.jsonString(options: [.sortedKeys])
        // {"address_line1":"1 Main St","html_url":"https://example.com","user_id":1}
        XCTAssertEqual(account.userID, 1)
        XCTAssertEqual(account.htmlURL, "https://example.com")
        XCTAssertEqual(encoded, #"{"address_line1":"1 Main St","html_url":"https://example.com","user_id":1}"#)
    }

    func testListsNullsAndMistakes() throws {
        struct Order: JSONMappable {
            var id = 0
            var total = 0.0
            var cache: [String] = []
            var note = ""
            static let mapping = ModelMapping(ignored: ["cache"], required: ["id"])
        }

        let order = try Order(json: #"{"id": 5, "total": 9.5, "cache": ["x"]}"#)
        // order.cache == [] (ignored), order.note == "" (absent: keeps its default)
        XCTAssertEqual(order.id, 5)
        XCTAssertEqual(order.cache, [])
        XCTAssertEqual(order.note, "")

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try Order(json: #"{"total": 1}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 1: missingKey at id: required key id is missing
        }
        XCTAssertEqual(printed, "line 1, column 1: missingKey at id: required key id is missing")

        struct Settings: JSONMappable {
            var theme: String? = "dark"
            var fontSize = 12
        }

        let settings = try Settings(json: #"{"theme": null, "fontSize": null}"#)
        // settings.theme == nil, settings.fontSize == 12
        // try Settings(json: #"{"fontSize": null}"#, options: .strict) throws .typeMismatch at fontSize
        XCTAssertNil(settings.theme)
        XCTAssertEqual(settings.fontSize, 12)
        XCTAssertThrowsError(try Settings(json: #"{"fontSize": null}"#, options: .strict)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .typeMismatch)
            XCTAssertEqual((error as? MappingError)?.path, "fontSize")
        }

        struct Typo: JSONMappable {
            var name = ""
            static let mapping = ModelMapping(keys: ["nmae": "n"])
        }

        printed = ""
        do {
            _ = try Typo(json: "{}")
        } catch let error as MappingError {
            print(error)  // unsupportedType: Typo.mapping.keys names "nmae", which is not a stored property of Typo
        }
        XCTAssertEqual(printed, #"unsupportedType: Typo.mapping.keys names "nmae", which is not a stored property of Typo"#)
    }

    func testClassHierarchy() throws {
        class Animal: JSONMappable {
            var name = ""
            required init() {}
            class var mapping: ModelMapping { ModelMapping(keys: ["name": "n"]) }
        }

        final class Dog: Animal {
            var goodBoy = false
            override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(keyStrategy: .snakeCase)) }
        }

        let dog = try Dog(json: #"{"n": "Rex", "good_boy": true}"#)
        // dog.name == "Rex", dog.goodBoy == true
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertTrue(dog.goodBoy)
    }

    func testRootPaths() throws {
        struct Member: JSONMappable {
            var id = 0
            var name = ""
            static let mapping = ModelMapping(required: ["id"])
        }

        let envelope = #"{"meta": {"count": 2}, "data": {"user": {"id": 1, "name": "Ann"}, "items": [{"id": 2}, {"id": 3}]}, "result": {"a": {"id": 4}}}"#
        let user = try Member(json: envelope, at: "data.user")
        let items = try [Member](json: envelope, at: "data.items")
        let byKey = try [String: Member](json: envelope, at: "result")
        let sameUser = try ModelDecoder().decode(Member.self, from: envelope, at: "data.user")
        // user.name == "Ann", items.map(\.id) == [2, 3], byKey["a"]?.id == 4, sameUser.id == 1
        XCTAssertEqual(user.name, "Ann")
        XCTAssertEqual(user.id, 1)
        XCTAssertEqual(items.map(\.id), [2, 3])
        XCTAssertEqual(byKey["a"]?.id, 4)
        XCTAssertEqual(sameUser.id, 1)

        var printed: [String] = []
        func print(_ item: Any) { printed.append("\(item)") }
        for path: MappingKey in ["data.admin", "meta.count.value"] {
            do {
                _ = try Member(json: envelope, at: path)
            } catch let error as MappingError {
                print(error)
            }
        }
        XCTAssertEqual(printed, [
            #"line 1, column 32: missingKey at data.admin: the root path data.admin is missing (no key "admin")"#,
            "line 1, column 20: typeMismatch at meta.count: expected an object on the root path meta.count.value, found the number 2"])

        printed = []
        do {
            _ = try [Member](json: #"{"data": {"items": [{"id": 2}, {"id": "x"}]}}"#, at: "data.items")
        } catch let error as MappingError {
            print(error)  // line 1, column 39: invalidValue at data.items[1].id: the string "x" is not a number
        }
        XCTAssertEqual(printed, [#"line 1, column 39: invalidValue at data.items[1].id: the string "x" is not a number"#])
    }

    func testOneDirectionKeys() throws {
        struct Account: JSONMappable {
            var name = ""
            var email = ""
            var password = ""
            var checksum = ""
            static let mapping = ModelMapping(
                keys: ["name": "n"],
                encodingKeys: ["name": "full_name", "email": "contact.email"],
                ignoredWhenEncoding: ["password"],
                ignoredWhenDecoding: ["checksum"])
        }

        var account = try Account(json: #"{"n": "Ann", "email": "ann@example.com", "password": "secret", "checksum": "c1"}"#)
        // account.name == "Ann", account.password == "secret", account.checksum == "" (never read)
        account.checksum = "c2"
        let written = try account.jsonString(options: [.sortedKeys])
        // {"checksum":"c2","contact":{"email":"ann@example.com"},"full_name":"Ann"}
        XCTAssertEqual(written, #"{"checksum":"c2","contact":{"email":"ann@example.com"},"full_name":"Ann"}"#)
        XCTAssertEqual(account.name, "Ann")
        XCTAssertEqual(account.email, "ann@example.com")
        XCTAssertEqual(account.password, "secret")
        XCTAssertEqual(try Account(json: #"{"checksum": "c1"}"#).checksum, "")
    }

    func testFlattened() throws {
        struct Address: JSONMappable {
            var city = ""
            var zip = ""
            static let mapping = ModelMapping(keys: ["zip": "postal_code"], required: ["city"])
        }
        struct Customer: JSONMappable {
            var name = ""
            var address = Address()
            static let mapping = ModelMapping(flattened: ["address"])
        }

        let customer = try Customer(json: #"{"name": "Ann", "city": "Oslo", "postal_code": "0150"}"#)
        let flat = try customer.jsonString(options: [.sortedKeys])
        // customer.address.city == "Oslo", customer.address.zip == "0150"
        // flat == #"{"city":"Oslo","name":"Ann","postal_code":"0150"}"#
        XCTAssertEqual(customer.address.city, "Oslo")
        XCTAssertEqual(customer.address.zip, "0150")
        XCTAssertEqual(flat, #"{"city":"Oslo","name":"Ann","postal_code":"0150"}"#)

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try Customer(json: #"{"name": "Bo"}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 1: missingKey at address.city (JSON city): required key city is missing
        }
        XCTAssertEqual(printed, "line 1, column 1: missingKey at address.city (JSON city): required key city is missing")

        struct Shared: JSONMappable {
            var city = ""
            var address = Address()
            static let mapping = ModelMapping(flattened: ["address"])
        }

        var shared = try Shared(json: #"{"city": "Oslo"}"#)
        // shared.city == "Oslo", shared.address.city == "Oslo"
        shared.address.city = "Bergen"
        let written = try shared.jsonString(options: [.sortedKeys])
        // written == #"{"city":"Oslo","postal_code":""}"#
        XCTAssertEqual(shared.city, "Oslo")
        XCTAssertEqual(try Shared(json: #"{"city": "Oslo"}"#).address.city, "Oslo")
        XCTAssertEqual(written, #"{"city":"Oslo","postal_code":""}"#)
    }

    func testKeyStylesAndOptions() throws {
        struct Profile: JSONMappable {
            var avatarURL = ""
            var followerCount = 0
        }

        var options = DecodingOptions.lenient
        options.keyStrategy = .snakeCase
        let profile = try Profile(json: #"{"avatar_url": "a.png", "follower_count": 3}"#, options: options)
        let kebab = try profile.jsonString(options: [.sortedKeys, .keys(.kebabCase)])
        // profile.followerCount == 3, kebab == #"{"avatar-url":"a.png","follower-count":3}"#
        XCTAssertEqual(profile.avatarURL, "a.png")
        XCTAssertEqual(profile.followerCount, 3)
        XCTAssertEqual(kebab, #"{"avatar-url":"a.png","follower-count":3}"#)

        var encoding = EncodingOptions.sortedKeys
        encoding.keyStrategy = .pascalCase
        let pascal = try profile.jsonString(options: encoding)
        // {"AvatarURL":"a.png","FollowerCount":3}
        XCTAssertEqual(pascal, #"{"AvatarURL":"a.png","FollowerCount":3}"#)

        let listed: EncodingOptions = [.keys(.snakeCase), .sortedKeys, .keys(.kebabCase)]
        // listed == [.keys(.kebabCase), .sortedKeys] (the later key strategy wins), listed.sortedKeys == true
        let shouting = try profile.jsonString(options: [listed, .keys(.screamingSnakeCase)])
        // {"AVATAR_URL":"a.png","FOLLOWER_COUNT":3}
        XCTAssertEqual(listed, [.keys(.kebabCase), .sortedKeys])
        XCTAssertTrue(listed.sortedKeys)
        XCTAssertEqual(shouting, #"{"AVATAR_URL":"a.png","FOLLOWER_COUNT":3}"#)

        struct Legacy: JSONMappable {
            var userID = 0
            var displayName = ""
            static let mapping = ModelMapping(keys: ["displayName": "name"], keyStrategy: .identity)
        }

        let legacy = try Legacy(json: #"{"userID": 7, "user_id": 8, "name": "Ann"}"#, options: options)
        // legacy.userID == 7: the mapping's own strategy (even .identity) wins over the options'
        XCTAssertEqual(legacy.userID, 7)
        XCTAssertEqual(legacy.displayName, "Ann")

        var insensitive = DecodingOptions.lenient
        insensitive.caseInsensitiveKeys = true
        let shouted = try Profile(json: #"{"AVATARURL": "b.png", "FollowerCount": 5, "followerCount": 6}"#, options: insensitive)
        // shouted.avatarURL == "b.png", shouted.followerCount == 6 (an exact match wins)
        XCTAssertEqual(shouted.avatarURL, "b.png")
        XCTAssertEqual(shouted.followerCount, 6)

        struct Styles: JSONMappable {
            var userID = 0
            var addressLine1 = ""
            var htmlURL = ""
        }
        let styles = Styles()
        var printed: [String] = []
        for style in [KeyStrategy.snakeCase, .kebabCase, .screamingSnakeCase, .pascalCase] {
            var o = EncodingOptions.sortedKeys
            o.keyStrategy = style
            printed.append(try styles.jsonString(options: o))
        }
        XCTAssertEqual(printed, [
            #"{"address_line1":"","html_url":"","user_id":0}"#,
            #"{"address-line1":"","html-url":"","user-id":0}"#,
            #"{"ADDRESS_LINE1":"","HTML_URL":"","USER_ID":0}"#,
            #"{"AddressLine1":"","HtmlURL":"","UserID":0}"#,
        ])
    }
}

/// The tables both stores keep, as a list of migrations: a store applies, in order and each in its own
/// transaction, those above the version it finds in `schema_version`, so a later column is a new entry
/// here, never a manual step. Applied at start-up (PostgreSQL: under an advisory lock, so replicas that
/// start together do not race).
enum Schema {
    /// The two SQL dialects the stores speak.
    enum Dialect { case sqlite, postgres }

    /// A column's kind of value, which each dialect names in its own way.
    enum ColumnType {
        case integer, text, bytes, boolean, timestamp

        func name(in dialect: Dialect) -> String {
            switch (self, dialect) {
            case (.integer, .sqlite), (.boolean, .sqlite): "INTEGER"
            case (.integer, .postgres): "BIGINT"
            case (.text, _): "TEXT"
            case (.timestamp, .sqlite): "TEXT"
            case (.timestamp, .postgres): "TIMESTAMPTZ"
            case (.bytes, .sqlite): "BLOB"
            case (.bytes, .postgres): "BYTEA"
            case (.boolean, .postgres): "BOOLEAN"
            }
        }
    }

    struct Column {
        let name: String
        let type: ColumnType
        var nullable = false
    }

    struct Table {
        let name: String
        let columns: [Column]
        let primaryKey: [String]

        var columnNames: [String] { columns.map(\.name) }

        /// The same table under another name (to rebuild one with a new key).
        func named(_ name: String) -> Table { Table(name: name, columns: columns, primaryKey: primaryKey) }

        func create(in dialect: Dialect) -> String {
            var lines = columns.map { column in
                var line = "\(column.name) \(column.type.name(in: dialect))"
                if primaryKey == [column.name] { line += " PRIMARY KEY" } else if !column.nullable { line += " NOT NULL" }
                return line
            }
            if primaryKey.count > 1 { lines.append("PRIMARY KEY (\(primaryKey.joined(separator: ", ")))") }
            // STRICT: SQLite refuses a value of another type, as PostgreSQL does.
            return "CREATE TABLE \(name) (\(lines.joined(separator: ", ")))" + (dialect == .sqlite ? " STRICT" : "")
        }
    }

    /// One change of the schema, written once for both dialects.
    enum Step {
        case createTable(Table)
        case createIndex(name: String, table: String, column: String)
        /// Statements both dialects take as they are.
        case statements([String])
        /// Statements of each dialect's own.
        case perDialect(sqlite: [String], postgres: [String])

        func sql(in dialect: Dialect) -> [String] {
            switch self {
            case .createTable(let table): [table.create(in: dialect)]
            case .createIndex(let name, let table, let column): ["CREATE INDEX \(name) ON \(table) (\(column))"]
            case .statements(let statements): statements
            case .perDialect(let sqlite, let postgres): dialect == .sqlite ? sqlite : postgres
            }
        }
    }

    struct Migration {
        let version: Int
        let steps: [Step]

        func statements(in dialect: Dialect) -> [String] { steps.flatMap { $0.sql(in: dialect) } }
    }

    /// The tables as version 1 creates them. They stay so: a later column is a later migration's step
    /// (`ALTER TABLE … ADD COLUMN`, a new case of ``Step``), its name appended to the binding order below.
    static let events = Table(
        name: "events",
        columns: [
            Column(name: "id", type: .integer), Column(name: "created_at", type: .timestamp),
            Column(name: "text", type: .text), Column(name: "lang", type: .text, nullable: true),
            Column(name: "retweet_count", type: .integer), Column(name: "favorite_count", type: .integer),
            Column(name: "user_id", type: .integer), Column(name: "user_screen_name", type: .text),
            Column(name: "user_followers_count", type: .integer), Column(name: "user_verified", type: .boolean),
            Column(name: "hashtags", type: .text), Column(name: "urls", type: .text),
            Column(name: "upload_id", type: .text), Column(name: "raw", type: .text),
        ],
        primaryKey: ["id"])

    static let rejectedRecords = Table(
        name: "rejected_records",
        columns: [
            Column(name: "upload_id", type: .text), Column(name: "record_index", type: .integer),
            Column(name: "line", type: .integer), Column(name: "byte_offset", type: .integer),
            Column(name: "kind", type: .text), Column(name: "message", type: .text), Column(name: "path", type: .text),
            Column(name: "error_line", type: .integer, nullable: true),
            Column(name: "error_column", type: .integer, nullable: true), Column(name: "raw", type: .bytes),
        ],
        primaryKey: ["upload_id", "record_index"])

    /// The API keys (issue #37): only each key's SHA-256 is kept; `key_id` is the key's public part.
    static let apiKeys = Table(
        name: "api_keys",
        columns: [
            Column(name: "client", type: .text), Column(name: "key_id", type: .text),
            Column(name: "key_hash", type: .bytes), Column(name: "created_at", type: .timestamp),
            Column(name: "revoked_at", type: .timestamp, nullable: true),
        ],
        primaryKey: ["key_id"])

    /// `events` from version 3 on: an id belongs to the client that sent it, so the key is (client, id).
    static let eventsByClient = Table(
        name: "events", columns: [Column(name: "client", type: .text)] + events.columns, primaryKey: ["client", "id"])

    /// Version 3 (issue #37): the API keys; `events` rebuilt with its new key (SQLite cannot change a
    /// table's primary key in place), the rows kept as the client `anonymous` (there were no keys before);
    /// `rejected_records` gets a `client` column (appended, so its binding order below ends with it).
    static let clients = Migration(
        version: 3,
        steps: [
            .createTable(apiKeys),
            .createTable(eventsByClient.named("events_v3")),
            .statements([
                "INSERT INTO events_v3 (\(eventsByClient.columnNames.joined(separator: ", "))) SELECT '\(IngestConfiguration.anonymousClient)', \(events.columnNames.joined(separator: ", ")) FROM events",
                "DROP TABLE events",
                "ALTER TABLE events_v3 RENAME TO events",
                "ALTER TABLE rejected_records ADD COLUMN client TEXT NOT NULL DEFAULT '\(IngestConfiguration.anonymousClient)'",
            ]),
            .createIndex(name: "events_user_id", table: "events", column: "user_id"),
        ])

    /// Version 4 (issue #37.7, `GET /rejected`): `rejected_records.id`, a number that only grows, the
    /// cursor of a client's listing (`WHERE client = ? AND id > ? ORDER BY id`, on an index (client, id)).
    /// SQLite cannot add such a column in place: the table is rebuilt (`id INTEGER PRIMARY KEY
    /// AUTOINCREMENT`, never reused; (upload_id, record_index) stays unique), the rows copied in their
    /// order. PostgreSQL adds an identity column, which numbers the rows it holds.
    static let rejectionIDs: Migration = {
        let columns = rejectedRecords.columns + [Column(name: "client", type: .text)]
        let names = columns.map(\.name).joined(separator: ", ")
        let definitions = columns.map { "\($0.name) \($0.type.name(in: .sqlite))\($0.nullable ? "" : " NOT NULL")" }
        return Migration(
            version: 4,
            steps: [
                .perDialect(
                    sqlite: [
                        "CREATE TABLE rejected_records_v4 (id INTEGER PRIMARY KEY AUTOINCREMENT, "
                            + definitions.joined(separator: ", ") + ", UNIQUE (upload_id, record_index)) STRICT",
                        "INSERT INTO rejected_records_v4 (\(names)) SELECT \(names) FROM rejected_records ORDER BY rowid",
                        "DROP TABLE rejected_records",
                        "ALTER TABLE rejected_records_v4 RENAME TO rejected_records",
                    ],
                    postgres: ["ALTER TABLE rejected_records ADD COLUMN id BIGINT GENERATED ALWAYS AS IDENTITY"]),
                .statements(["CREATE UNIQUE INDEX rejected_records_client_id ON rejected_records (client, id)"]),
            ])
    }()

    static let migrations: [Migration] = [
        Migration(version: 1, steps: [.createTable(events), .createTable(rejectedRecords)]),
        Migration(version: 2, steps: [.createIndex(name: "events_user_id", table: "events", column: "user_id")]),
        clients,
        rejectionIDs,
    ]

    /// `GET /rejected`'s query: a client's rejected records after an id, in id order, at most a limit
    /// (`?` placeholders; PostgreSQL's numbered in its store).
    static let listRejections =
        "SELECT id, upload_id, record_index, line, kind, message, substr(raw, 1, ?) AS raw FROM rejected_records WHERE client = ? AND id > ? ORDER BY id LIMIT ?"

    /// A client's rejected records but its newest N (SQLite's placeholders; PostgreSQL's in its store).
    static let pruneRejections =
        "DELETE FROM rejected_records WHERE client = ?1 AND id <= (SELECT id FROM rejected_records WHERE client = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)"

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The columns of `events`, in the order both stores bind them.
    static var eventColumns: [String] { eventsByClient.columnNames }

    /// The columns of `rejected_records`, in the order both stores bind them.
    static var rejectionColumns: [String] { rejectedRecords.columnNames + ["client"] }

    /// `INSERT INTO table (columns) VALUES (…), (…) ON CONFLICT DO NOTHING` for `rows` rows, with
    /// placeholders `?` (SQLite) or `$n` (PostgreSQL); `returning` appends `RETURNING` it. The column
    /// named `textFromBlob` (SQLite) is bound as a BLOB of UTF-8 bytes and stored as that text, byte for
    /// byte (`CAST(? AS TEXT)` reads a blob's bytes as text in the database's encoding, UTF-8).
    static func insert(
        into table: String, columns: [String], rows: Int, numbered: Bool, textFromBlob: String? = nil,
        returning: String? = nil
    ) -> String {
        var sql = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        sql.reserveCapacity(rows * columns.count * 6 + 100)
        var n = 0
        for row in 0..<rows {
            if row > 0 { sql += ", " }
            sql += "("
            for column in 0..<columns.count {
                if column > 0 { sql += ", " }
                n += 1
                let placeholder = numbered ? "$\(n)" : "?"
                sql += columns[column] == textFromBlob ? "CAST(\(placeholder) AS TEXT)" : placeholder
            }
            sql += ")"
        }
        sql += " ON CONFLICT DO NOTHING"
        if let returning { sql += " RETURNING \(returning)" }
        return sql
    }
}

extension Status {
    /// Hashtag texts, space-separated (a hashtag has no space).
    var hashtagColumn: String { entities.hashtags.map(\.text).joined(separator: " ") }
    /// Expanded links, space-separated (a URL has no space).
    var urlsColumn: String { entities.urls.compactMap { $0.expandedUrl?.absoluteString }.joined(separator: " ") }

    /// Why a text column cannot hold this event (PostgreSQL's text refuses U+0000, which JSON can
    /// carry as `\u0000`), or nil. Checked for every store, so both keep the same records.
    var unstorableReason: String? {
        for (name, value) in [("text", text), ("lang", lang ?? ""), ("user.screen_name", user.screenName)]
        where value.utf8.contains(0) {
            return "\(name) contains U+0000, which a text column cannot hold"
        }
        if entities.hashtags.contains(where: { $0.text.utf8.contains(0) }) {
            return "entities.hashtags contains U+0000, which a text column cannot hold"
        }
        return nil
    }
}

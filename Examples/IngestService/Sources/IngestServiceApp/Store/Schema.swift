/// The tables both stores keep, as a list of migrations: a store applies, in order and each in its own
/// transaction, those above the version it finds in `schema_version`, so a later column is a new entry
/// here, never a manual step. Applied at start-up (PostgreSQL: under an advisory lock, so replicas that
/// start together do not race).
enum Schema {
    struct Migration {
        let version: Int
        let sqlite: [String]
        let postgres: [String]
    }

    static let migrations: [Migration] = [
        Migration(
            version: 1,
            sqlite: [
                """
                CREATE TABLE events (
                    id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, text TEXT NOT NULL, lang TEXT,
                    retweet_count INTEGER NOT NULL, favorite_count INTEGER NOT NULL, user_id INTEGER NOT NULL,
                    user_screen_name TEXT NOT NULL, user_followers_count INTEGER NOT NULL,
                    user_verified INTEGER NOT NULL, hashtags TEXT NOT NULL, urls TEXT NOT NULL,
                    upload_id TEXT NOT NULL, raw TEXT NOT NULL
                ) STRICT
                """,
                """
                CREATE TABLE rejected_records (
                    upload_id TEXT NOT NULL, record_index INTEGER NOT NULL, line INTEGER NOT NULL,
                    byte_offset INTEGER NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, path TEXT NOT NULL,
                    error_line INTEGER, error_column INTEGER, raw BLOB NOT NULL,
                    PRIMARY KEY (upload_id, record_index)
                ) STRICT
                """,
            ],
            postgres: [
                """
                CREATE TABLE events (
                    id BIGINT PRIMARY KEY, created_at TIMESTAMPTZ NOT NULL, text TEXT NOT NULL, lang TEXT,
                    retweet_count BIGINT NOT NULL, favorite_count BIGINT NOT NULL, user_id BIGINT NOT NULL,
                    user_screen_name TEXT NOT NULL, user_followers_count BIGINT NOT NULL,
                    user_verified BOOLEAN NOT NULL, hashtags TEXT NOT NULL, urls TEXT NOT NULL,
                    upload_id TEXT NOT NULL, raw TEXT NOT NULL
                )
                """,
                """
                CREATE TABLE rejected_records (
                    upload_id TEXT NOT NULL, record_index BIGINT NOT NULL, line BIGINT NOT NULL,
                    byte_offset BIGINT NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, path TEXT NOT NULL,
                    error_line BIGINT, error_column BIGINT, raw BYTEA NOT NULL,
                    PRIMARY KEY (upload_id, record_index)
                )
                """,
            ]),
        Migration(
            version: 2,
            sqlite: ["CREATE INDEX events_user_id ON events (user_id)"],
            postgres: ["CREATE INDEX events_user_id ON events (user_id)"]),
    ]

    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The columns of `events`, in the order both stores bind them.
    static let eventColumns = [
        "id", "created_at", "text", "lang", "retweet_count", "favorite_count", "user_id", "user_screen_name",
        "user_followers_count", "user_verified", "hashtags", "urls", "upload_id", "raw",
    ]

    /// The columns of `rejected_records`, in the order both stores bind them.
    static let rejectionColumns = [
        "upload_id", "record_index", "line", "byte_offset", "kind", "message", "path", "error_line",
        "error_column", "raw",
    ]

    /// `INSERT INTO table (columns) VALUES (…), (…) ON CONFLICT DO NOTHING` for `rows` rows, with
    /// placeholders `?` (SQLite) or `$n` (PostgreSQL); `returning` appends `RETURNING` it.
    static func insert(
        into table: String, columns: [String], rows: Int, numbered: Bool, returning: String? = nil
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
                sql += numbered ? "$\(n)" : "?"
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

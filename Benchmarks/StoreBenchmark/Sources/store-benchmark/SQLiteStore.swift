import CSQLite
import Foundation

/// The same store kept in SQLite, as an app that chose SQLite would keep it: one table of
/// records keyed by zone, type and name, each row the record's CloudKit JSON and its sync
/// status, in WAL mode with `synchronous = FULL` so that a commit is durable when it returns.
final class SQLiteStore {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private var database: OpaquePointer?
    private var insert: OpaquePointer?
    private var select: OpaquePointer?
    private var scoredSelect: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open(path, &database) == SQLITE_OK else { throw failure("open") }
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = FULL")
        // Writers on other connections wait their turn, as SQLite serialises them.
        try execute("PRAGMA busy_timeout = 60000")
        try execute(
            """
            CREATE TABLE IF NOT EXISTS records (
                zone TEXT NOT NULL, type TEXT NOT NULL, name TEXT NOT NULL,
                status INTEGER NOT NULL, json BLOB NOT NULL,
                PRIMARY KEY (zone, type, name)) WITHOUT ROWID
            """)
        insert = try prepare("INSERT OR REPLACE INTO records VALUES (?1, ?2, ?3, ?4, ?5)")
        select = try prepare("SELECT json FROM records WHERE zone = ?1 AND type = ?2 AND name = ?3")
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_finalize(select)
        sqlite3_finalize(scoredSelect)
        sqlite3_close(database)
    }

    /// Stores rows of `(zone, type, name, json)` in one transaction: one durable commit.
    func save(_ rows: [(zone: String, type: String, name: String, json: Data)]) throws {
        if rows.count > 1 { try execute("BEGIN") }
        for row in rows {
            sqlite3_reset(insert)
            sqlite3_bind_text(insert, 1, row.zone, -1, transient)
            sqlite3_bind_text(insert, 2, row.type, -1, transient)
            sqlite3_bind_text(insert, 3, row.name, -1, transient)
            sqlite3_bind_int(insert, 4, 1)
            let result = row.json.withUnsafeBytes { bytes in
                sqlite3_bind_blob(insert, 5, bytes.baseAddress, Int32(bytes.count), transient)
                return sqlite3_step(insert)
            }
            guard result == SQLITE_DONE else { throw failure("insert") }
        }
        if rows.count > 1 { try execute("COMMIT") }
    }

    /// The JSON of the record of `(zone, type, name)`.
    func json(zone: String, type: String, name: String) throws -> Data? {
        sqlite3_reset(select)
        sqlite3_bind_text(select, 1, zone, -1, transient)
        sqlite3_bind_text(select, 2, type, -1, transient)
        sqlite3_bind_text(select, 3, name, -1, transient)
        switch sqlite3_step(select) {
        case SQLITE_ROW:
            guard let blob = sqlite3_column_blob(select, 0) else { return Data() }
            return Data(bytes: blob, count: Int(sqlite3_column_bytes(select, 0)))
        case SQLITE_DONE:
            return nil
        default:
            throw failure("select")
        }
    }

    /// Keeps `rows` in a table of their own with their `score` as a column and an index on it, as
    /// an app that queries by score would: one transaction.
    func saveScored(_ rows: [(name: String, score: Double, json: Data)]) throws {
        try execute(
            """
            CREATE TABLE IF NOT EXISTS scored (name TEXT PRIMARY KEY, score REAL NOT NULL, json BLOB NOT NULL)
                WITHOUT ROWID
            """)
        try execute("CREATE INDEX IF NOT EXISTS scored_by_score ON scored (score)")
        let insert = try prepare("INSERT OR REPLACE INTO scored VALUES (?1, ?2, ?3)")
        defer { sqlite3_finalize(insert) }
        try execute("BEGIN")
        for row in rows {
            sqlite3_reset(insert)
            sqlite3_bind_text(insert, 1, row.name, -1, transient)
            sqlite3_bind_double(insert, 2, row.score)
            let result = row.json.withUnsafeBytes { bytes in
                sqlite3_bind_blob(insert, 3, bytes.baseAddress, Int32(bytes.count), transient)
                return sqlite3_step(insert)
            }
            guard result == SQLITE_DONE else { throw failure("insert") }
        }
        try execute("COMMIT")
    }

    /// The JSON of the first `limit` rows of `scored` whose score is between `lower` and `upper`,
    /// by score: read through the index.
    func scored(from lower: Double, to upper: Double, limit: Int) throws -> [Data] {
        if scoredSelect == nil {
            scoredSelect = try prepare(
                "SELECT json FROM scored WHERE score BETWEEN ?1 AND ?2 ORDER BY score, name LIMIT ?3")
        }
        sqlite3_reset(scoredSelect)
        sqlite3_bind_double(scoredSelect, 1, lower)
        sqlite3_bind_double(scoredSelect, 2, upper)
        sqlite3_bind_int(scoredSelect, 3, Int32(limit))
        var found: [Data] = []
        while true {
            switch sqlite3_step(scoredSelect) {
            case SQLITE_ROW:
                let blob = sqlite3_column_blob(scoredSelect, 0)
                found.append(blob.map { Data(bytes: $0, count: Int(sqlite3_column_bytes(scoredSelect, 0))) } ?? Data())
            case SQLITE_DONE:
                return found
            default:
                throw failure("select")
            }
        }
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else { throw failure(sql) }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(sql) }
        return statement
    }

    private func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: sqlite3_errmsg(database)))")
    }

    /// SQLite's SQLITE_TRANSIENT: it copies what is bound.
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

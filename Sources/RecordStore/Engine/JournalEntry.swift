import Foundation
import RecordCodable

/// One change that a commit writes to the journal: a record's new entry, a record's removal, or
/// a zone's sync token.
///
/// Entries are what the journal's frames hold. Each is sealed on its own by the store's cipher,
/// so that reading one record opens one entry, not the whole commit it came with.
enum JournalEntry {
    /// The record's entry as it now is.
    case record(RecordEntry)
    /// The record is gone.
    case removal(RecordKey)
    /// The zone's sync token, or none, and the owner the server named for the zone.
    case syncToken(zone: String, token: String?, owner: String?)

    /// The kind of an entry, its first byte.
    private enum Kind: UInt8 {
        case record = 1
        case removal = 2
        case syncToken = 3
    }

    /// What opening the store needs of an entry to index it, read without decoding any JSON.
    enum Summary {
        case record(RecordKey, RecordState)
        case removal(RecordKey)
        case syncToken(zone: String, token: String?, owner: String?)
    }

    // MARK: Writing

    /// The bytes of a record's entry, before sealing.
    static func write(_ entry: RecordEntry, to writer: inout ByteWriter) {
        writer.append(Kind.record.rawValue)
        write(entry.key, to: &writer)
        writer.append(entry.status.code)
        var flags: UInt8 = entry.isDeletion ? 1 : 0
        if entry.server != nil { flags |= 2 }
        // An error keeps its delay only when JSON can carry it: a NaN or infinite one, which no
        // server sends, is dropped rather than the error with it.
        let error = entry.lastError.flatMap { error in
            var storable = error
            if let delay = storable.retryAfter, !delay.isFinite { storable.retryAfter = nil }
            return try? JSONEncoder().encode(storable)
        }
        if error != nil { flags |= 4 }
        if entry.wasOffered { flags |= 8 }
        writer.append(flags)
        writer.appendBlob(entry.local.json)
        entry.local.facts.write(to: &writer)
        if let server = entry.server {
            writer.appendBlob(server.json)
            server.facts.write(to: &writer)
        }
        if let error { writer.appendBlob(error) }
    }

    /// The bytes of a record's removal, before sealing.
    static func writeRemoval(of key: RecordKey, to writer: inout ByteWriter) {
        writer.append(Kind.removal.rawValue)
        write(key, to: &writer)
    }

    /// The bytes of a zone's sync token and its zone's owner, before sealing.
    ///
    /// A flags byte says what follows: 1, the token; 2, the owner after it. The owner is kept
    /// only with a token, and after it, so that a version that knows no owner reads the token
    /// and stops there.
    static func writeSyncToken(_ token: String?, owner: String?, forZone zone: String, to writer: inout ByteWriter) {
        writer.append(Kind.syncToken.rawValue)
        writer.appendString(zone)
        let owner = token == nil ? nil : owner
        writer.append(UInt8(token == nil ? 0 : 1) | UInt8(owner == nil ? 0 : 2))
        if let token { writer.appendString(token) }
        if let owner { writer.appendString(owner) }
    }

    private static func write(_ key: RecordKey, to writer: inout ByteWriter) {
        writer.appendString(key.zone)
        writer.appendString(key.recordType)
        writer.appendString(key.recordName)
    }

    // MARK: Reading

    /// The whole entry in `bytes`.
    init(from bytes: UnsafeRawBufferPointer) throws {
        var reader = ByteReader(bytes)
        switch try Self.kind(&reader) {
        case .record:
            let key = try Self.key(&reader)
            let status = try Self.status(&reader)
            let flags = try reader.byte()
            let local = EncodedRecord(json: try reader.data(), facts: try LocalFacts(from: &reader))
            var server: EncodedRecord?
            if flags & 2 != 0 {
                server = EncodedRecord(json: try reader.data(), facts: try LocalFacts(from: &reader))
            }
            var lastError: RecordServerError?
            if flags & 4 != 0 {
                lastError = try JSONDecoder().decode(RecordServerError.self, from: try reader.data())
            }
            self = .record(
                RecordEntry(
                    key: key, status: status, isDeletion: flags & 1 != 0, local: local, server: server,
                    lastError: lastError, wasOffered: flags & 8 != 0))
        case .removal:
            self = .removal(try Self.key(&reader))
        case .syncToken:
            let (zone, token, owner) = try Self.syncToken(&reader)
            self = .syncToken(zone: zone, token: token, owner: owner)
        }
    }

    /// What the index needs of the entry in `bytes`.
    static func summary(of bytes: UnsafeRawBufferPointer) throws -> Summary {
        var reader = ByteReader(bytes)
        switch try kind(&reader) {
        case .record:
            let key = try key(&reader)
            let status = try status(&reader)
            let flags = try reader.byte()
            return .record(
                key,
                RecordState(
                    status: status, isDeletion: flags & 1 != 0, hasServerVersion: flags & 2 != 0,
                    wasOffered: flags & 8 != 0))
        case .removal:
            return .removal(try key(&reader))
        case .syncToken:
            let (zone, token, owner) = try syncToken(&reader)
            return .syncToken(zone: zone, token: token, owner: owner)
        }
    }

    /// The local version in the record entry in `bytes`, read without the rest: the cheapest
    /// read of a record.
    static func localRecord(in bytes: UnsafeRawBufferPointer) throws -> EncodedRecord {
        try localRecord(in: bytes) { EncodedRecord(json: Data($0), facts: $1) }
    }

    /// The local version of a record entry's record, its JSON as the text the decoder reads: for
    /// a reader that decodes it at once, and keeps no `Data` of it.
    static func localRecordText(in bytes: UnsafeRawBufferPointer) throws -> EncodedRecord.Text {
        try localRecord(in: bytes) { EncodedRecord.Text(json: ContiguousArray($0), facts: $1) }
    }

    /// What `make` makes of the JSON and the local facts of a record entry's local version.
    private static func localRecord<Result>(
        in bytes: UnsafeRawBufferPointer, _ make: (UnsafeRawBufferPointer, LocalFacts) -> Result
    ) throws -> Result {
        var reader = ByteReader(bytes)
        guard try kind(&reader) == .record else {
            throw ByteReader.Malformed(description: "the index points at an entry that is not a record's")
        }
        for _ in 0..<3 { _ = try reader.blob() }  // the key
        _ = try reader.byte()  // the status
        _ = try reader.byte()  // the flags
        let json = try reader.blob()
        return make(json, try LocalFacts(from: &reader))
    }

    private static func kind(_ reader: inout ByteReader) throws -> Kind {
        let byte = try reader.byte()
        guard let kind = Kind(rawValue: byte) else {
            throw ByteReader.Malformed(description: "an entry of unknown kind \(byte), from a newer version")
        }
        return kind
    }

    /// A sync token's entry, after its kind (see ``writeSyncToken(_:owner:forZone:to:)``).
    private static func syncToken(_ reader: inout ByteReader) throws -> (String, String?, String?) {
        let zone = try reader.string()
        let flags = try reader.byte()
        guard flags & 1 != 0 else { return (zone, nil, nil) }
        let token = try reader.string()
        return (zone, token, flags & 2 != 0 ? try reader.string() : nil)
    }

    private static func key(_ reader: inout ByteReader) throws -> RecordKey {
        let zone = try reader.string()
        let recordType = try reader.string()
        return RecordKey(zone: zone, recordType: recordType, recordName: try reader.string())
    }

    private static func status(_ reader: inout ByteReader) throws -> SyncStatus {
        let code = try reader.byte()
        guard let status = SyncStatus(code: code) else {
            throw ByteReader.Malformed(description: "an unknown sync status \(code)")
        }
        return status
    }
}

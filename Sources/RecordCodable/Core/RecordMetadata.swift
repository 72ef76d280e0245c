import Foundation

/// The system fields that a record store assigns when it saves a record.
///
/// Give a model a property of this type to keep what the server said about its record. The
/// property is never stored as a field: ``RecordEncoder`` puts it in ``Record/metadata`` and
/// ``RecordDecoder`` fills it from there. A model that carries the change tag of its last fetch can
/// then be saved again as an update of the same server record:
///
/// ```swift
/// struct Note: Codable {
///     var id: String
///     var title: String
///     var metadata: RecordMetadata?     // nil until the server has seen the note
/// }
///
/// var note = try RecordDecoder().decode(Note.self, from: fetched)
/// note.title = "Renamed"
/// let update = try RecordEncoder().encode(note)   // update.metadata?.changeTag == fetched's
/// ```
public struct RecordMetadata: Hashable, Sendable, Codable {
    /// Who changed a record, when, and from which device.
    public struct Stamp: Hashable, Sendable, Codable {
        /// When the change happened.
        public var timestamp: Date
        /// The record name of the user who made the change.
        public var userRecordName: String?
        /// The device the change came from.
        public var deviceID: String?

        /// Creates a stamp.
        ///
        /// - Parameters:
        ///   - timestamp: When the change happened.
        ///   - userRecordName: The record name of the user who made the change.
        ///   - deviceID: The device the change came from.
        public init(timestamp: Date, userRecordName: String? = nil, deviceID: String? = nil) {
            self.timestamp = timestamp
            self.userRecordName = userRecordName
            self.deviceID = deviceID
        }
    }

    /// The server's tag for the version of the record it last saved. A save that carries a stale
    /// tag is refused instead of overwriting a newer version.
    public var changeTag: String?

    /// When, and by whom, the record was created.
    public var created: Stamp?

    /// When, and by whom, the record was last modified.
    public var modified: Stamp?

    /// The zone that holds the record.
    public var zoneID: RecordZoneID?

    /// Whether the server reports the record as deleted.
    public var deleted: Bool

    /// The share that the record belongs to, when it is the root of a shared hierarchy.
    public var share: RecordReference?

    /// The short identifier of the record's share URL, when the server made one
    /// (`createShortGUID` in a save).
    public var shortGUID: String?

    /// The name of the record this metadata belongs to: identity travels with the system fields,
    /// as it does in CloudKit's.
    ///
    /// ``RecordDecoder`` sets it from the record it reads, and a ``Record`` read from CloudKit's
    /// JSON has it too (a record's metadata always holds the record's own name). So a model that
    /// keeps its metadata but has no identifier property of its own is saved again under the same
    /// name: ``RecordEncoder`` names the record from it. A model that has both, with different
    /// values, is an error, and so is metadata with a change tag but no name to prove which record
    /// it belongs to — never a new record name for a record the server already has.
    ///
    /// Equality leaves it out: two metadata are equal when the server said the same of their
    /// records, so a model read from a record equals the model it was written from.
    public var recordName: String?

    /// Creates metadata; a record that the server has not seen yet has none of it.
    ///
    /// - Parameters:
    ///   - changeTag: The server's tag for the record's version.
    ///   - created: When, and by whom, the record was created.
    ///   - modified: When, and by whom, the record was last modified.
    ///   - zoneID: The zone that holds the record.
    ///   - deleted: Whether the server reports the record as deleted.
    ///   - share: The share that the record belongs to.
    ///   - shortGUID: The short identifier of the record's share URL.
    ///   - recordName: The name of the record the metadata belongs to.
    public init(
        changeTag: String? = nil,
        created: Stamp? = nil,
        modified: Stamp? = nil,
        zoneID: RecordZoneID? = nil,
        deleted: Bool = false,
        share: RecordReference? = nil,
        shortGUID: String? = nil,
        recordName: String? = nil
    ) {
        self.changeTag = changeTag
        self.created = created
        self.modified = modified
        self.zoneID = zoneID
        self.deleted = deleted
        self.share = share
        self.shortGUID = shortGUID
        self.recordName = recordName
    }

    /// Whether the server said the same of both records; their ``recordName`` is left out.
    public static func == (first: RecordMetadata, second: RecordMetadata) -> Bool {
        first.changeTag == second.changeTag && first.created == second.created && first.modified == second.modified
            && first.zoneID == second.zoneID && first.deleted == second.deleted && first.share == second.share
            && first.shortGUID == second.shortGUID
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(changeTag)
        hasher.combine(created)
        hasher.combine(modified)
        hasher.combine(zoneID)
        hasher.combine(deleted)
        hasher.combine(share)
        hasher.combine(shortGUID)
    }

    private enum CodingKeys: String, CodingKey {
        case changeTag, created, modified, zoneID, deleted, share, shortGUID, recordName
    }

    /// Reads metadata; a missing `deleted` is `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changeTag = try container.decodeIfPresent(String.self, forKey: .changeTag)
        created = try container.decodeIfPresent(Stamp.self, forKey: .created)
        modified = try container.decodeIfPresent(Stamp.self, forKey: .modified)
        zoneID = try container.decodeIfPresent(RecordZoneID.self, forKey: .zoneID)
        deleted = try container.decodeIfPresent(Bool.self, forKey: .deleted) ?? false
        share = try container.decodeIfPresent(RecordReference.self, forKey: .share)
        shortGUID = try container.decodeIfPresent(String.self, forKey: .shortGUID)
        recordName = try container.decodeIfPresent(String.self, forKey: .recordName)
    }
}

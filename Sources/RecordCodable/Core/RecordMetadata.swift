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
    public init(
        changeTag: String? = nil,
        created: Stamp? = nil,
        modified: Stamp? = nil,
        zoneID: RecordZoneID? = nil,
        deleted: Bool = false,
        share: RecordReference? = nil,
        shortGUID: String? = nil
    ) {
        self.changeTag = changeTag
        self.created = created
        self.modified = modified
        self.zoneID = zoneID
        self.deleted = deleted
        self.share = share
        self.shortGUID = shortGUID
    }

    private enum CodingKeys: String, CodingKey { case changeTag, created, modified, zoneID, deleted, share, shortGUID }

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
    }
}

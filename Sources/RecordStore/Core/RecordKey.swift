/// What names a record in a store: its zone, its record type and its record name.
///
/// CloudKit names a record by its zone and name; the store adds the record type, so that models
/// of two types may share an identifier, as they can in GarageStorage. On the server they are one
/// record, though: of two such records that sync, ``RecordStore/modifyRequests(maximumOperations:)``
/// sends one at a time, and the server refuses the second's create (its error is kept in
/// ``StoredRecord/lastError``). Share names across types only for records that stay on the
/// device, such as the key-value view's.
///
/// Names are compared as Swift compares strings: two names that differ only in their Unicode
/// normalisation (`"café"` with a precomposed `é`, or with `e` and a combining accent) are one
/// key, and the store keeps records whose names differ only so as one record. Name records with
/// plain identifiers (UUIDs, numbers), or keep their names in one normalisation.
///
/// ```swift
/// let key = RecordKey(recordType: "Note", recordName: "N1")          // in the default zone
/// let stored = try store.record(for: key)
/// let other = RecordKey(zone: "Work", recordType: "Note", recordName: "N1")
/// ```
public struct RecordKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name of CloudKit's default zone, where a record is unless it is in a zone of its own
    /// (also ``RecordStore/defaultZone``).
    public static let defaultZone = "_defaultZone"

    /// The zone's name: ``defaultZone`` unless the record is in a zone of its own.
    public var zone: String
    /// The record's type.
    public var recordType: String
    /// The record's name, unique among records of its type in its zone (and, for records that
    /// sync, among all records of its zone).
    public var recordName: String

    /// A key of a record in `zone`, by default CloudKit's default zone.
    public init(zone: String = RecordKey.defaultZone, recordType: String, recordName: String) {
        self.zone = zone
        self.recordType = recordType
        self.recordName = recordName
    }

    /// Keys sort by zone, then record type, then record name: the order in which the store lists
    /// records.
    public static func < (first: RecordKey, second: RecordKey) -> Bool {
        (first.zone, first.recordType, first.recordName) < (second.zone, second.recordType, second.recordName)
    }

    /// `zone/recordType/recordName`.
    public var description: String { "\(zone)/\(recordType)/\(recordName)" }
}

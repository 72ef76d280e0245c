import Foundation

/// A link from one record to another.
///
/// A reference names the record it points to and says what the server does when that record is
/// deleted. Store one in a model to relate records the way CloudKit does:
///
/// ```swift
/// struct Comment: Codable {
///     var id: String
///     var text: String
///     var post: RecordReference   // RecordReference(recordName: "P1", action: .deleteSelf)
/// }
/// ```
public struct RecordReference: Hashable, Sendable, Codable {
    /// What the server does to the record that holds a reference when the referenced record is
    /// deleted.
    public enum Action: String, Hashable, Sendable, Codable, CaseIterable {
        /// Nothing: the reference is left dangling.
        case none = "NONE"
        /// The record that holds the reference is deleted too. Use it for owned children, such
        /// as the comments of a post.
        case deleteSelf = "DELETE_SELF"
        /// The server checks that the referenced record exists when the holder is saved, and
        /// nothing happens on deletion.
        case validate = "VALIDATE"
    }

    /// The name of the referenced record.
    public var recordName: String

    /// What the server does when the referenced record is deleted.
    public var action: Action

    /// The zone of the referenced record, or `nil` for the zone of the record that holds the
    /// reference.
    public var zoneID: RecordZoneID?

    /// Creates a reference to a record.
    ///
    /// - Parameters:
    ///   - recordName: The name of the referenced record.
    ///   - action: What the server does when the referenced record is deleted; `.none` by default.
    ///   - zoneID: The zone of the referenced record, if it is not the holder's zone.
    public init(recordName: String, action: Action = .none, zoneID: RecordZoneID? = nil) {
        self.recordName = recordName
        self.action = action
        self.zoneID = zoneID
    }

    /// The reference's cost against a record's size limit: the UTF-8 bytes of its names.
    var encodedSize: Int {
        recordName.utf8.count &+ (zoneID?.encodedSize ?? 0)
    }

    private enum CodingKeys: String, CodingKey { case recordName, action, zoneID }

    /// Reads a reference; a missing action is `.none`, as CloudKit takes it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        recordName = try container.decode(String.self, forKey: .recordName)
        action = try container.decodeIfPresent(Action.self, forKey: .action) ?? .none
        zoneID = try container.decodeIfPresent(RecordZoneID.self, forKey: .zoneID)
    }
}

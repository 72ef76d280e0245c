import Foundation

/// The identity of a record zone: its name and the user who owns it.
public struct RecordZoneID: Hashable, Sendable, Codable {
    /// The zone's name, such as `"_defaultZone"`.
    public var zoneName: String

    /// The record name of the user who owns the zone, or `nil` for the current user.
    public var ownerRecordName: String?

    /// Creates a zone identity.
    ///
    /// - Parameters:
    ///   - zoneName: The zone's name.
    ///   - ownerRecordName: The record name of the zone's owner, or `nil` for the current user.
    public init(zoneName: String, ownerRecordName: String? = nil) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    /// The zone's cost against a record's size limit: the UTF-8 bytes of its names.
    var encodedSize: Int {
        zoneName.utf8.count &+ (ownerRecordName?.utf8.count ?? 0)
    }
}

#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    extension CKRecord {
        // CKRecordID.h: `@interface CKRecordID : NSObject <NSSecureCoding, NSCopying>`,
        // `NS_SWIFT_NAME(CKRecord.ID)`.
        /// A record's identity: its name and its zone.
        public class ID: NSObject, NSSecureCoding, @unchecked Sendable {
            // CKRecordID.h: `@property (readonly, copy) NSString *recordName`.
            /// The record's name.
            public let recordName: String

            // CKRecordID.h: `@property (readonly, copy) CKRecordZoneID *zoneID`.
            /// The record's zone.
            public let zoneID: CKRecordZone.ID

            // swiftinterface: `convenience public init(recordName: Swift.String = UUID().uuidString,
            // zoneID: CloudKit.CKRecordZone.ID = CKRecordZone.ID.default)`. CloudKit raises an exception for an
            // empty name; the shim does not, so the bridge must check first.
            /// Creates a record identity.
            public init(recordName: String = UUID().uuidString, zoneID: CKRecordZone.ID = CKRecordZone.ID.default) {
                self.recordName = recordName
                self.zoneID = zoneID
            }

            // NSSecureCoding (CKRecordID.h).
            /// Whether the class decodes securely: it does.
            public static var supportsSecureCoding: Bool { true }

            // NSCoding: `required init?(coder: NSCoder)`.
            /// Reads a record identity from an archive.
            public required init?(coder: NSCoder) {
                guard let recordName = CKRecord.decodeString(coder, "recordName"),
                    let zoneName = CKRecord.decodeString(coder, "zoneName"),
                    let ownerName = CKRecord.decodeString(coder, "ownerName")
                else { return nil }
                self.recordName = recordName
                self.zoneID = CKRecordZone.ID(zoneName: zoneName, ownerName: ownerName)
            }

            // NSCoding: `func encode(with coder: NSCoder)`.
            /// Writes the record identity to an archive.
            public func encode(with coder: NSCoder) {
                // The names, not the zone's object: Foundation's archiver on Linux cannot name a nested class.
                for (key, name) in [
                    ("recordName", recordName), ("zoneName", zoneID.zoneName), ("ownerName", zoneID.ownerName),
                ] {
                    let object = NSString(string: name)
                    coder.encode(object, forKey: key)
                }
            }

            /// Whether `object` is a record identity with the same name and zone.
            public override func isEqual(_ object: Any?) -> Bool {
                guard let other = object as? ID else { return false }
                return recordName == other.recordName && zoneID == other.zoneID
            }

            /// A hash of the name and zone.
            public override var hash: Int { recordName.hashValue ^ zoneID.hash }
        }
    }
#endif

#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    // CKRecordZone.h: `@interface CKRecordZone : NSObject <NSSecureCoding, NSCopying>`. The shim declares the
    // class only as the namespace of `CKRecordZone.ID`, which is all the bridge uses of it.
    /// A record zone; here only the namespace of its identifier.
    public class CKRecordZone: NSObject {
        private override init() {}
    }

    // CKRecordID.h: `CK_EXTERN NSString * const CKCurrentUserDefaultName`, imported as
    // `public let CKCurrentUserDefaultName: String`; its value is `"__defaultOwner__"`.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The owner name that stands for the current user.
    public let CKCurrentUserDefaultName: String = "__defaultOwner__"

    extension CKRecordZone {
        // CKRecordZoneID.h: `@interface CKRecordZoneID : NSObject <NSSecureCoding, NSCopying>`,
        // `NS_SWIFT_NAME(CKRecordZone.ID)`.
        /// A zone's identity: its name and its owner.
        public class ID: NSObject, NSSecureCoding, @unchecked Sendable {
            // swiftinterface: `public static let defaultZoneName: Swift.String` (`"_defaultZone"`).
            /// The name of the default zone.
            public static let defaultZoneName: String = "_defaultZone"

            // swiftinterface: `public static let `default`: CloudKit.CKRecordZone.ID`.
            /// The current user's default zone.
            public static let `default` = ID(zoneName: defaultZoneName, ownerName: CKCurrentUserDefaultName)

            // CKRecordZoneID.h: `@property (readonly, copy) NSString *zoneName`.
            /// The zone's name.
            public let zoneName: String

            // CKRecordZoneID.h: `@property (readonly, copy) NSString *ownerName`.
            /// The record name of the zone's owner.
            public let ownerName: String

            // swiftinterface: `convenience public init(zoneName: Swift.String = CKRecordZone.ID.defaultZoneName,
            // ownerName: Swift.String = CKCurrentUserDefaultName)`. The shim's is designated: it has no other.
            /// Creates a zone identity.
            public init(
                zoneName: String = CKRecordZone.ID.defaultZoneName, ownerName: String = CKCurrentUserDefaultName
            ) {
                self.zoneName = zoneName
                self.ownerName = ownerName
            }

            // NSSecureCoding (CKRecordZoneID.h).
            /// Whether the class decodes securely: it does.
            public static var supportsSecureCoding: Bool { true }

            // NSCoding: `required init?(coder: NSCoder)`.
            /// Reads a zone identity from an archive.
            public required init?(coder: NSCoder) {
                guard let zoneName = CKRecord.decodeString(coder, "zoneName"),
                    let ownerName = CKRecord.decodeString(coder, "ownerName")
                else { return nil }
                self.zoneName = zoneName
                self.ownerName = ownerName
            }

            // NSCoding: `func encode(with coder: NSCoder)`.
            /// Writes the zone identity to an archive.
            public func encode(with coder: NSCoder) {
                let zone = NSString(string: zoneName)
                let owner = NSString(string: ownerName)
                coder.encode(zone, forKey: "zoneName")
                coder.encode(owner, forKey: "ownerName")
            }

            // Identifiers compare by value (CKRecordZoneID.h inherits NSObject's `isEqual:`, which CloudKit
            // overrides to compare the names).
            /// Whether `object` is a zone identity with the same names.
            public override func isEqual(_ object: Any?) -> Bool {
                guard let other = object as? ID else { return false }
                return zoneName == other.zoneName && ownerName == other.ownerName
            }

            /// A hash of the names.
            public override var hash: Int { zoneName.hashValue ^ ownerName.hashValue }
        }
    }
#endif

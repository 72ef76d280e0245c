#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    extension CKRecord {
        // CKReference.h: `typedef NS_ENUM(NSUInteger, CKReferenceAction) { CKReferenceActionNone = 0,
        // CKReferenceActionDeleteSelf = 1 }`, `NS_SWIFT_NAME(CKRecord.ReferenceAction)`. Swift imports it as a
        // non-frozen enum: the bridge compares with `==` and never switches over it.
        /// What the server does to a record when the record it references is deleted.
        public enum ReferenceAction: UInt, Sendable {
            /// Nothing.
            case none = 0
            /// The referencing record is deleted too.
            case deleteSelf = 1
        }

        // CKReference.h: `@interface CKReference : NSObject <NSSecureCoding, NSCopying>`,
        // `NS_SWIFT_NAME(CKRecord.Reference)`.
        /// A link from a record to another.
        public class Reference: NSObject, NSSecureCoding, __CKRecordObjCValue {
            // CKReference.h: `@property (readonly, copy) CKRecordID *recordID`.
            /// The identity of the referenced record.
            public let recordID: CKRecord.ID

            // CKReference.h: `@property (readonly, assign) CKReferenceAction referenceAction`, imported as
            // `action` (swiftinterface: `public var action: CKRecord.ReferenceAction { get }`).
            /// What the server does when the referenced record is deleted.
            public let action: CKRecord.ReferenceAction

            // CKReference.h: `- (instancetype)initWithRecordID:(CKRecordID *)recordID
            // action:(CKReferenceAction)action NS_DESIGNATED_INITIALIZER`.
            /// Creates a reference.
            public init(recordID: CKRecord.ID, action: CKRecord.ReferenceAction) {
                self.recordID = recordID
                self.action = action
            }

            // NSSecureCoding (CKReference.h).
            /// Whether the class decodes securely: it does.
            public static var supportsSecureCoding: Bool { true }

            // NSCoding: `required init?(coder: NSCoder)`.
            /// Reads a reference from an archive.
            public required init?(coder: NSCoder) {
                let recordName = CKRecord.decodeString(coder, "recordName")
                let zoneName = CKRecord.decodeString(coder, "zoneName")
                let ownerName = CKRecord.decodeString(coder, "ownerName")
                let rawAction = UInt(truncatingIfNeeded: coder.decodeInt64(forKey: "action"))
                guard let recordName, let zoneName, let ownerName,
                    let action = CKRecord.ReferenceAction(rawValue: rawAction)
                else { return nil }
                let zone = CKRecordZone.ID(zoneName: zoneName, ownerName: ownerName)
                self.recordID = CKRecord.ID(recordName: recordName, zoneID: zone)
                self.action = action
            }

            // NSCoding: `func encode(with coder: NSCoder)`.
            /// Writes the reference to an archive.
            public func encode(with coder: NSCoder) {
                // The names, not the identifier's object: Foundation's archiver on Linux cannot name a nested class.
                let names = [
                    ("recordName", recordID.recordName), ("zoneName", recordID.zoneID.zoneName),
                    ("ownerName", recordID.zoneID.ownerName),
                ]
                for (key, name) in names {
                    let object = NSString(string: name)
                    coder.encode(object, forKey: key)
                }
                coder.encode(Int64(action.rawValue), forKey: "action")
            }
        }
    }
#endif

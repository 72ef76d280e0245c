#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    // CKRecord.h: `@protocol CKRecordKeyValueSetting <NSObject>`; the shim declares the four members the bridge
    // calls, with the swiftinterface's Swift names.
    /// Reads and writes a record's fields by key; `CKRecord` and its `encryptedValues` adopt it.
    public protocol CKRecordKeyValueSetting: NSObjectProtocol {
        // CKRecord.h: `- (nullable __kindof id<CKRecordValue>)objectForKey:(CKRecordFieldKey)key`.
        /// The value of a field, or `nil` when the record has none.
        func object(forKey key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)?
        // CKRecord.h: `- (void)setObject:(nullable __kindof id<CKRecordValue>)object forKey:(CKRecordFieldKey)key`.
        /// Stores a value; `nil` removes the field.
        func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: CKRecord.FieldKey)
        // CKRecord.h: `- (NSArray<CKRecordFieldKey> *)allKeys`.
        /// The keys of the fields that have a value.
        func allKeys() -> [CKRecord.FieldKey]
        // CKRecord.h: `- (NSArray<CKRecordFieldKey> *)changedKeys`.
        /// The keys set or removed since the record was made or read.
        func changedKeys() -> [CKRecord.FieldKey]
    }

    // CKRecord.h: `@interface CKRecord : NSObject <NSSecureCoding, NSCopying>`, with `- (instancetype)init
    // NS_UNAVAILABLE`. The shim leaves out NSCopying, which the bridge does not use. Sendable as the
    // swiftinterface makes it from iOS 17 (`@unchecked`): like CloudKit's, the shim's record has no lock.
    /// A record of CloudKit's: a type, an identity, system fields and key-value fields.
    public class CKRecord: NSObject, NSSecureCoding, CKRecordKeyValueSetting, @unchecked Sendable {
        // swiftinterface: `public typealias RecordType = Swift.String`.
        /// A record type's name.
        public typealias RecordType = String
        // swiftinterface: `public typealias FieldKey = Swift.String`.
        /// A field's key.
        public typealias FieldKey = String

        // CKRecord.h: `@property (readonly, copy) CKRecordType recordType`.
        /// The record's type.
        public let recordType: CKRecord.RecordType
        // CKRecord.h: `@property (readonly, copy) CKRecordID *recordID`.
        /// The record's identity.
        public let recordID: CKRecord.ID
        // CKRecord.h: `@property (nullable, readonly, copy) NSString *recordChangeTag`.
        /// The server's tag for the version of the record, or `nil` before its first save.
        public internal(set) var recordChangeTag: String?
        // CKRecord.h: `@property (nullable, readonly, copy) CKRecordID *creatorUserRecordID`.
        /// The user record of the record's creator.
        public internal(set) var creatorUserRecordID: CKRecord.ID?
        // CKRecord.h: `@property (nullable, readonly, copy) NSDate *creationDate`.
        /// When the server first saved the record.
        public internal(set) var creationDate: Date?
        // CKRecord.h: `@property (nullable, readonly, copy) CKRecordID *lastModifiedUserRecordID`.
        /// The user record of the record's last modifier.
        public internal(set) var lastModifiedUserRecordID: CKRecord.ID?
        // CKRecord.h: `@property (nullable, readonly, copy) NSDate *modificationDate`.
        /// When the server last saved the record.
        public internal(set) var modificationDate: Date?
        // CKRecord.h: `@property (nullable, readonly, copy) CKReference *share`.
        /// The share the record belongs to, when it is the root of a shared hierarchy.
        public internal(set) var share: CKRecord.Reference?
        // CKRecord.h: `@property (nullable, copy) CKReference *parent`. CloudKit raises an exception for a
        // parent whose action is not `.none`; the shim does not, so the bridge must check first.
        /// The record's parent in a shared hierarchy.
        public var parent: CKRecord.Reference?

        let store = FieldStore()

        // CKRecord.h: `@property (readonly, strong) id<CKRecordKeyValueSetting> encryptedValues`;
        // swiftinterface: `@NSCopying public var encryptedValues: any CloudKit.CKRecordKeyValueSetting &
        // Swift.Sendable { get }`.
        /// The record's encrypted fields.
        public var encryptedValues: any CKRecordKeyValueSetting & Sendable { EncryptedValues(store: store) }

        // swiftinterface: `convenience public init(recordType: CloudKit.CKRecord.RecordType,
        // recordID: CloudKit.CKRecord.ID = CKRecord.ID())`. The shim's is designated.
        /// Creates a record with no fields.
        public init(recordType: CKRecord.RecordType, recordID: CKRecord.ID = CKRecord.ID()) {
            self.recordType = recordType
            self.recordID = recordID
        }

        // NSSecureCoding (CKRecord.h).
        /// Whether the class decodes securely: it does.
        public static var supportsSecureCoding: Bool { true }

        // NSCoding: `required init?(coder: NSCoder)`. Reads what `encodeSystemFields(with:)` wrote; the record
        // then has no fields and no changed keys.
        /// Reads a record's system fields from an archive.
        public required init?(coder: NSCoder) {
            guard let recordType = Self.decodeString(coder, "recordType"),
                let recordID = Self.decodeID(coder, "recordID")
            else { return nil }
            self.recordType = recordType
            self.recordID = recordID
            recordChangeTag = Self.decodeString(coder, "recordChangeTag")
            creatorUserRecordID = Self.decodeID(coder, "creatorUserRecordID")
            creationDate = Self.decodeDate(coder, "creationDate")
            lastModifiedUserRecordID = Self.decodeID(coder, "lastModifiedUserRecordID")
            modificationDate = Self.decodeDate(coder, "modificationDate")
        }

        // NSCoding: `func encode(with coder: NSCoder)`. The shim writes the system fields only: the bridge never
        // archives a whole record.
        /// Writes the record's system fields to an archive.
        public func encode(with coder: NSCoder) {
            encodeSystemFields(with: coder)
        }

        // CKRecord.h: `- (void)encodeSystemFieldsWithCoder:(NSCoder *)coder`.
        /// Writes the record's type, identity, change tag, dates and users — never its fields.
        public func encodeSystemFields(with coder: NSCoder) {
            let type = NSString(string: recordType)
            coder.encode(type, forKey: "recordType")
            Self.encodeID(recordID, coder, "recordID")
            if let recordChangeTag {
                let tag = NSString(string: recordChangeTag)
                coder.encode(tag, forKey: "recordChangeTag")
            }
            Self.encodeID(creatorUserRecordID, coder, "creatorUserRecordID")
            Self.encodeDate(creationDate, coder, "creationDate")
            Self.encodeID(lastModifiedUserRecordID, coder, "lastModifiedUserRecordID")
            Self.encodeDate(modificationDate, coder, "modificationDate")
        }

        // Foundation's keyed archiver on Linux names an object's class with NSStringFromClass, which refuses a
        // nested class such as `CKRecord.ID`: the shim's archive holds an identifier as its three names.
        private static func encodeID(_ id: CKRecord.ID?, _ coder: NSCoder, _ key: String) {
            guard let id else { return }
            let names: [(String, String)] = [
                ("recordName", id.recordName), ("zoneName", id.zoneID.zoneName), ("ownerName", id.zoneID.ownerName),
            ]
            for (part, name) in names {
                let object = NSString(string: name)
                coder.encode(object, forKey: key + "." + part)
            }
        }

        private static func decodeID(_ coder: NSCoder, _ key: String) -> CKRecord.ID? {
            guard let name = decodeString(coder, key + ".recordName"),
                let zoneName = decodeString(coder, key + ".zoneName"),
                let ownerName = decodeString(coder, key + ".ownerName")
            else { return nil }
            return CKRecord.ID(recordName: name, zoneID: CKRecordZone.ID(zoneName: zoneName, ownerName: ownerName))
        }

        private static func encodeDate(_ date: Date?, _ coder: NSCoder, _ key: String) {
            guard let date else { return }
            let object = NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
            coder.encode(object, forKey: key)
        }

        // Foundation's unarchiver on Linux, requiring secure coding, stops the process when asked for a key it
        // does not hold: each read asks first.
        static func decodeString(_ coder: NSCoder, _ key: String) -> String? {
            guard coder.containsValue(forKey: key) else { return nil }
            let string: NSString? = coder.decodeObject(of: NSString.self, forKey: key)
            return string as String?
        }

        private static func decodeDate(_ coder: NSCoder, _ key: String) -> Date? {
            guard coder.containsValue(forKey: key) else { return nil }
            let date: NSDate? = coder.decodeObject(of: NSDate.self, forKey: key)
            return date.map { Date(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) }
        }

        // CKRecord.h: `- (nullable __kindof id<CKRecordValue>)objectForKey:(CKRecordFieldKey)key`.
        /// The value of a plain field, or `nil`.
        public func object(forKey key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)? {
            store.plain[key]
        }

        // CKRecord.h: `- (void)setObject:(nullable __kindof id<CKRecordValue>)object forKey:(CKRecordFieldKey)key`.
        // CloudKit raises an exception for an invalid or reserved key; the shim does not.
        /// Stores a plain value and marks the key changed; `nil` removes the field.
        public func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: CKRecord.FieldKey) {
            store.plain[key] = object
            store.markChanged(key)
        }

        // CKRecord.h: `- (NSArray<CKRecordFieldKey> *)allKeys`. Encrypted keys are left out (an assumption the
        // Apple-only test checks).
        /// The keys of the plain fields that have a value.
        public func allKeys() -> [CKRecord.FieldKey] {
            store.plain.keys.sorted()
        }

        // CKRecord.h: `- (NSArray<CKRecordFieldKey> *)changedKeys`. Encrypted keys set or removed are included
        // (an assumption the Apple-only test checks).
        /// The keys set or removed since the record was made or read from an archive.
        public func changedKeys() -> [CKRecord.FieldKey] {
            store.changed
        }
    }

    /// The fields of one record, shared by the record and its encrypted view.
    final class FieldStore: @unchecked Sendable {
        var plain: [String: any __CKRecordObjCValue] = [:]
        var encrypted: [String: any __CKRecordObjCValue] = [:]
        var changed: [String] = []
        var encryptedChanged: [String] = []

        func markChanged(_ key: String, encrypted: Bool = false) {
            if !changed.contains(key) { changed.append(key) }
            if encrypted, !encryptedChanged.contains(key) { encryptedChanged.append(key) }
        }
    }

    /// What `encryptedValues` returns: the record's encrypted fields.
    final class EncryptedValues: NSObject, CKRecordKeyValueSetting, @unchecked Sendable {
        private let store: FieldStore

        init(store: FieldStore) {
            self.store = store
        }

        func object(forKey key: CKRecord.FieldKey) -> (any __CKRecordObjCValue)? {
            store.encrypted[key]
        }

        func setObject(_ object: (any __CKRecordObjCValue)?, forKey key: CKRecord.FieldKey) {
            store.encrypted[key] = object
            store.markChanged(key, encrypted: true)
        }

        func allKeys() -> [CKRecord.FieldKey] {
            store.encrypted.keys.sorted()
        }

        func changedKeys() -> [CKRecord.FieldKey] {
            store.encryptedChanged
        }
    }
#endif

#if canImport(CloudKit)
    import CloudKit
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    extension Record {
        /// Reads a record from CloudKit's own `CKRecord`.
        ///
        /// Use it on what CloudKit hands you — a fetched record, a saved one, one from `CKSyncEngine` — and
        /// decode the record into a model with `RecordDecoder`:
        ///
        /// ```swift
        /// let record = try Record(ckRecord)
        /// let note = try RecordDecoder().decode(Note.self, from: record)
        /// ```
        ///
        /// The record keeps the `CKRecord`'s type, name and fields, by these rules:
        ///
        /// - Plain fields (`allKeys()`) and encrypted ones (`encryptedValues.allKeys()`) become `fields`;
        ///   the encrypted ones are named in `encryptedFields`.
        /// - A key the `CKRecord` has changed but holds no value for (`changedKeys()`) — a field set to `nil`
        ///   — is named in `clearedFields`, so that the record clears it on the server too.
        /// - Values: `NSString` is `.string`, `NSData` `.bytes`, `NSDate` `.date`; an `NSNumber` is `.double`
        ///   when it holds a `float` or `double`, otherwise `.int64` (a Boolean is `0` or `1`); `CKAsset` is
        ///   `.asset` with its local file, `CKRecord.Reference` `.reference`, `CLLocation` `.location` (with
        ///   Core Location's negative "invalid" and "unknown" values as `nil`), `NSArray` `.list`.
        /// - `metadata` holds the change tag, the creation and modification dates with their users' record
        ///   names, the zone (`nil` for the current user's default zone) and the share; it is `nil` for a
        ///   record the server has not saved, in the default zone. The `parent` becomes `parent`. A
        ///   reference's zone is `nil` when it is the record's own.
        ///
        /// The change tag alone cannot make a later save an update: keep ``CloudKitSystemFields`` too.
        ///
        /// - Parameter ckRecord: The record to read.
        /// - Throws: `DecodingError.dataCorrupted` at the field's path (an element's index after the field's
        ///   name) for a value a record cannot hold: an array that mixes kinds or holds an array, an unsigned
        ///   number above `Int64.max`, a reference action CloudKit added after this package, a key held both
        ///   plain and encrypted.
        public init(_ ckRecord: CKRecord) throws {
            let zone = ckRecord.recordID.zoneID
            var fields: [String: RecordValue] = [:]
            for key in ckRecord.allKeys() {
                guard let object = ckRecord.object(forKey: key) else { continue }
                fields[key] = try FieldValueReading.value(
                    of: object, holderZone: zone, at: [AnyCodingKey(stringValue: key)])
            }
            let encryptedValues = ckRecord.encryptedValues
            var encrypted: Set<String> = []
            for key in encryptedValues.allKeys() {
                guard let object = encryptedValues.object(forKey: key) else { continue }
                guard fields[key] == nil else {
                    throw BridgeError.decoding(
                        at: [AnyCodingKey(stringValue: key)],
                        "The field has both a plain and an encrypted value; a record holds one.")
                }
                fields[key] = try FieldValueReading.value(
                    of: object, holderZone: zone, at: [AnyCodingKey(stringValue: key)])
                encrypted.insert(key)
            }
            var cleared = Set(ckRecord.changedKeys().filter { fields[$0] == nil })
            for key in encryptedValues.changedKeys() where fields[key] == nil {
                cleared.insert(key)
                encrypted.insert(key)
            }

            self.init(
                recordType: ckRecord.recordType, recordName: ckRecord.recordID.recordName, fields: fields,
                metadata: try Self.metadata(of: ckRecord))
            encryptedFields = encrypted
            clearedFields = cleared
            if let parent = ckRecord.parent {
                self.parent = try ZoneConversion.recordReference(
                    parent, holderZone: zone, at: [AnyCodingKey(stringValue: "parent")])
            }
        }

        /// What the server assigned, or `nil` when it has assigned nothing and the record is in the default zone.
        private static func metadata(of ckRecord: CKRecord) throws -> RecordMetadata? {
            let zone = ckRecord.recordID.zoneID
            var metadata = RecordMetadata(
                changeTag: ckRecord.recordChangeTag,
                created: ckRecord.creationDate.map {
                    RecordMetadata.Stamp(timestamp: $0, userRecordName: ckRecord.creatorUserRecordID?.recordName)
                },
                modified: ckRecord.modificationDate.map {
                    RecordMetadata.Stamp(timestamp: $0, userRecordName: ckRecord.lastModifiedUserRecordID?.recordName)
                },
                zoneID: ZoneConversion.recordZoneID(zone, relativeTo: CKRecordZone.ID.default))
            if let share = ckRecord.share {
                metadata.share = try ZoneConversion.recordReference(
                    share, holderZone: zone, at: [AnyCodingKey(stringValue: "share")])
            }
            return metadata == RecordMetadata() ? nil : metadata
        }
    }
#endif

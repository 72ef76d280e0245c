#if canImport(CloudKit)
    import CloudKit
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    extension Record {
        /// Makes CloudKit's own `CKRecord` of this record, to save with CloudKit's framework.
        ///
        /// Without system fields the `CKRecord` is new: saving it creates the record. With the
        /// ``CloudKitSystemFields`` of the record CloudKit last returned, the `CKRecord` is rebuilt from them
        /// (`CKRecord(coder:)`), so that saving it is an update of that record, checked against its change tag:
        ///
        /// ```swift
        /// let update = try record.ckRecord(systemFields: note.systemFields)
        /// // update.changedKeys(): the record's fields and cleared fields, nothing else
        /// ```
        ///
        /// The rebuilt record starts with no fields, so `changedKeys()` lists exactly what this record writes:
        /// each of its `fields`, and each of its `clearedFields`, set to `nil` so that the save removes it.
        /// To send only what an edit changed, make the record with `RecordEncoder.encode(_:updating:)`, which
        /// keeps only the changed fields and names the cleared ones.
        ///
        /// Values follow these rules: `.string` is an `NSString`, `.int64` an `NSNumber` of `Int64`, `.double`
        /// an `NSNumber` of `Double`, `.bytes` `NSData`, `.date` `NSDate`, `.asset` a `CKAsset` of its local
        /// file, `.reference` a `CKRecord.Reference` (in this record's zone when it names none), `.location` a
        /// `CLLocation` (what it lacks written as Core Location's negative "invalid" or "unknown"), `.list` an
        /// `NSArray`. A field named in `encryptedFields` is written to `encryptedValues`. The `parent` is
        /// the `CKRecord`'s `parent`; the zone is the metadata's `zoneID`, else the default zone.
        ///
        /// Whatever CloudKit would raise an Objective-C exception for — which Swift cannot catch — is checked
        /// first and thrown instead, and so is what CloudKit's framework cannot express.
        ///
        /// - Parameter systemFields: The system fields of the record this one updates, or `nil` for a new record.
        /// - Returns: A `CKRecord` ready to save.
        /// - Throws: `EncodingError.invalidValue`, at the field's path (an element's index after the field's
        ///   name) when a field is at fault:
        ///   - a record type or name CloudKit refuses (a type is an ASCII letter then letters, digits and
        ///     underscores; a name is 1 to 255 ASCII characters, not starting with an underscore);
        ///   - a field key CloudKit refuses, or the name of a `CKRecord` property;
        ///   - an asset with no local file (CloudKit cannot carry a download URL), a reference whose action is
        ///     `validate` (CloudKit's framework has none), a list that mixes kinds or holds a list, a zone
        ///     or owner with an empty name;
        ///   - an encrypted asset or reference (CloudKit never encrypts them);
        ///   - a `parent` whose action is not `.none`;
        ///   - system fields that are not an archive of a `CKRecord`, or whose record type, name or zone differ
        ///     from this record's;
        ///   - a change tag in the metadata without system fields: the `CKRecord` would be saved as a new record
        ///     and refused as one that exists.
        public func ckRecord(systemFields: CloudKitSystemFields?) throws -> CKRecord {
            try CKRecordWriting(record: self).ckRecord(systemFields: systemFields)
        }
    }

    /// Writes a ``Record`` to a `CKRecord` in two steps: every check and conversion first, then the calls to
    /// CloudKit, which can no longer raise an exception.
    struct CKRecordWriting {
        let record: Record

        /// The `CKRecord`, rebuilt from `systemFields` when given, else from `modelSystemFields`: those the
        /// model kept in its ``CloudKitSystemFields`` property, which must be this record's too.
        func ckRecord(systemFields: CloudKitSystemFields?, modelSystemFields: CloudKitSystemFields? = nil) throws
            -> CKRecord
        {
            try checkIdentity()
            var archived = try modelSystemFields.flatMap { try archivedRecord($0) }
            if systemFields != nil || archived == nil { archived = try archivedRecord(systemFields) }
            let zone =
                try archived?.recordID.zoneID
                ?? ZoneConversion.ckZoneID(record.metadata?.zoneID, orElse: CKRecordZone.ID.default, at: [])

            var plain: [(key: String, object: any CKRecordValue)] = []
            var encrypted: [(key: String, object: any CKRecordValue)] = []
            for (key, value) in record.fields.sorted(by: { $0.key < $1.key }) {
                let path: [any CodingKey] = [AnyCodingKey(stringValue: key)]
                try check(key: key, value: value, at: path)
                let object = try FieldValueWriting.object(for: value, holderZone: zone, at: path)
                if record.encryptedFields.contains(key) {
                    guard !value.isNeverEncrypted else {
                        throw BridgeError.encoding(
                            value, at: path,
                            "CloudKit never encrypts an asset (it encrypts the file itself) or a reference (the "
                                + "server reads it): take the field out of encryptedFields.")
                    }
                    encrypted.append((key, object))
                } else {
                    plain.append((key, object))
                }
            }
            let cleared = record.clearedFields.sorted()
            for key in cleared { try check(key: key, value: key, at: [AnyCodingKey(stringValue: key)]) }
            let parent = try record.parent.map { try parentReference($0, holderZone: zone) }

            let ckRecord =
                archived
                ?? CKRecord(
                    recordType: record.recordType, recordID: CKRecord.ID(recordName: record.recordName, zoneID: zone))
            for (key, object) in plain { ckRecord.setObject(object, forKey: key) }
            if !encrypted.isEmpty || !cleared.isEmpty {
                let encryptedValues = ckRecord.encryptedValues
                for (key, object) in encrypted { encryptedValues.setObject(object, forKey: key) }
                for key in cleared {
                    if record.encryptedFields.contains(key) {
                        encryptedValues.setObject(nil, forKey: key)
                    } else {
                        ckRecord.setObject(nil, forKey: key)
                    }
                }
            }
            if let parent { ckRecord.parent = parent }
            return ckRecord
        }

        /// The record's type and name, as CloudKit takes them without an exception.
        private func checkIdentity() throws {
            if !FieldName.isValid(record.recordType) {
                throw BridgeError.encoding(
                    record.recordType, at: [],
                    "'\(record.recordType)' cannot be a CloudKit record type: a record type is an ASCII letter, then "
                        + "ASCII letters, digits and underscores, at most 255 in all.")
            }
            if let problem = RecordName.problem(with: record.recordName) {
                throw BridgeError.encoding(record.recordName, at: [], "The record's name is invalid: \(problem).")
            }
        }

        /// The record the system fields describe, checked against this one; without system fields, a check
        /// that the record is new.
        private func archivedRecord(_ systemFields: CloudKitSystemFields?) throws -> CKRecord? {
            guard let systemFields else {
                if let changeTag = record.metadata?.changeTag {
                    throw BridgeError.encoding(
                        changeTag, at: [],
                        "The record has a change tag, so the server has it, but no system fields: a CKRecord made "
                            + "without them is saved as a new record, which the server refuses. Pass the "
                            + "CloudKitSystemFields of the record CloudKit returned, or fetch it on this device.")
                }
                return nil
            }
            guard let archived = systemFields.archivedRecord() else {
                throw BridgeError.encoding(
                    systemFields, at: [], "The system fields are not an archive of a CKRecord's system fields.")
            }
            guard archived.recordType == record.recordType else {
                throw BridgeError.encoding(
                    record.recordType, at: [],
                    "The system fields are those of a '\(archived.recordType)' record, not of a "
                        + "'\(record.recordType)' record.")
            }
            guard archived.recordID.recordName == record.recordName else {
                throw BridgeError.encoding(
                    record.recordName, at: [],
                    "The system fields are those of the record named '\(archived.recordID.recordName)', not of "
                        + "'\(record.recordName)'.")
            }
            if let zone = record.metadata?.zoneID {
                let expected = try ZoneConversion.ckZoneID(zone, orElse: CKRecordZone.ID.default, at: [])
                guard ZoneConversion.same(expected, archived.recordID.zoneID) else {
                    let archivedZone = archived.recordID.zoneID
                    throw BridgeError.encoding(
                        zone, at: [],
                        "The system fields are those of a record in zone '\(archivedZone.zoneName)' (owner "
                            + "'\(archivedZone.ownerName)'), not in zone '\(zone.zoneName)'.")
                }
            }
            return archived
        }

        /// A field's key, as CloudKit takes it without an exception; `value` is the one the error names.
        private func check(key: String, value: Any, at path: [any CodingKey]) throws {
            if let problem = FieldKeyCheck.problem(with: key) {
                throw BridgeError.encoding(value, at: path, "'\(key)' cannot be a CloudKit field key: \(problem).")
            }
        }

        /// CloudKit raises an exception for a parent whose action is not `.none`.
        private func parentReference(_ parent: RecordReference, holderZone: CKRecordZone.ID) throws
            -> CKRecord.Reference
        {
            let path: [any CodingKey] = [AnyCodingKey(stringValue: "parent")]
            guard parent.action == .none else {
                throw BridgeError.encoding(
                    parent, at: path,
                    "A record's parent takes no action on deletion: its action must be .none, not "
                        + "'\(parent.action.rawValue)'.")
            }
            return try ZoneConversion.ckReference(parent, holderZone: holderZone, at: path)
        }
    }
#endif

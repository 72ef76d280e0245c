#if canImport(CloudKit)
    import CloudKit
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    extension RecordEncoder {
        /// Encodes a model as CloudKit's own `CKRecord`, ready to save with CloudKit's framework.
        ///
        /// Keep the system fields of the record CloudKit last returned in a ``CloudKitSystemFields``
        /// property of the model, and saving the model again is an update of that record:
        ///
        /// ```swift
        /// struct Note: Codable {
        ///     var id: String
        ///     var title: String
        ///     var systemFields: CloudKitSystemFields?   // no field: the record's system fields
        /// }
        ///
        /// var note = try RecordDecoder().decode(Note.self, from: fetched)   // fills systemFields
        /// note.title = "Renamed"
        /// let update = try RecordEncoder().encodeCKRecord(note)
        /// // update.recordID is fetched.recordID; saving it updates that record.
        /// ```
        ///
        /// The model becomes a `Record` by the encoder's options, as `RecordEncoder.encode(_:)` makes it,
        /// and the record a `CKRecord` by the rules of `Record.ckRecord(systemFields:)`. A
        /// `CloudKitSystemFields` property, optional or not, under any key, is never a field: with an
        /// archive, the `CKRecord` is rebuilt from it (`CKRecord(coder:)`), so it has the archived record's
        /// identity and change tag; without one (`nil`), the `CKRecord` is new, named by the model's
        /// identifier, in the encoder's `RecordEncoder.zoneID` (else the default zone).
        ///
        /// The archive holds no field values, so the rebuilt record's `changedKeys()` lists what the model
        /// writes — each field it has a value for — and nothing else: no field the model does not name is
        /// touched on the server. A property that is `nil` writes nothing, so it leaves the server's value
        /// as it is; to clear it, or to send only what an edit changed, make the record with
        /// `RecordEncoder.encode(_:updating:)` against the original and call `ckRecord(systemFields:)`.
        ///
        /// - Parameters:
        ///   - value: The model to encode.
        ///   - systemFields: System fields to rebuild the `CKRecord` from instead of the model's own, such as
        ///     the newest ones your app kept for the record after a save. They win over the model's
        ///     `CloudKitSystemFields` property, and both must be those of this record. `nil` (the default)
        ///     takes the property's.
        /// - Returns: A `CKRecord` ready to save.
        /// - Throws: `EncodingError` when the model cannot be a record (as `RecordEncoder.encode(_:)`
        ///   throws), when the record is one CloudKit would refuse or raise an exception for (as
        ///   `Record.ckRecord(systemFields:)` throws), and when system fields — the argument's or the
        ///   property's — are not an archive of a `CKRecord`, or are those of a record of another type,
        ///   name or zone than the model's.
        public func encodeCKRecord<T: Encodable>(_ value: T, systemFields: CloudKitSystemFields? = nil) throws
            -> CKRecord
        {
            let record = try encode(value)
            let own = record.systemFieldsArchive.map(CloudKitSystemFields.init(data:))
            return try CKRecordWriting(record: record).ckRecord(systemFields: systemFields, modelSystemFields: own)
        }
    }

    extension RecordDecoder {
        /// Decodes a model from CloudKit's own `CKRecord`: a fetched record, a saved one, one from
        /// `CKSyncEngine`.
        ///
        /// The `CKRecord` becomes a `Record` by the rules of `Record.init(_:)`, which the decoder then
        /// reads as `RecordDecoder.decode(_:from:)` does. A ``CloudKitSystemFields`` property of the model,
        /// optional or not, under any key, is filled with the `CKRecord`'s system fields, so that encoding
        /// the model again with `RecordEncoder.encodeCKRecord(_:systemFields:)` saves an update of this
        /// record:
        ///
        /// ```swift
        /// let note = try RecordDecoder().decode(Note.self, from: ckRecord)
        /// note.systemFields   // the archive of ckRecord's system fields
        /// ```
        ///
        /// - Parameters:
        ///   - type: The model's type.
        ///   - ckRecord: The record to read.
        /// - Returns: The model.
        /// - Throws: `DecodingError`, at the field's path: a value a `Record` cannot hold (as
        ///   `Record.init(_:)` throws), or one the model cannot read (as `RecordDecoder.decode(_:from:)`
        ///   throws).
        public func decode<T: Decodable>(_ type: T.Type, from ckRecord: CKRecord) throws -> T {
            var record = try Record(ckRecord)
            record.systemFieldsArchive = CloudKitSystemFields(ckRecord).data
            return try decode(type, from: record)
        }
    }
#endif

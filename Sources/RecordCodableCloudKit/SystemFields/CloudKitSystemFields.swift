#if canImport(CloudKit)
    import CloudKit
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation

    /// The system fields of a `CKRecord`, kept so that the next save of the record is an update of it.
    ///
    /// CloudKit saves a record as an update of the one it has only when the `CKRecord` is rebuilt from that
    /// record's system fields — its identity, type, change tag, dates and users. A `CKRecord` made fresh with
    /// the same name is a new record, which the default save policy refuses. Keep the system fields of the
    /// record CloudKit last returned, and pass them to `Record.ckRecord(systemFields:)`:
    ///
    /// ```swift
    /// let fetched: CKRecord = …                       // from a fetch, a save, or CKSyncEngine
    /// let systemFields = CloudKitSystemFields(fetched)
    /// var record = try Record(fetched)
    /// record["title"] = .string("Renamed")
    /// let update = try record.ckRecord(systemFields: systemFields)
    /// // update.changedKeys() lists the record's fields; save `update`.
    /// ```
    ///
    /// The ``data`` is the archive that `CKRecord.encodeSystemFields(with:)` writes to an
    /// `NSKeyedArchiver(requiringSecureCoding: true)`: opaque bytes, which only CloudKit reads. It holds no
    /// field values. Store it as it is — its `Codable` form is the bytes alone, which `JSONEncoder` writes as
    /// Base64 — and keep the newest: the one from the record with the latest `modificationDate`.
    public struct CloudKitSystemFields: Codable, Hashable, Sendable {
        /// The archive of the record's system fields.
        public let data: Data

        /// System fields from an archive made earlier, such as one read from storage.
        ///
        /// - Parameter data: Bytes that ``init(_:)`` made, or that `CKRecord.encodeSystemFields(with:)`
        ///   wrote to an `NSKeyedArchiver` that requires secure coding.
        public init(data: Data) {
            self.data = data
        }

        /// Archives the system fields of a record.
        ///
        /// - Parameter ckRecord: A record as CloudKit returned it, or as it was made on this device.
        public init(_ ckRecord: CKRecord) {
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            ckRecord.encodeSystemFields(with: archiver)
            archiver.finishEncoding()
            self.data = archiver.encodedData
        }

        /// Reads the archive as a single value: its bytes.
        public init(from decoder: any Decoder) throws {
            self.data = try decoder.singleValueContainer().decode(Data.self)
        }

        /// Writes the archive as a single value: its bytes.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(data)
        }

        /// The record the archive describes, with no fields and no changed keys, or `nil` when the bytes are
        /// not such an archive.
        func archivedRecord() -> CKRecord? {
            guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
            unarchiver.requiresSecureCoding = true
            defer { unarchiver.finishDecoding() }
            return CKRecord(coder: unarchiver)
        }
    }
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    // A model property of this type is no field: RecordEncoder puts its archive on the record it writes, and
    // RecordDecoder fills it from the record's archive, through RecordCodable's package hook.
    extension CloudKitSystemFields: RecordSystemFieldsArchive {
        package var recordSystemFieldsArchive: Data? { data }

        /// The archived record's name, so that a model without an identifier is named as the record it was
        /// read from.
        package var recordSystemFieldsRecordName: String? { archivedRecord()?.recordID.recordName }

        package static func holding(recordSystemFieldsArchive archive: Data?) -> CloudKitSystemFields? {
            archive.map(CloudKitSystemFields.init(data:))
        }
    }
#endif

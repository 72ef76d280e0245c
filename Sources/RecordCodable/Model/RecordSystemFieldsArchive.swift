import Foundation

/// A property type whose value is a platform's archive of its record's system fields: never a
/// field, carried beside the record's fields instead (``Record/systemFieldsArchive``).
///
/// The hook through which `RecordCodableCloudKit`'s `CloudKitSystemFields`, a type this module
/// cannot name, is kept like a `RecordMetadata` property: ``PropertyRoles`` gives such a property
/// the role ``PropertyRole/systemFieldsArchive``, so the encoder puts its archive on the record it
/// writes, and the decoder fills it from the archive of the record it reads (`nil`, or absent,
/// when the record has none). `Optional` conforms when its wrapped type does, so that an
/// optional property is told by its type too.
///
/// The coders ask a property's type only where it is cheap to: the encoder, of a value that
/// encoded itself as bytes (as the bridge's archive does) or as JSON; the decoder, of a property
/// that has no field of its name. A record that holds a field named like such a property
/// therefore decodes the property from that field.
package protocol RecordSystemFieldsArchive {
    /// The archive's bytes, or `nil` for a value that holds none.
    var recordSystemFieldsArchive: Data? { get }

    /// The name of the record the archive belongs to, or `nil` when it tells none: the name of a
    /// model's record when the model has no identifier, and no metadata that names it. Asked only
    /// then.
    var recordSystemFieldsRecordName: String? { get }

    /// The value that holds `archive`, or `nil` when the type cannot hold it (such as no archive for
    /// a type that is not optional).
    static func holding(recordSystemFieldsArchive archive: Data?) -> Self?
}

extension Optional: RecordSystemFieldsArchive where Wrapped: RecordSystemFieldsArchive {
    package var recordSystemFieldsArchive: Data? { self?.recordSystemFieldsArchive }

    package var recordSystemFieldsRecordName: String? { self?.recordSystemFieldsRecordName }

    package static func holding(recordSystemFieldsArchive archive: Data?) -> Self? {
        .some(archive.flatMap { Wrapped.holding(recordSystemFieldsArchive: $0) })
    }
}

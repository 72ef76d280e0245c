import Foundation

/// Decodes `Codable` models from records.
///
/// The decoder reverses ``RecordEncoder``: each property is read from the field of its name, the
/// identifier from the record's name, and a `RecordMetadata` property from the record's metadata.
/// It reads records written by other clients and app versions too, and reports anything it
/// cannot read as a `DecodingError` with the coding path of the value, never by trapping and
/// never with a silently different value.
///
/// ```swift
/// let post = try RecordDecoder().decode(Post.self, from: record)
/// ```
///
/// A decoder is a value: configure a copy, keep it, and use it from as many tasks at once as you
/// like.
public struct RecordDecoder: Sendable {
    /// The options, which copies of the decoder share until one of them changes one.
    private var options = Self.defaultOptions

    /// The coding key that receives the record's name, or `nil` to read every key from fields.
    ///
    /// The default is `"id"`. The name is converted to the property's type: a `String` takes it
    /// as it is, a `UUID` parses it, an integer reads its decimal digits. A name that does not
    /// convert is `DecodingError.dataCorrupted`.
    public var identifierKey: String? {
        get { options.value.identifierKey }
        set { options = options.changed { $0.identifierKey = newValue } }
    }

    /// How the decoder finds the field for each coding key. The default uses the keys as they are.
    public var keyDecodingStrategy: KeyDecodingStrategy {
        get { options.value.keyDecodingStrategy }
        set { options = options.changed { $0.keyDecodingStrategy = newValue } }
    }

    /// Values that models can read from `decoder.userInfo` in their `init(from:)`, also while
    /// nested values are decoded from JSON.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { options.value.userInfo }
        set { options = options.changed { $0.userInfo = newValue } }
    }

    /// Whether a record whose ``Record/recordType`` is not the model's is refused. The default is
    /// `true`.
    ///
    /// The model's record type is its ``RecordRepresentable/recordType``, else its type's name
    /// without module or generic arguments, as ``RecordEncoder`` names it; the type is the one
    /// passed at run time, so a subclass passed through its superclass's type is checked against
    /// the subclass's name. A record of another type is `DecodingError.typeMismatch`, whose
    /// message names both types. A record without a type (an answer that leaves it out) is not
    /// checked. Turn the check off for a model that reads records of several types:
    ///
    /// ```swift
    /// var decoder = RecordDecoder()
    /// decoder.checksRecordType = false
    /// let common = try decoder.decode(PhotoCommon.self, from: assetOrMaster)
    /// ```
    public var checksRecordType: Bool {
        get { options.value.checksRecordType }
        set { options = options.changed { $0.checksRecordType = newValue } }
    }

    /// Whether a `String` property reads a bytes field that holds UTF-8 text, beside a string
    /// field. The default is `false`: a `String` reads only a string field.
    ///
    /// Some containers keep one field as text in some records and as bytes in others — Apple's
    /// Photos keeps a file's name, `filenameEnc`, as `ENCRYPTED_BYTES` of UTF-8 text in most
    /// records and as `STRING` in a few. Turned on, the property reads either; bytes that are not
    /// valid UTF-8 are `DecodingError.dataCorrupted` at the field's coding path. Only `String`
    /// values read this way (a property, an element of a list, a string-backed enum's raw value);
    /// `Data` still reads only bytes.
    public var readsStringsFromUTF8Bytes: Bool {
        get { options.value.readsStringsFromUTF8Bytes }
        set { options = options.changed { $0.readsStringsFromUTF8Bytes = newValue } }
    }

    /// The file name that a `URL` property read from a server asset downloads as: what fills the
    /// `${f}` placeholder of the asset's ``RecordAsset/downloadURL``. The default is the field's
    /// name (``AssetFileName/fieldName``).
    public var assetFileName: AssetFileName {
        get { options.value.assetFileName }
        set { options = options.changed { $0.assetFileName = newValue } }
    }

    /// Creates a decoder with the default options.
    public init() {}

    /// For a decoder that reads records back as an encoder with a custom key strategy wrote
    /// them: that strategy, which names the field of each key. (A custom decoding strategy names
    /// the key of each field instead, the other way round.)
    var fieldNaming: (@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)? {
        get { options.value.fieldNaming }
        set {
            options = options.changed { options in
                options.fieldNaming = newValue
                // The engine looks fields up through `fieldNaming` on its custom route.
                options.keyDecodingStrategy = .custom { $0.last ?? AnyCodingKey(stringValue: "") }
            }
        }
    }

    /// Decodes a model from a record.
    ///
    /// - Parameters:
    ///   - type: The model's type.
    ///   - record: The record to read. Its type must be the model's, unless
    ///     ``checksRecordType`` is `false` or the record has none.
    /// - Returns: The model.
    /// - Throws: `DecodingError`, with the coding path of the value that failed: `keyNotFound`
    ///   for a missing field, `typeMismatch` for a field of another type or a record of another
    ///   record type, `dataCorrupted` for a value out of its type's range or not valid for it.
    public func decode<T: Decodable>(_ type: T.Type, from record: Record) throws -> T {
        try checkRecordType(of: record, against: type)
        let engine = RecordDecodingEngine(record: record, options: self)
        defer { engine.finish() }
        // The type asked for, which may be a subclass of T, as `JSONDecoder` decodes it.
        return try type.init(from: engine)
    }
}

extension RecordDecoder {
    /// A decoder's options, kept shared as ``RecordEncoder`` keeps its own: each record decoded
    /// holds on to one reference rather than a copy of every option.
    struct Options: Sendable {
        var identifierKey: String? = "id"
        var keyDecodingStrategy = KeyDecodingStrategy.useDefaultKeys
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        var fieldNaming: (@Sendable ([any CodingKey]) -> any CodingKey)?
        var checksRecordType = true
        var readsStringsFromUTF8Bytes = false
        var assetFileName = AssetFileName.fieldName
    }

    /// Refuses a record whose type is not the record type of `type`, the model's type at run
    /// time, when ``checksRecordType`` is on and the record has a type.
    func checkRecordType<T>(of record: Record, against type: T.Type) throws {
        guard options.value.checksRecordType, !record.recordType.isEmpty else { return }
        let expected = ModelTypes.info(of: type).recordType
        guard record.recordType != expected else { return }
        throw Self.recordTypeMismatch(record, expected: expected, type: type)
    }

    @inline(never)
    private static func recordTypeMismatch(_ record: Record, expected: String, type: Any.Type) -> DecodingError {
        let name = record.recordName.isEmpty ? "A record" : "Record '\(record.recordName)'"
        return .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: [],
                debugDescription: "Expected a record of type '\(expected)' for \(type) but found \(name) of type "
                    + "'\(record.recordType)' instead. Set checksRecordType to false to read records of other types."))
    }

    /// The options of a new decoder, shared by every decoder that changes none of them.
    static let defaultOptions = Shared(Options())
}

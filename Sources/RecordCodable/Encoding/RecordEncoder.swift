import Foundation

/// Encodes `Codable` models as flat, typed records.
///
/// Each stored property of the model becomes one field of the record, in the field type that
/// fits it best: text as ``RecordValue/string(_:)``, integers and `Bool` as
/// ``RecordValue/int64(_:)``, dates as ``RecordValue/date(_:)``, arrays of these as
/// ``RecordValue/list(_:)``, and any value without a native form — a nested struct, a dictionary —
/// as ``RecordValue/bytes(_:)`` holding its JSON. The model's identifier becomes the record's
/// name.
///
/// ```swift
/// struct Post: Codable {
///     var id: UUID
///     var title: String
///     var tags: [String]
///     var publishedAt: Date?
/// }
///
/// let record = try RecordEncoder().encode(post)
/// record.recordType        // "Post"
/// record.recordName        // post.id.uuidString
/// record["tags"]           // .list([.string("swift"), .string("cloudkit")])
/// record["publishedAt"]    // nil when the property is nil: no field
/// ```
///
/// An encoder is a value: configure a copy, keep it, and use it from as many tasks at once as
/// you like.
public struct RecordEncoder: Sendable {
    /// The options, which copies of the encoder share until one of them changes one.
    private var options = Self.defaultOptions

    /// The largest ``Record/encodedSize`` a record may have, in bytes.
    ///
    /// The default, 1,000,000, is CloudKit's limit. A record over the limit throws
    /// ``RecordEncodingError/recordTooLarge(size:limit:heaviestFields:)`` before it reaches the
    /// server, which would refuse it.
    public var maximumRecordSize: Int {
        get { options.value.maximumRecordSize }
        set { options = options.changed { $0.maximumRecordSize = newValue } }
    }

    /// The coding key whose value becomes the record's name, or `nil` to name every record with a
    /// new UUID.
    ///
    /// The default is `"id"`. The identifier may be a `String`, a `UUID` (its `uuidString`) or an
    /// integer (its decimal text), or any type that encodes as one of them. It is compared with
    /// the Swift-side key, before any key strategy, and it is not stored as a field.
    ///
    /// A model without such a key gets a new UUID as its name each time it is encoded. To update
    /// the same record later, keep the name: give the model an identifier, or keep the encoded
    /// record. A key other than `"id"` set here by hand that the model never encodes is an error,
    /// so that a typo (`"ID"` for `id`) does not name every record anew; setting `"id"` is the
    /// same as the default. An optional identifier that is `nil` names no record: the record's
    /// name is empty, and the server names it when it is saved.
    public var identifierKey: String? {
        get { options.value.identifierKey }
        set {
            options = options.changed {
                $0.identifierKey = newValue
                $0.identifierKeyIsExplicit = newValue != Options.defaultIdentifierKey
            }
        }
    }

    /// Whether `other` has the very options of this encoder, as copies of an encoder do until one
    /// of them changes an option.
    func sharesOptions(with other: RecordEncoder) -> Bool {
        options === other.options
    }

    /// Whether ``identifierKey`` was set by hand.
    var identifierKeyIsExplicit: Bool { options.value.identifierKeyIsExplicit }

    /// Whether a model without an identifier gets a new UUID as its record's name, as it does by
    /// default, or an empty name: for a store that finds records by name, which such a name would
    /// lose, and refuses a record without one.
    package var namesUnidentifiedModels: Bool {
        get { options.value.namesUnidentifiedModels }
        set { options = options.changed { $0.namesUnidentifiedModels = newValue } }
    }

    /// Whether the identifier is also stored as a field, under its key, beside naming the record.
    ///
    /// The default is `false`: the record's name holds the identifier. Turn it on to keep a field
    /// that queries can filter on, as records written by CloudKitCodable have. The decoder reads
    /// the identifier from the record's name either way.
    public var storesIdentifierAsField: Bool {
        get { options.value.storesIdentifierAsField }
        set { options = options.changed { $0.storesIdentifierAsField = newValue } }
    }

    /// The coding keys whose fields CloudKit keeps encrypted, as ``Encrypted`` marks a property.
    ///
    /// For models whose source cannot change, such as types from another module: each key named
    /// here that a model writes as a field has its field named in ``Record/encryptedFields``. Keys
    /// are compared with the Swift-side key, before the key strategy, as ``identifierKey`` is; a
    /// custom strategy is asked for the field name of a key of that name. The set applies to every
    /// model this encoder writes, linked models included: use one encoder per model type when
    /// types share a key name that only one of them encrypts.
    ///
    /// ```swift
    /// var encoder = RecordEncoder()
    /// encoder.encryptedKeys = ["pin", "note"]
    /// let record = try encoder.encode(account)    // record.encryptedFields == ["pin", "note"]
    /// ```
    ///
    /// The default is empty. As with ``Encrypted``, a key whose field is an asset or a reference
    /// is `EncodingError.invalidValue`, and so is the identifier, which names the record rather
    /// than being a field, unless ``storesIdentifierAsField`` keeps it as one.
    public var encryptedKeys: Set<String> {
        get { options.value.encryptedKeys }
        set { options = options.changed { $0.encryptedKeys = newValue } }
    }

    /// Whether the encoder's speed machinery is on: an engine kept from one record to the next of
    /// its type (``SpareEngines``), and each record started from the layout learned from the type's
    /// last ones (``FieldLayout``), whose expected keys are written without asking their role.
    /// Both sit beneath the rules of what a property becomes (``PropertyRoles``), as a cache: off,
    /// every record is encoded by those rules alone, key by key, into the same record or the same
    /// error. On by default; internal, for the tests that check so.
    var usesEncodingCaches: Bool {
        get { options.value.usesEncodingCaches }
        set { options = options.changed { $0.usesEncodingCaches = newValue } }
    }

    /// Whether ``encryptedKeys`` names any key, asked once per record.
    var hasEncryptedKeys: Bool { !options.value.encryptedKeys.isEmpty }

    /// Whether every record needs more than its name and fields: encrypted keys to name, or a
    /// zone to put it in. Read once a record, so kept with the options rather than worked out.
    var finishesWithMore: Bool { options.value.finishesWithMore }

    /// How coding keys become field names. The default uses the keys as they are.
    public var keyEncodingStrategy: KeyEncodingStrategy {
        get { options.value.keyEncodingStrategy }
        set { options = options.changed { $0.keyEncodingStrategy = newValue } }
    }

    /// The folder where values of ``RecordAssetValue`` types are written as files.
    ///
    /// The default is a folder named `RecordCodableAssets` in the temporary directory. The folder
    /// is created when the first asset is written. Each file is named by the SHA-256 digest of its
    /// content, so encoding the same value again writes no new file.
    public var assetDirectory: URL {
        get { options.value.assetDirectory }
        set { options = options.changed { $0.assetDirectory = newValue } }
    }

    /// The zone of the records: every reference to a linked model carries it, and
    /// ``RecordsModifyRequest``'s model initialisers send their records to it when given no
    /// zone. `nil` for the zone of the record that holds the reference, and for the zone the
    /// records came from.
    public var zoneID: RecordZoneID? {
        get { options.value.zoneID }
        set { options = options.changed { $0.zoneID = newValue } }
    }

    /// Values that models can read from `encoder.userInfo` in their `encode(to:)`, also while
    /// nested values are encoded as JSON.
    public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { options.value.userInfo }
        set { options = options.changed { $0.userInfo = newValue } }
    }

    /// Creates an encoder with the default options.
    public init() {}

    /// Encodes a model as a record.
    ///
    /// - Parameter value: The model. Its `encode(to:)` must use a keyed container, as a struct's
    ///   or class's synthesized conformance does: a record holds named fields.
    /// - Returns: The record, whose type is the model's ``RecordRepresentable/recordType`` or type
    ///   name and whose name is the model's identifier.
    /// - Throws: `EncodingError.invalidValue`, with the coding path of the value, when a value
    ///   cannot be stored: an unsigned integer over `Int64.max`, a field name the record format
    ///   does not allow, a top-level value that is not keyed, an asset file that cannot be
    ///   written, an ``identifierKey`` set by hand that the model does not encode. ``RecordEncodingError/recordTooLarge(size:limit:heaviestFields:)`` when the
    ///   record is larger than ``maximumRecordSize``.
    public func encode<T: Encodable>(_ value: T) throws -> Record {
        try Self.rejectRecord(value)
        return try encodeRecord(value, graph: nil, fallbackName: nil)
    }

    /// Refuses a ``Record`` given as a model: encoded as one, its dictionary would make a record
    /// of a record, with fields named `recordName` and `fields`.
    static func rejectRecord<T>(_ value: T) throws {
        guard T.self == Record.self || KnownTypes.isOptionalRecord(T.self) else { return }
        throw EncodingError.invalid(
            value, at: [] as [any CodingKey],
            "A Record is a record already, not a model to encode: save it as it is "
                + "(RecordsModifyRequest(savingRecords:), RecordOperation(saving:)), or compare records "
                + "with Record.update(to:).")
    }
}

extension RecordEncoder {
    /// An encoder's options. The encoder keeps them shared (see `Shared`): every record it
    /// encodes holds on to them, and one reference costs less than a copy of six values.
    struct Options: Sendable {
        var maximumRecordSize = 1_000_000
        /// The identifier key of a new encoder.
        static let defaultIdentifierKey = "id"
        var identifierKey: String? = defaultIdentifierKey
        /// Whether `identifierKey` was set by hand to another key than the default: a key the
        /// model never writes is then an error.
        var identifierKeyIsExplicit = false
        var namesUnidentifiedModels = true
        var storesIdentifierAsField = false
        var encryptedKeys: Set<String> = [] {
            didSet { finishesWithMore = zoneID != nil || !encryptedKeys.isEmpty }
        }
        /// Whether `zoneID` or `encryptedKeys` is set (see ``RecordEncoder/finishesWithMore``).
        private(set) var finishesWithMore = false
        var keyEncodingStrategy = KeyEncodingStrategy.useDefaultKeys
        var assetDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("RecordCodableAssets", isDirectory: true)
        var zoneID: RecordZoneID? {
            didSet { finishesWithMore = zoneID != nil || !encryptedKeys.isEmpty }
        }
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]
        var usesEncodingCaches = true
    }

    /// The options of a new encoder, shared by every encoder that changes none of them.
    static let defaultOptions = Shared(Options())
}

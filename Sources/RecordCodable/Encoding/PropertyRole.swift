/// What a property of a model becomes in its record.
///
/// ``PropertyRoles`` alone decides it, from the property's key and type and the encoder's options;
/// the engine then switches on the answer (`store(_:size:forKey:named:canBeIdentifier:)`). What the
/// property's value becomes inside its field — a native value, a list, JSON bytes, an asset, a
/// reference — is the value's own form (see ``ValueEncoder``), not its role.
///
/// For example, with the default options, a model `Post { id, title, meta: RecordMetadata? }`
/// gives `id` the role ``identifier``, `title` ``field`` and `meta` ``metadata``.
enum PropertyRole: Equatable {
    /// The record's ``Record/metadata``: a `RecordMetadata` property, optional or not, under any
    /// key.
    case metadata
    /// The archive of the record's system fields that a platform bridge keeps
    /// (``Record/systemFieldsArchive``): a ``RecordSystemFieldsArchive`` property, optional or
    /// not, under any key. Like ``metadata``, never a field.
    case systemFieldsArchive
    /// The record's name: the value under ``RecordEncoder/identifierKey``. Misuses are errors at
    /// the property: a `Bool` (0 or 1 would name a record by accident), text CloudKit refuses as a
    /// name, a value that is neither text nor an integer (see ``RecordIdentity``), and an
    /// encrypted identifier, which is no field to encrypt.
    case identifier
    /// The record's name, as ``identifier``, and also a field under its key
    /// (``RecordEncoder/storesIdentifierAsField``).
    case identifierAndField
    /// A field, named by the key strategy. A nested container asked for under the key builds the
    /// field's value (see ``NestedFieldValues``); an ``Encrypted`` property or a key in
    /// ``RecordEncoder/encryptedKeys`` makes it an encrypted field, named when the record is done.
    case field
    /// Nothing, not even encoded: only the identifier is wanted, to name a linked model's record
    /// in a reference to it, and this is another property.
    case skipped

    /// Whether the property names the record.
    var namesRecord: Bool {
        self == .identifier || self == .identifierAndField
    }
}

/// The rules that give each property its ``PropertyRole`` under one encoder's options: the one
/// place that says what a property becomes.
///
/// The encoder's speed machinery sits beneath these rules as a cache, and can be switched off with
/// the same records (``RecordEncoder/usesEncodingCaches``): an engine kept for the next record of
/// its type (see ``SpareEngines``), and the layout learned from the type's last records (see
/// ``FieldLayout``), whose keys the keyed container writes straight into their places without
/// asking their role, once ``allAreFields(in:)`` has said that every one of them is a ``PropertyRole/field``.
struct PropertyRoles {
    /// The key whose value names the record, if any (``RecordEncoder/identifierKey``).
    let identifierKey: String?
    /// Its length in bytes, compared first: most keys differ from the identifier in length.
    private let identifierKeyLength: Int
    /// Whether the identifier is also a field (``RecordEncoder/storesIdentifierAsField``).
    private let storesIdentifierAsField: Bool
    /// Whether only the identifier is wanted, every other property left out.
    private let encodesIdentifierOnly: Bool

    /// The rules of `options`; with `encodesIdentifierOnly`, every property but the identifier is
    /// ``PropertyRole/skipped``.
    init(options: RecordEncoder, encodesIdentifierOnly: Bool = false) {
        identifierKey = options.identifierKey
        identifierKeyLength = options.identifierKey?.utf8.count ?? 0
        storesIdentifierAsField = options.storesIdentifierAsField
        self.encodesIdentifierOnly = encodesIdentifierOnly
    }

    /// The role of a property of type `Value` under the key named `keyName`.
    ///
    /// The keyed container asks its parts apart, each when it needs it: ``isMetadata(_:)`` and
    /// ``skips(_:)`` before a value is encoded, ``role(ofKeyNamed:)`` when it is stored, and
    /// whether the value is a ``RecordSystemFieldsArchive`` only of a value that encoded itself as
    /// bytes or as JSON, the forms an archive has, since a conformance lookup would cost every
    /// other property more than its whole encoding.
    @inline(__always)
    func role<Value>(of _: Value.Type, keyNamed keyName: String) -> PropertyRole {
        if Self.isMetadata(Value.self) { return .metadata }
        if Self.isSystemFieldsArchive(Value.self) { return .systemFieldsArchive }
        return role(ofKeyNamed: keyName)
    }

    /// The role of a property under the key named `keyName`, whose type is not `RecordMetadata`.
    @inline(__always)
    func role(ofKeyNamed keyName: String) -> PropertyRole {
        if isIdentifier(keyName) { return storesIdentifierAsField ? .identifierAndField : .identifier }
        return encodesIdentifierOnly ? .skipped : .field
    }

    /// Whether the property under the key named `keyName` is ``PropertyRole/skipped``, as
    /// ``role(ofKeyNamed:)`` says; the flag is read first, since most engines skip nothing.
    @inline(__always)
    func skips(_ keyName: String) -> Bool {
        encodesIdentifierOnly && role(ofKeyNamed: keyName) == .skipped
    }

    /// Whether a property of type `Value` is the record's metadata.
    @inline(__always)
    static func isMetadata<Value>(_: Value.Type) -> Bool {
        Value.self == RecordMetadata.self || KnownTypes.isOptionalMetadata(Value.self)
    }

    /// Whether a property of type `Value` holds the archive of the record's system fields
    /// (``PropertyRole/systemFieldsArchive``): a type only a platform bridge conforms. A
    /// conformance lookup, so asked where it is rare: by the schema's probe, and by the coders only
    /// of a value that encoded as bytes, or of a property that has no field.
    @inline(__always)
    static func isSystemFieldsArchive<Value>(_: Value.Type) -> Bool {
        Value.self is any RecordSystemFieldsArchive.Type
    }

    /// Whether `keyName` is the identifier key.
    @inline(__always)
    private func isIdentifier(_ keyName: String) -> Bool {
        guard let identifierKey else { return false }
        return keyName.utf8.count == identifierKeyLength && keyName == identifierKey
    }

    /// Whether every key of `layout` is a ``PropertyRole/field``: only then may a record write the
    /// keys the layout expects straight into their places (a layout learned by an encoder with
    /// other options may hold this one's identifier as a field).
    func allAreFields(in layout: FieldLayout) -> Bool {
        layout.fields.allSatisfy { role(ofKeyNamed: $0.keyName) == .field }
    }
}

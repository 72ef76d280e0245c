import Foundation

extension RecordSchema.RecordType {
    /// The record type that ``RecordEncoder`` writes for a model type, found from the type alone.
    ///
    /// Each property the model decodes becomes a field, typed as the encoder stores it (see
    /// <doc:TypeMapping>): `String` is `STRING`, integers and `Bool` are `INT64`, a raw-value enum
    /// its raw value's type, `[String]` is `LIST<STRING>`, a nested struct or a dictionary is
    /// `BYTES` (its JSON), a ``LinkedRecord`` is `REFERENCE`, a ``RecordAssetValue`` is `ASSET`,
    /// and an ``Encrypted`` property, or one whose key is in the encoder's
    /// ``RecordEncoder/encryptedKeys``, is encrypted. The identifier names the record and is no
    /// field; a `RecordMetadata` property is no field either. CloudKit's six system fields
    /// (``RecordSchema/SystemField``) are listed too, as exports list them, with the indexes given
    /// for them in `indexes`.
    ///
    /// ```swift
    /// let note = try RecordSchema.RecordType(
    ///     Note.self,
    ///     fileURLKeys: ["attachment"],
    ///     indexes: ["title": [.queryable, .searchable], "___createTime": [.sortable]],
    ///     grants: RecordSchema.Grant.publicDatabase)
    /// ```
    ///
    /// No model value is needed: the type decodes itself from a probe that notes each key and type
    /// it asks for, and hands it placeholder values (`nil` for optionals, empty collections, `0`,
    /// `"0"`, a `CaseIterable` enum's first case) to go on with. What the type alone cannot say:
    ///
    /// - Whether a `URL` is a file, stored as an asset, or an address, stored as text: it is
    ///   `STRING` unless its key is in `fileURLKeys`.
    /// - How a type with a hand-written `init(from:)` stores values other than the first it asks
    ///   for, or keys that it reads only for some data: the probe sees one path through it.
    /// - A plain raw-value enum's cases, when it is not `CaseIterable`: such a property fails with
    ///   an error that says so (a ``RecordEnum`` takes any placeholder).
    /// - Keys that `encode(to:)` writes without `init(from:)` reading them: a `let` with a default
    ///   value (`let schemaVersion = 2`), which the synthesized `init(from:)` skips, or a field
    ///   that a hand-written `encode(to:)` adds. The probe runs no `encode(to:)`, which could do
    ///   anything with placeholder values: add such fields to ``fields`` yourself.
    ///
    /// When these do not fit, build the record type by hand with ``init(name:fields:grants:)``.
    ///
    /// - Parameters:
    ///   - model: The model type.
    ///   - encoder: The encoder that stores the models: its ``RecordEncoder/identifierKey``,
    ///     ``RecordEncoder/storesIdentifierAsField``, ``RecordEncoder/keyEncodingStrategy`` and
    ///     ``RecordEncoder/encryptedKeys`` shape the fields.
    ///   - fileURLKeys: The keys of the `URL` properties (or lists of them) that hold files, stored
    ///     as assets.
    ///   - indexes: The indexes of each field, by the key of its property (the Swift-side key,
    ///     before the key strategy, as ``RecordEncoder/identifierKey`` is), or by the name of a
    ///     system field (see ``RecordSchema/SystemField``).
    ///   - grants: Who may read, create and write the records.
    /// - Throws: `DecodingError.dataCorrupted` at a property's path when the probe cannot describe
    ///   it or build a placeholder of it, and any error the model's `init(from:)` throws on the
    ///   placeholders; `EncodingError.invalidValue` at a key's path for a key that makes no valid
    ///   field name, two keys stored in one field (by the key strategy), an encrypted asset or
    ///   reference, an index on an encrypted field, or a key in `fileURLKeys` or `indexes` that
    ///   names no `URL` property, or no property, of the model.
    public init<Model: Decodable>(
        _ model: Model.Type,
        encoder: RecordEncoder = RecordEncoder(),
        fileURLKeys: Set<String> = [],
        indexes: [String: RecordSchema.Indexes] = [:],
        grants: [RecordSchema.Grant] = []
    ) throws {
        let probe = ModelProbe(encoder: encoder)
        try probe.probe(model)
        if let identifier = probe.identifier,
            identifier.isEncrypted || encoder.encryptedKeys.contains(identifier.key.stringValue)
        {
            let keyName = identifier.key.stringValue
            throw EncodingError.encryptedIdentifier(keyName, value: keyName, at: [identifier.key])
        }
        var fields: [RecordSchema.Field] = []
        var keysByField: [String: String] = [:]
        for probed in probe.fields {
            let keyName = probed.key.stringValue
            let name = try encoder.keyEncodingStrategy.fieldName(for: keyName, probed.key)
            if let other = keysByField[name] {
                // The same key read twice describes one field; two keys would overwrite each other.
                guard other == keyName else {
                    throw EncodingError.invalid(
                        keyName, at: [probed.key],
                        "\(model)'s properties '\(other)' and '\(keyName)' are both stored in field '\(name)': "
                            + "rename one, or give it another coding key.")
                }
                continue
            }
            keysByField[name] = keyName
            let field = RecordSchema.Field(
                name: name,
                type: probed.shape.fieldType(holdsFiles: fileURLKeys.contains(keyName)),
                isEncrypted: probed.isEncrypted || encoder.encryptedKeys.contains(keyName),
                indexes: indexes[keyName] ?? [])
            try Self.check(field, of: model, at: probed.key)
            if fileURLKeys.contains(keyName), !probed.shape.isURL {
                throw EncodingError.invalid(
                    keyName, at: [probed.key],
                    "'\(keyName)' is in fileURLKeys, but \(model)'s property '\(keyName)' is not a URL.")
            }
            fields.append(field)
        }
        let keys = Set(probe.fields.map(\.key.stringValue))
        for key in fileURLKeys where !keys.contains(key) {
            throw Self.noProperty(key, of: model, in: "fileURLKeys")
        }
        for (key, keyIndexes) in indexes where !keys.contains(key) {
            guard let systemField = RecordSchema.SystemField(rawValue: key) else {
                if key == encoder.identifierKey {
                    throw EncodingError.invalid(
                        key, at: [AnyCodingKey(stringValue: key)],
                        "'\(key)' is in indexes, but it names the record rather than a field: index "
                            + "\"___recordID\" to query records by name.")
                }
                throw Self.noProperty(key, of: model, in: "indexes")
            }
            fields.append(RecordSchema.Field(name: key, type: systemField.type, indexes: keyIndexes))
        }
        // Every record type has the system fields, and exports list them all: so does this one,
        // for its text to be what `cktool export-schema` writes once it is imported.
        for systemField in RecordSchema.SystemField.allCases
        where !fields.contains(where: { $0.name == systemField.rawValue }) {
            fields.append(RecordSchema.Field(name: systemField.rawValue, type: systemField.type))
        }
        self.init(name: ModelTypes.info(of: Model.self).recordType, fields: fields, grants: grants)
    }

    /// Throws for a field that CloudKit would refuse: an encrypted asset or reference, or an
    /// encrypted field with an index.
    private static func check(_ field: RecordSchema.Field, of model: Any.Type, at key: any CodingKey) throws {
        guard field.isEncrypted else { return }
        if !field.type.canBeEncrypted {
            throw EncodingError.invalid(
                model, at: [key],
                "The field '\(field.name)' is encrypted, but it is \(field.type): CloudKit keeps assets encrypted "
                    + "already, and never encrypts references, which the server must read. Leave it unencrypted.")
        }
        if !field.indexes.isEmpty {
            throw EncodingError.invalid(
                model, at: [key],
                "The field '\(field.name)' is encrypted, and CloudKit cannot index an encrypted field: "
                    + "leave out its indexes, or leave it unencrypted.")
        }
    }

    private static func noProperty(_ key: String, of model: Any.Type, in option: String) -> EncodingError {
        EncodingError.invalid(
            key, at: [AnyCodingKey(stringValue: key)],
            "'\(key)' is in \(option), but \(model) stores no field under that key"
                + (option == "indexes" ? ", and it names no system field." : "."))
    }
}

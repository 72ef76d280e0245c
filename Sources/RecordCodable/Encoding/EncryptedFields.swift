import Foundation

/// Which of a record's fields CloudKit keeps encrypted: those of ``Encrypted`` properties and those
/// of the keys in ``RecordEncoder/encryptedKeys``, worked out once the model has written them all.
///
/// Nothing happens field by field: an `@Encrypted` property notes its own key as it is encoded
/// (the wrapper knows it is one; the encoder does not ask every value), and a record without
/// either pays one check when it is finished.
extension RecordEncodingEngine {
    /// Notes that the value at `path` is encrypted, and so the field it belongs to: the path's
    /// first key. An encrypted element of a list encrypts the whole list, since CloudKit encrypts
    /// fields, not parts of them.
    func noteEncryptedField(at path: CodingPath) {
        if case .root = path.parent {
            switch path.last {
            case .key(let key): noteEncryptedKey(named: key.stringValue)
            case .name(let name): noteEncryptedKey(named: name)
            case .none, .index: break
            }
        } else if let key = path.keys.first {
            noteEncryptedKey(named: key.stringValue)
        }
    }

    /// The names of the encrypted fields among `fields`, the record's fields. A key that wrote no
    /// field (a `nil` optional) names none.
    ///
    /// - Throws: `EncodingError.invalidValue` at the field's path when an encrypted field holds an
    ///   asset or a reference, which CloudKit never encrypts, or when the encrypted key is the
    ///   identifier, which names the record rather than being a field.
    func encryptedFieldNames(in fields: [String: RecordValue]) throws -> Set<String> {
        let keys = options.encryptedKeys
        let propertyKeys = draft.encryptedKeys
        var names = Set<String>(minimumCapacity: propertyKeys.count &+ keys.count)
        for keyName in propertyKeys {
            if let name = try encryptedFieldName(forKeyNamed: keyName, in: fields) { names.insert(name) }
        }
        for keyName in keys {
            if let name = try encryptedFieldName(forKeyNamed: keyName, in: fields) { names.insert(name) }
        }
        return names
    }

    private func encryptedFieldName(forKeyNamed keyName: String, in fields: [String: RecordValue]) throws -> String? {
        if role(ofKeyNamed: keyName) == .identifier {
            guard let recordName = encodedRecordName else { return nil }
            throw EncodingError.encryptedIdentifier(
                keyName, value: recordName, at: CodingPath.field(named: keyName).keys)
        }
        // The name is not checked here: a field under it exists only if it was valid. (A key of
        // another model, as encryptedKeys applies to every model, may make no valid name.)
        let name = fieldName(forKeyNamed: keyName)
        guard let value = fields[name] else { return nil }
        guard WireField.canBeEncrypted(value) else {
            throw EncodingError.invalid(
                value.payload, at: .field(named: keyName),
                "The field '\(name)' is encrypted, but it holds \(value.kindDescription): CloudKit keeps assets "
                    + "encrypted already, and never encrypts references, which the server must read. Leave it "
                    + "unencrypted.")
        }
        return name
    }

    /// Refuses an encrypted field that is a list of what CloudKit never encrypts — references,
    /// assets, linked models, asset values — by the list's type, so that an empty one is refused
    /// as a full one is: its field, an empty list, does not show what it holds.
    func refuseEncryptedList<Value>(of type: Value.Type, at path: CodingPath) throws {
        guard let list = Self.unwrapped(type) as? any TypedList.Type else { return }
        let element = Self.unwrapped(list.elementType)
        guard
            element == RecordReference.self || element == RecordAsset.self || element is any LinkedRecord.Type
                || element is any RecordAssetValue.Type
        else { return }
        throw EncodingError.invalid(
            "a list of \(element)", at: path,
            "The field is encrypted, but it is a list of \(element): CloudKit keeps assets encrypted already, "
                + "and never encrypts references, which the server must read. Leave it unencrypted.")
    }

    /// The type an optional wraps, or `type` itself.
    private static func unwrapped(_ type: Any.Type) -> Any.Type {
        (type as? any OptionalValue.Type)?.wrappedType ?? type
    }

    /// The field name of the key named `keyName`, after the key strategy. A custom strategy is
    /// given a key of that name.
    private func fieldName(forKeyNamed keyName: String) -> String {
        switch options.keyEncodingStrategy {
        case .useDefaultKeys: keyName
        case .convertToSnakeCase: SnakeCase.fromCamelCase(keyName)
        case .custom(let convert): convert([AnyCodingKey(stringValue: keyName)]).stringValue
        }
    }
}

/// A list type whose element type is known without an element: an empty list of references is
/// refused as an encrypted field as a full one is. (A collection of another type that encodes as
/// a list shows what it holds only by its elements: empty, it is an empty list, encrypted.)
protocol TypedList {
    static var elementType: Any.Type { get }
}

extension Array: TypedList {
    static var elementType: Any.Type { Element.self }
}

extension ContiguousArray: TypedList {
    static var elementType: Any.Type { Element.self }
}

extension Set: TypedList {
    static var elementType: Any.Type { Element.self }
}

extension EncodingError {
    /// The error for an identifier marked encrypted, which names the record rather than being a
    /// field: the encoder's and the schema's.
    static func encryptedIdentifier(_ keyName: String, value: Any, at path: [any CodingKey]) -> EncodingError {
        .invalid(
            value, at: path,
            "The identifier '\(keyName)' names the record, and CloudKit never encrypts a record's name. "
                + "Leave it unencrypted, or set storesIdentifierAsField to keep an encrypted copy as a field.")
    }
}

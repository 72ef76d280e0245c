import Foundation

/// A key of a JSON object, made as `Dictionary<String, _>`'s own `Codable` conformance makes its
/// keys: the string, and the integer it spells when it spells one.
///
/// The wire types' JSON is made of string-keyed dictionaries, so that it is CloudKit's whatever
/// key strategy the caller's JSON coder has. A coder that hands such a dictionary to the
/// dictionary's own conformance (``DictionaryCoding/isDictionaryMember(_:)``) writes and reads its
/// keys through a keyed container, like any other keys; a keyed container of these keys then has
/// exactly the dictionary's keys, and reads and writes the same JSON, without a dictionary and a
/// coder for every value in between.
///
/// For example, `{"type": "INT64", "value": 3}` is read through a keyed container as
/// `container.decode(Int64.self, forKey: DictionaryKey("value"))`.
struct DictionaryKey: CodingKey {
    let stringValue: String

    /// Worked out when asked for, which a JSON coder never does: so the key is only its string,
    /// which a coder's `any CodingKey` holds without allocating.
    var intValue: Int? { Int(stringValue) }

    init(_ stringValue: String) {
        self.stringValue = stringValue
    }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
    }
}

/// A key of a record field's object, `{"type": "INT64", "value": 3}`: one of the two members every
/// field has, `type` and `value`, which are read by name, or any other member, such as
/// `isEncrypted`.
///
/// A keyed container lists its keys as those its key type makes from their strings. This type
/// makes none from `type` and `value`, so a field's container lists only its other members, which
/// most fields have none of: listing a container's keys costs a coder more than reading a value,
/// and the usual field then costs none. `type` and `value` are found by name instead.
struct FieldKey: CodingKey {
    static let type = FieldKey(own: "type")
    static let value = FieldKey(own: "value")

    let stringValue: String
    var intValue: Int? { Int(stringValue) }

    private init(own name: String) {
        self.stringValue = name
    }

    /// Any other member's key; `nil` for `type` and `value`, which are read by name.
    init?(stringValue: String) {
        guard stringValue != Self.type.stringValue, stringValue != Self.value.stringValue else { return nil }
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        self.init(stringValue: String(intValue))
    }
}

/// How a coder treats the string-keyed dictionaries that wire JSON is made of.
enum DictionaryCoding {
    /// Whether `codingPath` is that of a member of a `[String: _]` dictionary that the coder reads
    /// or writes through `Dictionary`'s own `Codable` conformance: then the coder reads and writes
    /// that dictionary's keys through a keyed container, exactly as it reads and writes keyed
    /// containers of ``DictionaryKey``.
    ///
    /// Foundation's JSON coders do so with their default key strategies. With any other strategy
    /// they read and write the dictionary themselves, keys as they are, and apply the strategy to
    /// keyed containers only (Foundation's property list encoder, which has no strategies, writes
    /// dictionaries itself too): there the answer is `false`, and wire JSON keeps away from keyed
    /// containers. The member's key tells which: the dictionary's conformance makes its keys of a
    /// type of its own, which the coder hands on in the member's coding path.
    ///
    /// For example, a `Member` decoded by `JSONDecoder().decode([String: Member].self, from:)`
    /// finds `isDictionaryMember(decoder.codingPath)` true; with `.convertFromSnakeCase`, false.
    static func isDictionaryMember(_ codingPath: [any CodingKey]) -> Bool {
        guard let key = codingPath.last, let dictionaryKeyType else { return false }
        return ObjectIdentifier(type(of: key)) == dictionaryKeyType
    }

    /// The key type of `Dictionary<String, _>`'s `Codable` conformance, which the standard library
    /// does not name: found once, by asking the dictionary to decode itself from a decoder that
    /// notes the key type it is asked for.
    private static let dictionaryKeyType: ObjectIdentifier? = {
        let decoder = KeyTypeRecorder()
        _ = try? [String: Int](from: decoder)
        return decoder.keyType
    }()
}

/// A decoder that notes the key type of the first keyed container it is asked for, and has no
/// content.
private final class KeyTypeRecorder: Decoder {
    private(set) var keyType: ObjectIdentifier?
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if keyType == nil { keyType = ObjectIdentifier(type) }
        throw empty()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw empty()
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw empty()
    }

    private func empty() -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "This decoder has no content."))
    }
}

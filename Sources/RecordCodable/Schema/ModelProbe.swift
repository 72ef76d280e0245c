import Foundation

/// Finds the fields of a model type without a model: the type decodes itself from this decoder,
/// which notes each key it reads and the type it reads there, and hands back a placeholder.
///
/// It answers as a record's decoder would: every key is present, so that optional properties are
/// read too; the identifier key names the record and is no field; a `RecordMetadata` property is
/// no field, and neither is one that holds a platform's archive of system fields
/// (``RecordSystemFieldsArchive``); `superDecoder()` reads the same record, so a class and its superclass make one record
/// type. Each property's type is described by a ``ShapeProbe``, and its value is a placeholder
/// (see ``PlaceholderDecoder``) from which the model goes on to the next property.
final class ModelProbe: Decoder {
    /// A key the model reads as a field, and how it is stored.
    struct ProbedField {
        var key: any CodingKey
        var shape: StoredShape
        var isEncrypted: Bool
    }

    /// What each property becomes, as the encoder decides it.
    let roles: PropertyRoles
    let userInfo: [CodingUserInfoKey: Any]

    /// The fields, in the order the model read them first.
    private(set) var fields: [ProbedField] = []
    /// The key of the identifier when the model reads it and it names the record, and whether it
    /// is ``Encrypted``: no field, but an error if encrypted.
    private(set) var identifier: (key: any CodingKey, isEncrypted: Bool)?

    init(encoder: RecordEncoder) {
        roles = PropertyRoles(options: encoder)
        userInfo = encoder.userInfo.mapValues { $0 as Any }
    }

    /// Decodes a `Model` from the probe, noting its fields.
    ///
    /// - Throws: `DecodingError.dataCorrupted` at the path of the value that the probe could not
    ///   describe or build a placeholder of, and any error the model throws on its own.
    func probe<Model: Decodable>(_ model: Model.Type) throws {
        // A value read through a nested container fails inside the model's own code, out of reach
        // of the checks around each property.
        _ = try Self.reporting { try Model(from: self) }
    }

    /// Notes the field for `key`, unless it is the identifier kept out of the fields. A key read
    /// twice keeps its first shape, and is encrypted if either read is.
    fileprivate func note(_ key: some CodingKey, _ shape: StoredShape, isEncrypted: Bool = false) {
        let name = key.stringValue
        if roles.role(ofKeyNamed: name) == .identifier {
            identifier = (key, (identifier?.isEncrypted ?? false) || isEncrypted)
            return
        }
        if let index = fields.firstIndex(where: { $0.key.stringValue == name }) {
            fields[index].isEncrypted = fields[index].isEncrypted || isEncrypted
        } else {
            fields.append(ProbedField(key: key, shape: shape, isEncrypted: isEncrypted))
        }
    }

    /// Notes the field of a property of type `T` read under `key`, or of a list of `T` when
    /// `isListElement` is true.
    fileprivate func noteProperty<T: Decodable>(
        _ type: T.Type, forKey key: some CodingKey, isListElement: Bool = false
    ) throws {
        let context = ShapeProbe.Context(userInfo: userInfo)
        // A shape probe knows no path beyond the value it describes.
        let path: [any CodingKey] = isListElement ? [key, AnyCodingKey(index: 0)] : [key]
        let shape = try Self.reporting(under: path) { try ShapeProbe.shape(of: type, context: context) }
        note(key, isListElement ? shape.asListElement : shape, isEncrypted: context.isEncrypted)
    }

    /// A decoder of placeholders, for the value at `path` that the model reads through a nested
    /// container or a decoder of its own.
    fileprivate func placeholderDecoder(at path: [any CodingKey]) -> PlaceholderDecoder {
        PlaceholderDecoder(codingPath: path, userInfo: userInfo)
    }

    /// A placeholder of type `T` for the value at `path`: a property, or an element of its list.
    fileprivate func placeholder<T: Decodable>(_ type: T.Type, at path: [any CodingKey]) throws -> T {
        try Self.reporting { try PlaceholderDecoder.placeholder(of: type, at: path, userInfo: userInfo) }
    }

    /// Runs `body`, turning a ``ProbeFailure`` into a `DecodingError` that says what to do, at the
    /// failure's path after `prefix` (the path of the value a shape probe describes; a placeholder
    /// decoder's failures have their whole path).
    private static func reporting<Result>(under prefix: [any CodingKey] = [], _ body: () throws -> Result) throws
        -> Result
    {
        do {
            return try body()
        } catch var failure as ProbeFailure {
            failure.codingPath = prefix + failure.codingPath
            throw DecodingError.dataCorrupted(context(of: failure))
        }
    }

    private static func context(of failure: ProbeFailure) -> DecodingError.Context {
        let explanation =
            "RecordSchema describes a model from its type, reading each property from placeholder "
            + "answers (nil, empty, 0, \"0\", a CaseIterable enum's first case)"
        switch failure.reason {
        case .failed(let type, let error):
            // Only a type with raw values can be a RecordEnum, and only an enum CaseIterable.
            let advice =
                type is any RawRepresentable.Type
                ? "Make \(type) CaseIterable (its first case is used) or a RecordEnum, or describe the record type "
                    + "by hand."
                : "If \(type) is an enum, make it CaseIterable (its first case is used); else describe the record "
                    + "type by hand, with RecordSchema.RecordType(name:fields:grants:)."
            return DecodingError.Context(
                codingPath: failure.codingPath,
                debugDescription: "\(explanation), and \(type) refused them (\(error)). \(advice)",
                underlyingError: error)
        case .tooDeep(let type):
            return DecodingError.Context(
                codingPath: failure.codingPath,
                debugDescription: "\(explanation), and \(type) is held more than \(ShapeProbe.maximumDepth) types "
                    + "deep: describe the record type by hand.")
        }
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { [] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FieldProbeContainer(probe: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: [],
                debugDescription: "A record holds named fields, but the model reads an unkeyed container."))
    }

    func singleValueContainer() -> any SingleValueDecodingContainer {
        WrappedModelProbe(probe: self)
    }
}

/// The record's keyed container, as the probe answers it: every key is present.
private struct FieldProbeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let probe: ModelProbe

    var codingPath: [any CodingKey] { [] }
    /// A model that lists the record's keys finds none: the probe knows no keys but those asked.
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) -> Bool { false }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try plain(type, .int64, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try plain(type, .string, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try plain(type, .double, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try plain(type, .double, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try plain(type, .int64, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try plain(type, .int64, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try plain(type, .int64, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try plain(type, .int64, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try plain(type, .int64, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try plain(type, .int64, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try plain(type, .int64, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try plain(type, .int64, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try plain(type, .int64, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try plain(type, .int64, key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try plain(type, .int64, key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try plain(type, .int64, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        if isNoted(type, forKey: key) { try probe.noteProperty(type, forKey: key) }
        return try probe.placeholder(type, at: [key])
    }

    /// An optional property: its field is noted, and its value is `nil`.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if isNoted(type, forKey: key) { try probe.noteProperty(type, forKey: key) }
        return nil
    }

    /// Whether the probe notes a property of type `T` under `key`: every one but those the encoder
    /// never makes a field, the record's metadata and the archive of its system fields (whatever
    /// their optionality). The identifier is noted, and set apart as the record's name.
    private func isNoted<T>(_ type: T.Type, forKey key: Key) -> Bool {
        let role = probe.roles.role(of: T.self, keyNamed: key.stringValue)
        return role != .metadata && role != .systemFieldsArchive
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        probe.note(key, .json)
        return probe.placeholderDecoder(at: [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ListFieldProbe(probe: probe, key: key)
    }

    /// The same record, so that a superclass reads its properties from it.
    func superDecoder() -> any Decoder { probe }

    /// A value that a superclass reads as it likes, stored as any nested value is: as JSON.
    func superDecoder(forKey key: Key) -> any Decoder {
        probe.note(key, .json)
        return probe.placeholderDecoder(at: [key])
    }

    private func plain<T: Decodable>(_ type: T.Type, _ fieldType: RecordSchema.FieldType, _ key: Key) throws -> T {
        probe.note(key, .type(fieldType))
        return try probe.placeholder(type, at: [key])
    }
}

/// A list a model reads element by element through `nestedUnkeyedContainer(forKey:)`: its field is
/// a list of the first element's type.
private struct ListFieldProbe<Key: CodingKey>: UnkeyedDecodingContainer {
    let probe: ModelProbe
    let key: Key
    private(set) var currentIndex = 0

    init(probe: ModelProbe, key: Key) {
        self.probe = probe
        self.key = key
    }

    var codingPath: [any CodingKey] { [key] }
    /// One element is offered, which is enough to tell the list's type: so a model that reads
    /// as many elements as the count says reads one too.
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex > 0 }

    /// A `nil` element, which the encoder stores as JSON; the list then ends, as after any
    /// element.
    mutating func decodeNil() -> Bool {
        probe.note(key, .json)
        currentIndex &+= 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if currentIndex == 0 { try probe.noteProperty(type, forKey: key, isListElement: true) }
        let path = elementPath
        currentIndex &+= 1
        return try probe.placeholder(type, at: path)
    }

    /// The path of the element at `currentIndex`.
    private var elementPath: [any CodingKey] { [key, AnyCodingKey(index: currentIndex)] }

    // A list of lists or of nested values is stored as JSON.

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type)
        -> KeyedDecodingContainer<NestedKey>
    {
        jsonElement().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
        jsonElement().unkeyedContainer()
    }

    mutating func superDecoder() -> any Decoder {
        jsonElement()
    }

    private mutating func jsonElement() -> PlaceholderDecoder {
        probe.note(key, .json)
        let path = elementPath
        currentIndex &+= 1
        return probe.placeholderDecoder(at: path)
    }
}

/// The record's single value: a model that wraps another hands the record on to it, as the
/// encoder lets it; a plain value cannot be a record.
private struct WrappedModelProbe: SingleValueDecodingContainer {
    let probe: ModelProbe

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) throws -> Bool { throw notARecord(type) }
    func decode(_ type: String.Type) throws -> String { throw notARecord(type) }
    func decode(_ type: Double.Type) throws -> Double { throw notARecord(type) }
    func decode(_ type: Float.Type) throws -> Float { throw notARecord(type) }
    func decode(_ type: Int.Type) throws -> Int { throw notARecord(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw notARecord(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { throw notARecord(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { throw notARecord(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { throw notARecord(type) }
    func decode(_ type: UInt.Type) throws -> UInt { throw notARecord(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw notARecord(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw notARecord(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw notARecord(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw notARecord(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if SpecialType(type) != nil { throw notARecord(type) }
        return try T(from: probe)
    }

    private func notARecord(_ type: Any.Type) -> DecodingError {
        .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: [],
                debugDescription: "A record holds named fields, but the model reads a single \(type)."))
    }
}

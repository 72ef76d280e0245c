import Foundation

/// The decoder of one record: the `Decoder` that a model's `init(from:)` receives.
///
/// Its keyed container reads each property from its field. `superDecoder()` returns this same
/// decoder, so a class and its superclass read one record.
///
/// The record, the options and the linked records are fixed for the engine's life: one engine
/// decodes one record. Its mutable state, and the rules that keep it sound (checked by `assert` in
/// debug builds):
/// - `spareValueDecoder` is a value decoder that finished its value, and so holds none. Only
///   ``makeValueDecoder(for:at:)`` takes it, only ``recycle(_:)`` puts one back (when
///   nothing else refers to it), and ``finish()`` drops it, since it refers back to the engine.
/// - `userInfo`, the JSON decoder, and the field names of the snake-case and custom key strategies
///   are worked out on first use and never change after.
final class RecordDecodingEngine: Decoder {
    let record: Record
    let options: RecordDecoder
    /// The records that linked models are decoded from, or `nil` when none were given.
    let graph: GraphDecoding?

    /// The options asked for at every property, kept here rather than read through the options
    /// each time: the identifier key and its length in bytes, and whether keys are field names.
    private let identifierKey: String?
    private let identifierKeyLength: Int
    private let usesDefaultKeys: Bool

    init(record: Record, options: RecordDecoder, graph: GraphDecoding? = nil) {
        self.record = record
        self.options = options
        self.graph = graph
        identifierKey = options.identifierKey
        identifierKeyLength = options.identifierKey?.utf8.count ?? 0
        if case .useDefaultKeys = options.keyDecodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { [] }

    private(set) lazy var userInfo: [CodingUserInfoKey: Any] = options.userInfo.mapValues { $0 as Any }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RecordFieldDecodingContainer(engine: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            DecodingError.Context(
                codingPath: [], debugDescription: "Expected to decode Array<Any> but found a record instead."))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TopLevelSingleValueDecodingContainer(engine: self)
    }

    // MARK: Fields

    /// Whether `key` is the model's identifier, which reads the record's name.
    @inline(__always)
    func isIdentifier(_ key: some CodingKey) -> Bool {
        isIdentifier(named: key.stringValue)
    }

    /// Whether the key named `name` is the model's identifier. Lengths are compared first: most
    /// keys differ from the identifier in length.
    @inline(__always)
    func isIdentifier(named name: String) -> Bool {
        guard let identifierKey else { return false }
        return name.utf8.count == identifierKeyLength && name == identifierKey
    }

    /// The error for a key whose field the record lacks: Foundation's `keyNotFound`, which names
    /// the record, and a field of the record whose name is nearly the one looked for, as a
    /// misspelt key's would be. For example: `No value associated with key CodingKeys(stringValue:
    /// "title", intValue: nil) ("title") in record Note "N1".`
    @inline(never)
    func missingField(_ key: some CodingKey) -> DecodingError {
        var description = "No value associated with key \(key) (\"\(key.stringValue)\") in \(recordInErrors)."
        let looked = fieldName(forKey: key.stringValue)
        let nearMisses = NearMisses.of(looked, among: record.fieldStorage.names)
        if !nearMisses.isEmpty {
            let names = nearMisses.map { "'\($0)'" }.joined(separator: ", ")
            description += " The record has no field '\(looked)', but has \(names): is the key or the field misspelt?"
        }
        return .keyNotFound(key, DecodingError.Context(codingPath: [], debugDescription: description))
    }

    /// The record as an error names it: its type and its name, `record Note "N1"`.
    var recordInErrors: String {
        record.recordName.isEmpty
            ? "a record of type \(record.recordType) that has no name"
            : "record \(record.recordType) \"\(record.recordName)\""
    }

    /// The field name the key strategy looks up first for a key.
    func fieldName(forKey name: String) -> String {
        switch options.keyDecodingStrategy {
        case .useDefaultKeys: name
        case .convertFromSnakeCase: SnakeCase.fromCamelCase(name)
        case .custom: options.fieldNaming.map { $0([AnyCodingKey(stringValue: name)]).stringValue } ?? name
        }
    }

    /// The record's name, for an identifier that is not optional: a record without one, which
    /// only an optional identifier reads (as `nil`), is `valueNotFound`.
    func recordName(forKey key: some CodingKey) throws -> String {
        guard hasName else {
            throw DecodingError.valueNotFound(
                String.self, at: .field(key),
                "The record has no name, which the server gives it when it is saved: make the identifier optional "
                    + "to read records that have none.")
        }
        return record.recordName
    }

    /// Whether the record has a name for the identifier to read. A record without one was saved
    /// by a model whose identifier was `nil`, which reads back `nil`.
    var hasName: Bool { !record.recordName.isEmpty }

    /// The value of the field for `key`, found as the key strategy says.
    func field(forKey key: some CodingKey) -> RecordValue? {
        field(named: key.stringValue)
    }

    /// The value of the field for the key named `name`, found as the key strategy says.
    func field(named name: String) -> RecordValue? {
        // The default keys first, by a test of one flag: switching on the strategy copies it, its
        // closure too. (Its own case below is then the same lookup, for the switch to be whole.)
        if usesDefaultKeys { return record[name] }
        switch options.keyDecodingStrategy {
        case .useDefaultKeys:
            return record[name]
        case .convertFromSnakeCase:
            return record[SnakeCase.fromCamelCase(name)] ?? record[name]
                ?? snakeCaseFieldNames[name].flatMap { record[$0] }
        case .custom:
            if let naming = options.fieldNaming {
                return record[naming([AnyCodingKey(stringValue: name)]).stringValue]
            }
            return customFieldNames[name].flatMap { record[$0] }
        }
    }

    /// The coding keys the record's fields stand for, as the key strategy reads them, each once:
    /// fields such as `a_b` and `a__b`, whose camel-case forms are one key, give that key once, as
    /// Foundation's decoder gives it.
    var fieldKeys: [String] {
        switch options.keyDecodingStrategy {
        case .useDefaultKeys: record.fieldStorage.names
        case .convertFromSnakeCase: Array(snakeCaseFieldNames.keys)
        case .custom: Array(customFieldNames.keys)
        }
    }

    /// For the snake-case strategy: every coding key the record's fields give, each with a field
    /// whose camel-case form it is. Its keys are ``fieldKeys``, and it finds the fields that a
    /// key's snake-case form does not name (`field_name_0`, whose key `fieldName0` turns back into
    /// `field_name0`), so that every key listed finds its field, as with Foundation's decoder.
    /// Worked out on the first key the quick lookups miss, or for the first list of keys; where
    /// two fields give one key, the first in byte order.
    private lazy var snakeCaseFieldNames: [String: String] = {
        var names: [String: String] = [:]
        for name in record.fieldStorage.names.sorted() {
            let key = SnakeCase.toCamelCase(name)
            if names[key] == nil { names[key] = name }
        }
        return names
    }()

    /// For a custom key strategy: the field name for each coding key, worked out once per record;
    /// where two fields give one key, the first in sorted order, so that equal records decode alike
    /// however their dictionaries are laid out.
    private lazy var customFieldNames: [String: String] = {
        guard case .custom(let convert) = options.keyDecodingStrategy else { return [:] }
        var names: [String: String] = [:]
        for name in record.fieldStorage.names.sorted() {
            let key = convert([AnyCodingKey(stringValue: name)]).stringValue
            if names[key] == nil { names[key] = name }
        }
        return names
    }()

    // MARK: Nested values as JSON

    private lazy var jsonDecoder: JSONDecoder = {
        guard !options.userInfo.isEmpty else { return NestedJSON.decoder }
        let decoder = NestedJSON.makeDecoder()
        decoder.userInfo = options.userInfo
        return decoder
    }()

    /// Decodes a value from its JSON, with any error's coding path starting at `path`.
    func decodeJSON<T: Decodable>(_ type: T.Type, from data: Data, at path: CodingPath) throws -> T {
        do {
            return try jsonDecoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw error.prefixingPath(with: path.keys)
        }
    }

    /// A decoder positioned on the JSON in `data`, for a model that reads a nested value through
    /// containers rather than as one `Decodable` value.
    func jsonDecoder(for data: Data, at path: CodingPath) throws -> any Decoder {
        let decoder = try decodeJSON(DecoderCapture.self, from: data, at: path).decoder
        return PrefixedDecoder(base: decoder, prefix: path.keys)
    }

    // MARK: Value decoders

    /// A value decoder that finished its value and can decode the next one. (Sound without the
    /// run-time exclusivity checks: the engine runs on the one thread that decodes its record, and
    /// each access here is a single take or store that calls out to nothing, so none can overlap
    /// another.)
    @exclusivity(unchecked) private var spareValueDecoder: ValueDecoder?

    /// A value decoder for `value` at `path`: the spare one if there is one.
    func makeValueDecoder(for value: RecordValue?, at path: CodingPath) -> ValueDecoder {
        // Taken, not copied: the spare's reference moves out.
        let decoder = spareValueDecoder.take() ?? ValueDecoder(engine: self)
        decoder.start(value, at: path)
        return decoder
    }

    /// Keeps a value decoder for the next value, unless the value kept a reference to it.
    func recycle(_ decoder: inout ValueDecoder) {
        guard isKnownUniquelyReferenced(&decoder) else { return }
        decoder.finish()
        assert(decoder.value == nil, "a spare value decoder holds no value")
        spareValueDecoder = decoder
    }

    /// Lets go of the spare decoder, which refers back to the engine, once decoding is done.
    func finish() {
        spareValueDecoder = nil
    }
}

/// Keeps the decoder that JSONDecoder hands to a value, so that its containers can be used after.
private struct DecoderCapture: Decodable {
    let decoder: any Decoder

    init(from decoder: any Decoder) throws {
        self.decoder = decoder
    }
}

/// The container a model gets when it asks a record for a single value: a wrapper may hand it on
/// to the model it wraps; anything else finds a record where it expected a plain value.
struct TopLevelSingleValueDecodingContainer: SingleValueDecodingContainer {
    let engine: RecordDecodingEngine

    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: [], debugDescription: "Expected to decode \(type) but found a record instead."))
    }

    func decode(_ type: Bool.Type) throws -> Bool { throw mismatch(type) }
    func decode(_ type: String.Type) throws -> String { throw mismatch(type) }
    func decode(_ type: Double.Type) throws -> Double { throw mismatch(type) }
    func decode(_ type: Float.Type) throws -> Float { throw mismatch(type) }
    func decode(_ type: Int.Type) throws -> Int { throw mismatch(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw mismatch(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { throw mismatch(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { throw mismatch(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { throw mismatch(type) }
    func decode(_ type: UInt.Type) throws -> UInt { throw mismatch(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw mismatch(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw mismatch(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw mismatch(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw mismatch(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { throw mismatch(type) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { throw mismatch(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: engine)
    }
}

import Foundation

/// The encoder of one record: the `Encoder` that a model's `encode(to:)` receives.
///
/// Its keyed container writes each property straight into the record's fields, encoding the
/// property alone (see ``ValueEncoder``). Everything the record-level API allows is supported:
/// `superEncoder()` returns this same encoder, so a class and its superclass write into one
/// record; nested containers and `superEncoder(forKey:)` build a value that is stored, when the
/// model is done, like any nested value.
final class RecordEncodingEngine: Encoder {
    let options: RecordEncoder

    private(set) var fields: [String: RecordValue] = [:]
    /// The record's ``Record/encodedSize``, kept up to date as fields are written, so that the
    /// size guard needs no pass of its own.
    private(set) var size = 0
    private var recordName: String?
    private var metadata: RecordMetadata?
    /// Values built through nested containers, stored once the model has finished writing them.
    private var pendingFields: [(key: any CodingKey, value: TreeValue)] = []
    /// The kind of top-level container that a record cannot hold, if the model asked for one.
    private var unkeyedTopLevel: String?

    init(options: RecordEncoder) {
        self.options = options
    }

    // MARK: Encoder

    var codingPath: [any CodingKey] { [] }

    private(set) lazy var userInfo: [CodingUserInfoKey: Any] = options.userInfo.mapValues { $0 as Any }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RecordFieldContainer(engine: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        rejectTopLevel("an unkeyed container")
        return TopLevelUnkeyedContainer(engine: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TopLevelSingleValueContainer(engine: self)
    }

    // MARK: Writing the record

    /// Stores `value` under the field named for `key`.
    func write(_ value: EncodedValue?, forKey key: some CodingKey) throws {
        let name = try fieldName(for: key)
        let previous: RecordValue?
        if let value {
            previous = fields.updateValue(value.value, forKey: name)
            size &+= name.utf8.count &+ value.size
        } else {
            previous = fields.removeValue(forKey: name)
        }
        if let previous {
            size &-= name.utf8.count &+ previous.encodedSize
        }
    }

    /// Whether `key` is the model's identifier, which names the record instead of being a field.
    @inline(__always)
    func isIdentifier(_ key: some CodingKey) -> Bool {
        options.identifierKey == key.stringValue
    }

    /// Names the record with the identifier's value: text, or an integer's decimal digits. Text
    /// that CloudKit would refuse as a name is an error here, where its path is known.
    func setRecordName(_ value: EncodedValue?, forKey key: some CodingKey) throws {
        switch value?.value {
        case .string(let name):
            if let problem = RecordName.problem(with: name) {
                throw EncodingError.invalid(
                    name, at: CodingPathNode.root.appending(key),
                    "The identifier '\(key.stringValue)' cannot name the record: \(problem).")
            }
            recordName = name
        case .int64(let number):
            recordName = String(number)
        case nil:
            recordName = nil
        case let other?:
            throw EncodingError.invalid(
                other, at: CodingPathNode.root.appending(key),
                "The identifier '\(key.stringValue)' must be a String, a UUID or an integer to name the record, "
                    + "but it encodes as \(other.kindDescription).")
        }
    }

    func setMetadata(_ metadata: RecordMetadata?) {
        self.metadata = metadata
    }

    func addPendingField(_ value: TreeValue, forKey key: some CodingKey) {
        pendingFields.append((key, value))
    }

    /// The field name for `key`, after the key strategy, checked against the record format.
    private func fieldName(for key: some CodingKey) throws -> String {
        let name: String
        switch options.keyEncodingStrategy {
        case .useDefaultKeys:
            name = key.stringValue
        case .convertToSnakeCase:
            name = SnakeCase.fromCamelCase(key.stringValue)
        case .custom(let convert):
            name = convert([key]).stringValue
        }
        guard FieldName.isValid(name) else { throw invalidFieldName(name, forKey: key) }
        return name
    }

    @inline(never)
    private func invalidFieldName(_ name: String, forKey key: some CodingKey) -> EncodingError {
        let converted = name == key.stringValue ? "" : " (field name '\(name)')"
        return .invalid(
            name, at: CodingPathNode.root.appending(key),
            "Cannot store key '\(key.stringValue)'\(converted) as a field: \(FieldName.problem(with: name)).")
    }

    // MARK: Finishing

    /// The record, once the model's `encode(to:)` has returned.
    func finish<T>(encoding value: T) throws -> Record {
        if let unkeyedTopLevel {
            throw EncodingError.invalid(
                value, at: .root,
                "Top-level \(T.self) encoded \(unkeyedTopLevel), but a record holds named fields: "
                    + "encode a struct or class with a keyed container.")
        }
        for pending in pendingFields {
            let node = CodingPathNode.root.appending(pending.key)
            try write(encodeField(pending.value, at: node), forKey: pending.key)
        }
        pendingFields = []
        guard size <= options.maximumRecordSize else { throw recordTooLarge() }
        return Record(
            recordType: RecordTypeName.of(T.self),
            recordName: recordName ?? UUID().uuidString,
            fields: fields,
            metadata: metadata)
    }

    @inline(never)
    private func recordTooLarge() -> RecordEncodingError {
        let sizes: [(name: String, size: Int)] = fields.map { name, value in
            (name, name.utf8.count &+ value.encodedSize)
        }
        let heaviest = sizes.sorted { first, second in
            first.size != second.size ? first.size > second.size : first.name < second.name
        }
        .prefix(3).map(\.name)
        return .recordTooLarge(size: size, limit: options.maximumRecordSize, heaviestFields: heaviest)
    }

    /// Throws when `value` is of a type stored as a single field, such as a `Date` or a `URL`,
    /// which cannot be a whole record even if its own `encode(to:)` uses a keyed container.
    func rejectSingleValue<T: Encodable>(_ value: T) throws {
        guard let special = encodeSpecial(value) else { return }
        rejectTopLevel("a single \(T.self)")
        throw EncodingError.invalid(
            value, at: .root,
            "Top-level \(T.self) is stored as \(special.value.kindDescription), but a record holds named fields: "
                + "encode a struct or class with a keyed container.")
    }

    /// Records that the model asked for a top-level container a record cannot hold.
    func rejectTopLevel(_ what: String) {
        unkeyedTopLevel = unkeyedTopLevel ?? what
    }

    // MARK: Nested values as JSON

    /// The coder for values stored as JSON: sorted keys, so that equal values give equal bytes;
    /// Foundation's own forms for dates (seconds since 2001, exact) and data (Base64); NaN and
    /// the infinities as the strings "NaN", "Infinity" and "-Infinity".
    private lazy var jsonEncoder: JSONEncoder = {
        guard !options.userInfo.isEmpty else { return NestedJSON.encoder }
        let encoder = NestedJSON.makeEncoder()
        encoder.userInfo = options.userInfo
        return encoder
    }()

    /// The JSON of `value`, with any error's coding path starting at `node`.
    func encodeJSON<T: Encodable>(_ value: T, at node: CodingPathNode) throws -> Data {
        do {
            return try jsonEncoder.encode(value)
        } catch let error as EncodingError {
            throw error.prefixingPath(with: node.path)
        }
    }
}

/// A field value together with its cost against the record's size limit, worked out as the
/// value is built.
struct EncodedValue {
    var value: RecordValue
    var size: Int

    /// A single value, whose size costs nothing to work out.
    init(_ value: RecordValue) {
        self.value = value
        self.size = value.encodedSize
    }

    init(_ value: RecordValue, size: Int) {
        self.value = value
        self.size = size
    }
}

extension RecordEncoder {
    /// How ``RecordEncoder`` turns a property's coding key into a field name.
    ///
    /// The strategy applies to field names only, never to the keys inside a value stored as
    /// JSON, and it runs after the ``RecordEncoder/identifierKey`` is matched. Two keys that it
    /// stores in one field — `myURL` and `myUrl` are both `my_url` in snake case — are an
    /// `EncodingError` at the second, where Foundation's `JSONEncoder` would keep the last value
    /// alone.
    public enum KeyEncodingStrategy: Sendable {
        /// The field is named exactly as the coding key. This is the default.
        case useDefaultKeys

        /// The key is written in snake case: `createdAt` becomes `created_at`, `imageURL`
        /// becomes `image_url`. Leading and trailing underscores are kept.
        case convertToSnakeCase

        /// The field name is the key that the closure returns.
        ///
        /// The closure receives the coding path of the key, which ends with the key itself; for a
        /// record field the path holds just that key.
        case custom(@Sendable (_ codingPath: [any CodingKey]) -> any CodingKey)

        /// Whether the strategy is a closure, whose answers are not kept from record to record.
        var isCustom: Bool {
            if case .custom = self { return true }
            return false
        }

        /// Whether the strategy may store two keys in one field: `myURL` and `myUrl` are both
        /// `my_url` in snake case.
        var mayJoinKeys: Bool {
            if case .useDefaultKeys = self { return false }
            return true
        }
    }
}

extension RecordEncoder.KeyEncodingStrategy {
    /// The field name for `key`, whose name is `keyName`, after the strategy, checked against the
    /// record format: the one rule that names fields, for the encoder and for the schema alike.
    package func fieldName(for keyName: String, _ key: some CodingKey) throws -> String {
        let name: String
        switch self {
        case .useDefaultKeys:
            name = keyName
        case .convertToSnakeCase:
            name = SnakeCase.fromCamelCase(keyName)
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
            name, at: .field(key),
            "Cannot store key '\(key.stringValue)'\(converted) as a field: \(FieldName.problem(with: name)).")
    }
}

/// What the property wrappers of a model mean to a record (see ``RecordPropertyEncoder``).
extension ValueEncoder: RecordPropertyEncoder {
    /// Notes the field as encrypted, then encodes the value as the field's.
    ///
    /// Noted before the value is written, so that a value stored as JSON bytes, after the value
    /// encoder found it has no native form, is encrypted all the same.
    func encodeEncrypted<Value: Encodable>(_ value: Value) throws {
        if let engine {
            engine.noteEncryptedField(at: path)
            // A `nil` writes no field, which nothing encrypts.
            if case .root = path.parent, (value as? any OptionalValue)?.isNil != true {
                try engine.refuseEncryptedList(of: Value.self, at: path)
            }
        }
        // The value encoder is its own single value container.
        try encode(value)
    }

    func encode<Value: Encodable>(_ value: Value, linkAction action: RecordReference.Action) throws {
        guard let engine else { return try encode(value) }
        try engine.withLinkAction(action) { try encode(value) }
    }
}

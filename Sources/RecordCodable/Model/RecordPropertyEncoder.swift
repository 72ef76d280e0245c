/// The encoder of one property of a record, as the property wrappers beside it see it: it keeps
/// what ``Encrypted`` and the ``Link`` wrappers mean, which any other encoder has no use for.
///
/// A wrapper asks its encoder whether it is one, and else encodes its value as it is, so that the
/// same wrapper writes plain JSON anywhere else:
///
/// ```swift
/// public func encode(to encoder: any Encoder) throws {
///     guard let propertyEncoder = encoder as? any RecordPropertyEncoder else {
///         var container = encoder.singleValueContainer()
///         return try container.encode(wrappedValue)
///     }
///     try propertyEncoder.encodeEncrypted(wrappedValue)
/// }
/// ```
///
/// The record encoder's value encoder conforms; this folder needs nothing else of it.
protocol RecordPropertyEncoder: Encoder {
    /// Encodes `value` as the property's value, and names the property's field among the record's
    /// ``Record/encryptedFields``.
    func encodeEncrypted<Value: Encodable>(_ value: Value) throws

    /// Encodes `value` as the property's value, with the references to linked models it leads to
    /// taking `action`.
    func encode<Value: Encodable>(_ value: Value, linkAction action: RecordReference.Action) throws
}

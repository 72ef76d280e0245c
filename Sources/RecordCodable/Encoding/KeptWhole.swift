/// Which values written into a ``TreeValue`` are kept as they are, until the record is finished,
/// rather than encoded into the tree as they are written.
///
/// Kept whole so that they are stored as they would be anywhere else in a record:
/// - a value whose type has a fixed mapping (see ``SpecialType``), such as a `Date`;
/// - a linked model, a ``Link`` wrapper or an asset value, which are stored apart from the record;
/// - an ``Encrypted`` value, whose field is encrypted;
/// - a collection, whose elements decide together whether it is a list or JSON.
///
/// For example, a model that writes a `Date` through `superEncoder(forKey:)` gets a date field,
/// as if it had written the date under the key.
enum KeptWhole {
    /// Whether `value` is kept as it is until the record is finished.
    static func applies<T: Encodable>(to value: T) -> Bool {
        SpecialType(T.self) != nil || value is any Collection || value is any LinkedRecord
            || value is any LinkWrapper || value is any EncryptedWrapper || value is any RecordAssetValue
    }
}

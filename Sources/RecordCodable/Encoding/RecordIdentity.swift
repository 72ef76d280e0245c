import Foundation

/// What names a record and what the server assigned it, as the model writes them: the value of its
/// identifier and its `RecordMetadata` property.
///
/// Rules:
/// - `name` is set only by ``setName(_:forKey:)``, from the identifier's value: text that CloudKit
///   accepts as a record name, or an integer's decimal digits. `nil` while the identifier has not
///   named the record, or named it with `nil`.
/// - `wroteIdentifier` turns true when the model writes its identifier, `nil` included, and never
///   turns back: a model whose identifier is `nil` gets an empty name, which the server fills in,
///   rather than a new UUID.
/// - `refusedName` turns true when the identifier's value cannot name a record, and never turns
///   back: the error thrown then is the identifier's own, not the model's.
/// - `metadata` is the last `RecordMetadata` the model wrote, boxed as the record keeps it.
struct RecordIdentity {
    private(set) var name: String?
    private(set) var wroteIdentifier = false
    private(set) var refusedName = false
    private(set) var metadata: Shared<RecordMetadata>?

    /// Names the record with the identifier's value: text, or an integer's decimal digits. Text
    /// that CloudKit would refuse as a name is an error here, where its path is known.
    mutating func setName(_ value: RecordValue?, forKey key: some CodingKey) throws {
        // Written even when the value cannot name the record: a model that catches the error
        // still wrote its identifier.
        wroteIdentifier = true
        switch value {
        case .string(let text):
            if let problem = RecordName.problem(with: text) {
                throw refuse(
                    .invalid(
                        text, at: .field(key), "The identifier '\(key.stringValue)' cannot name the record: \(problem)."
                    ))
            }
            name = text
        case .int64(let number):
            name = String(number)
        case nil:
            name = nil
        case let other?:
            throw refuse(
                .invalid(
                    other.payload, at: .field(key),
                    "The identifier '\(key.stringValue)' must be a String, a UUID or an integer to name the record, "
                        + "but it encodes as \(other.kindDescription)."))
        }
    }

    /// Names the record `text` when CloudKit takes it as a name, as ``setName(_:forKey:)`` does;
    /// else changes nothing and returns false, for that method to report the error.
    mutating func setName(_ text: String) -> Bool {
        guard RecordName.isValid(text) else { return false }
        wroteIdentifier = true
        name = text
        return true
    }

    /// Notes that the identifier's value cannot name the record, and returns the error that says so.
    mutating func refuse(_ error: EncodingError) -> EncodingError {
        wroteIdentifier = true
        refusedName = true
        name = nil
        return error
    }

    /// Notes an identifier that the model left out as `nil` (`encodeIfPresent`): it names no record.
    mutating func noteAbsentIdentifier() {
        wroteIdentifier = true
        name = nil
    }

    /// The record's name from the identifier and the metadata's ``RecordMetadata/recordName``:
    /// the one that is there, or the identifier's when both are and agree. Both, with different
    /// names, is an error at the identifier's path: the model would save one record's system
    /// fields under another's name.
    func name(agreeingWith metadata: RecordMetadata?, identifierKey: String?) throws -> String? {
        guard let recorded = metadata?.recordName else { return name }
        guard let name else { return recorded }
        guard name == recorded else {
            let key = AnyCodingKey(stringValue: identifierKey ?? "")
            throw EncodingError.invalid(
                name, at: identifierKey == nil ? [] : [key],
                "The identifier '\(key.stringValue)' names the record '\(name)', but the model's metadata belongs "
                    + "to the record '\(recorded)': a model keeps the metadata of its own record. Set the metadata "
                    + "to nil for a new record, or keep the identifier the metadata was read with.")
        }
        return name
    }

    mutating func setMetadata(_ metadata: RecordMetadata?) {
        self.metadata = metadata.map(Shared.init)
    }
}

import Foundation

/// A few fields of a stored record, read from its JSON without building the record: what a
/// reader of one or two fields of many records needs (the store's secondary indexes), at a
/// fraction of the cost of the whole record.
package struct RecordFieldValues {
    /// The record's name.
    package var recordName: String
    /// The record's type.
    package var recordType: String
    /// The value of each field asked for that the record has, as ``Record/fields`` would hold it.
    package var values: [String: RecordValue]
}

extension RecordJSONDecoder {
    /// The name, type and fields `names` of the stored record that `data` holds, each read as
    /// ``decode(_:from:)`` reads a ``Record``'s: a field whose value is `null` or missing is
    /// absent, as it is from the record's fields, and of a field given twice the first counts.
    ///
    /// `nil` whenever reading the whole record could say otherwise, so that the caller reads it
    /// whole, and meets the record's own value or error: JSON that is not the fast path's (see
    /// the type's discussion), a member that does not read, a record without a type (the
    /// server's deletion marker), or a name that is not ASCII, which the keys' bytes alone cannot
    /// match as `String`s compare.
    ///
    /// The names are an array, not any collection: the store calls this from its own module, where
    /// a generic would not be specialised, and would step through the names by witness calls.
    package static func fieldValues(_ names: [String], ofRecordIn data: Data) -> RecordFieldValues? {
        guard names.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }),
            case .parsed(let tape) = JSONTape.parsing(data, maximumDepth: WireJSON.maximumNesting),
            tape.kind(at: 0) == .object
        else { return nil }
        let members = WireRecord.Members(of: WireReader(tape, at: 0))
        do {
            guard let recordType = try members.optionalMember(.recordType)?.string(), !recordType.isEmpty else {
                return nil
            }
            var read = RecordFieldValues(
                recordName: try members.member(.recordName).string(), recordType: recordType, values: [:])
            guard let fields = try members.optionalMember(.fields) else { return read }
            // The record reads its fields as an object, even when it has none asked for here.
            guard case .object = fields.kind else { return nil }
            for name in names {
                // Of an object, a lookup throws only for a key it lacks: a field the record has not.
                guard let field = try? fields.member(name) else { continue }
                // A field that is `null` fails here as it fails in the whole record.
                if case .value(let value, _, _) = try WireField.content(of: field) { read.values[name] = value }
            }
            return read
        } catch {
            return nil
        }
    }
}

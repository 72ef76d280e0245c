import Foundation

/// The record a model is writing, piece by piece, until the engine finishes it: everything about
/// one record that changes while its model's `encode(to:)` runs.
///
/// Each piece has one owner, which alone changes it and keeps its rules:
/// - `fields`: the fields and their size, owned by ``RecordFieldWriter``;
/// - `identity`: the record's name and metadata, owned by ``RecordIdentity``;
/// - `nestedValues`: values built through nested containers, owned by ``NestedFieldValues``;
/// - `encryptedKeys`: the keys that ``Encrypted`` properties wrote, in order, repeats allowed;
///   turned into field names only when the record is finished (see `encryptedFieldNames(in:)`);
/// - `systemFields`: the value of a ``RecordSystemFieldsArchive`` property, whose archive is put
///   on the finished record (``Record/systemFieldsArchive``) and which names a record whose model
///   has no identifier;
/// - `rejectedTopLevel`: the first top-level container the model asked for that a record cannot
///   hold, thrown when the record is finished, so that a model that catches the error of its
///   write still fails.
///
/// Only ``RecordEncodingEngine`` holds a draft, one record at a time: an engine kept for its
/// type's next record clears it in place (``clear(startingFrom:allowsShortcut:)``), which must
/// leave every piece as a new draft has it.
struct RecordDraft {
    var fields: RecordFieldWriter
    var identity = RecordIdentity()
    var nestedValues = NestedFieldValues()
    var encryptedKeys: [String] = []
    /// Boxed: a reference is cheaper to test and clear, record after record, than an existential.
    var systemFields: KeptSystemFields?
    var rejectedTopLevel: String?

    init(fields: RecordFieldWriter) {
        self.fields = fields
    }

    /// Empties the draft for the next record of its type, which starts from `layout`. Only what a
    /// record changed is written again, so that a kept engine starts its next record at little cost.
    mutating func clear(startingFrom layout: FieldLayout?, allowsShortcut: Bool) {
        fields.clear(startingFrom: layout, allowsShortcut: allowsShortcut)
        if identity.wroteIdentifier || identity.metadata != nil { identity = RecordIdentity() }
        if !nestedValues.isEmpty { nestedValues = NestedFieldValues() }
        if !encryptedKeys.isEmpty { encryptedKeys = [] }
        if systemFields != nil { systemFields = nil }
        rejectedTopLevel = nil
    }
}

/// The value of a ``RecordSystemFieldsArchive`` property that a record's model wrote.
final class KeptSystemFields {
    let value: any RecordSystemFieldsArchive

    init(_ value: any RecordSystemFieldsArchive) {
        self.value = value
    }
}

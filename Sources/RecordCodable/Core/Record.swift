import Foundation

/// A flat, typed record: the shape of CloudKit's `CKRecord`.
///
/// A record has a type (the kind of thing it stores, like a table name), a name that identifies it
/// within its zone, a dictionary of typed fields, and the system fields that the server assigns
/// when it saves the record.
///
/// You rarely build a record by hand. ``RecordEncoder`` turns a `Codable` model into one, and
/// ``RecordDecoder`` turns it back:
///
/// ```swift
/// struct Note: Codable {
///     var id: String
///     var title: String
///     var pinned: Bool
/// }
///
/// let record = try RecordEncoder().encode(Note(id: "N1", title: "Hello", pinned: true))
/// record.recordType      // "Note"
/// record.recordName      // "N1"
/// record["title"]        // .string("Hello")
/// record["pinned"]       // .int64(1)
/// ```
///
/// A record's `Codable` form is the record dictionary of CloudKit Web Services, so
/// `JSONEncoder().encode(record)` gives the JSON that `records/modify` expects and
/// `JSONDecoder().decode(Record.self, from:)` reads what `records/query` and `records/lookup`
/// return.
public struct Record: Hashable, Sendable {
    /// The kind of record, such as `"Note"`: the schema its fields follow.
    public var recordType: String

    /// The record's unique name within its zone.
    public var recordName: String

    /// The record's fields by name. A field that is absent has no value.
    ///
    /// A record read from JSON keeps its fields as read, and builds this dictionary the first time
    /// it is asked for, then keeps it; each ask takes a lock. Its subscript, ``subscript(_:)``,
    /// finds a field without building anything. Taking the fields `inout`, to change them, makes
    /// the dictionary the record's own from then on.
    public var fields: [String: RecordValue] {
        get { fieldStorage.dictionary }
        _modify {
            // The dictionary is taken out of the record while it changes, so that it is not
            // shared, and changes in place.
            var fields = fieldStorage.dictionaryToChange
            fieldStorage = .dictionary([:])
            defer { fieldStorage = .dictionary(fields) }
            yield &fields
        }
        set { fieldStorage = .dictionary(newValue) }
    }

    /// The fields, as a dictionary or as read from JSON (see ``FieldStorage``).
    private(set) var fieldStorage: FieldStorage

    /// The system fields that the server assigned when it last saved the record, or `nil` for a
    /// record that the server has not seen yet.
    ///
    /// Its ``RecordMetadata/recordName`` is always the record's own ``recordName`` (`nil` while
    /// that is empty), whatever was set: in a record, the name is the record's.
    public var metadata: RecordMetadata? {
        get {
            guard var metadata = metadataBox?.value else { return nil }
            metadata.recordName = recordName.isEmpty ? nil : recordName
            return metadata
        }
        set { metadataBox = newValue.map(Shared.init) }
    }

    /// The metadata, kept apart: most records have none, and a record that holds its metadata
    /// inline is four times the size, which every copy of a record pays for.
    private var metadataBox: Shared<RecordMetadata>?

    /// The names of the fields that CloudKit keeps encrypted.
    ///
    /// A field named here is written to CloudKit's JSON with its plain type and
    /// `"isEncrypted": true`, and a field that the server sends encrypted — in that form, or typed
    /// `ENCRYPTED_BYTES`, `ENCRYPTED_STRING` and so on — is read into its plain value with its name
    /// added here. Encryption applies in the private and shared databases only, never to assets
    /// or references, and an encrypted field cannot be queried or sorted on.
    ///
    /// A name here without a field in ``fields``, or among ``clearedFields``, writes nothing,
    /// and equality leaves it out: two records that write the same JSON are equal. It stays here,
    /// so that a field can be marked before it has a value.
    public var encryptedFields: Set<String> = []

    /// The names in ``encryptedFields`` that write something: those of fields with a value, or
    /// cleared. What equality compares.
    private var writtenEncryptedFields: Set<String> {
        guard !encryptedFields.isEmpty else { return [] }
        let cleared = clearedFields
        return encryptedFields.filter { self[$0] != nil || cleared.contains($0) }
    }

    /// The record's parent in a shared hierarchy: sharing the parent shares this record with it.
    ///
    /// CloudKit reads it from a saved record's `parent` key and returns it with the record. Unlike
    /// a ``RecordReference`` field, it takes no action on deletion, and its record must be in the
    /// same zone.
    public var parent: RecordReference? {
        get { extrasBox?.value.parent }
        set { changeExtras { $0.parent = newValue } }
    }

    /// The names of the fields that saving this record clears on the server.
    ///
    /// ``RecordEncoder/encode(_:updating:)`` names here each field that the original
    /// record had and the edited model no longer writes, such as a property set to `nil`. An
    /// `update` then sends each as `{"value": null}`, with its type when the record knows it,
    /// and the server removes the field; fields named nowhere are left as they are. A name that
    /// is also in ``fields`` is not cleared: the field is written with its value.
    ///
    /// A field that the server sends with a `null` value, or none, is absent from ``fields``, and
    /// its name is kept here, so that the record's JSON reads back as it was.
    public var clearedFields: Set<String> {
        get {
            guard let cleared = extrasBox?.value.clearedFields, !cleared.isEmpty else { return [] }
            return cleared.filter { self[$0] == nil }
        }
        set { changeExtras { $0.clearedFields = newValue } }
    }

    /// The field type, as CloudKit names it (`"INT64_LIST"`), of fields whose value does not tell
    /// it: a cleared field, and an empty list, which would otherwise be written as a
    /// `STRING_LIST` — a type the server refuses for a field its schema has as another list. Kept
    /// from what the server sent, and from the original of an update; a hint for writing only,
    /// which equality ignores.
    var fieldTypeHints: [String: String] {
        get { extrasBox?.value.fieldTypeHints ?? [:] }
        set { changeExtras { $0.fieldTypeHints = newValue } }
    }

    /// The type of a field for writing it: its value's, unless the value does not tell (an empty
    /// list, or no value), when the hint kept for it is used.
    func typeName(ofField name: String) -> String? {
        if let value = self[name], !value.isEmptyList { return value.typeName }
        return fieldTypeHints[name]
    }

    /// Whether the record was made as an update of a record the server has, by ``update(to:)`` or
    /// ``RecordEncoder/encode(_:updating:)``: it holds only what changed, so ``RecordOperation``
    /// saves it with an `update`, even when the original it was made from had no change tag (a
    /// create would make a record of the changed fields alone). Outside equality, and not written
    /// to JSON: a request read back keeps each operation's type, but a record read back alone is
    /// saved by its change tag, as any record is.
    var isUpdate: Bool {
        get { extrasBox?.value.isUpdate ?? false }
        set { changeExtras { $0.isUpdate = newValue } }
    }

    /// The fields of the record as the server sent it that could not be read, and so are not in
    /// ``fields``: set on the part of a record of a page that reads, when the whole does not.
    /// Saving never writes them: an update leaves them as the server has them, and a replace,
    /// which would clear them, is refused. Outside equality, and not written to JSON.
    var unreadFields: Set<String> {
        get { extrasBox?.value.unreadFields ?? [] }
        set { changeExtras { $0.unreadFields = newValue } }
    }

    /// The archive of the record's system fields that a platform bridge keeps (a model property
    /// of the bridge's system-fields type wrote it, or the bridge read it with the record), so
    /// that the model's next save rebuilds the platform's record from it. Opaque bytes: outside
    /// equality and hashing, and never written to JSON.
    package var systemFieldsArchive: Data? {
        get { extrasBox?.value.systemFieldsArchive }
        set { changeExtras { $0.systemFieldsArchive = newValue } }
    }

    /// What few records have beside their fields and metadata, kept apart for the same reason as
    /// the metadata.
    private var extrasBox: Shared<Extras>?

    private struct Extras: Hashable, Sendable {
        var parent: RecordReference?
        var clearedFields: Set<String> = []
        var fieldTypeHints: [String: String] = [:]
        var isUpdate = false
        var unreadFields: Set<String> = []
        var systemFieldsArchive: Data?
    }

    private mutating func changeExtras(_ change: (inout Extras) -> Void) {
        var extras = extrasBox?.value ?? Extras()
        change(&extras)
        extrasBox = extras == Extras() ? nil : Shared(extras)
    }

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - recordType: The kind of record, such as `"Note"`.
    ///   - recordName: The record's unique name within its zone.
    ///   - fields: The record's fields by name.
    ///   - metadata: The server's system fields, if the record came from the server.
    public init(
        recordType: String,
        recordName: String,
        fields: [String: RecordValue] = [:],
        metadata: RecordMetadata? = nil
    ) {
        self.recordType = recordType
        self.recordName = recordName
        self.fieldStorage = .dictionary(fields)
        self.metadataBox = metadata.map(Shared.init)
    }

    /// The value of a field, or `nil` when the record has no such field.
    ///
    /// Setting a field to `nil` removes it.
    public subscript(field: String) -> RecordValue? {
        get { fieldStorage.value(named: field) }
        set { fields[field] = newValue }
    }

    /// Whether the record keeps only its fields' values, and takes their names from an earlier
    /// record of its page that named the same fields (see ``ReadFields``).
    var sharesNames: Bool {
        if case .read(let fields) = fieldStorage { return fields.sharesNames }
        return false
    }

    /// Calls `body` with each field's name and value, in no particular order: for a record read
    /// from JSON, without building ``fields``.
    package func forEachField(_ body: (_ name: String, _ value: RecordValue) throws -> Void) rethrows {
        try fieldStorage.forEach(body)
    }

    /// The bytes this record costs against a record store's size limit.
    ///
    /// The size is the sum, over every field, of the UTF-8 bytes of the field's name and the
    /// ``RecordValue/encodedSize`` of its value. The record's name, type and metadata do not
    /// count, and neither does the file behind an asset: only the asset's reference does.
    ///
    /// ``RecordEncoder`` compares this size with its ``RecordEncoder/maximumRecordSize`` as it
    /// writes each field, and throws ``RecordEncodingError/recordTooLarge(size:limit:heaviestFields:)``
    /// when a record would exceed it.
    public var encodedSize: Int {
        var total = 0
        forEachField { name, value in total = total &+ name.utf8.count &+ value.encodedSize }
        return total
    }
}

extension Record {
    /// Whether two records have the same type, name, fields, encrypted fields, cleared fields,
    /// parent and metadata.
    ///
    /// Empty metadata, `RecordMetadata()`, is the same as none: the server has said nothing about
    /// either record, and neither writes any metadata to CloudKit's JSON.
    public static func == (first: Record, second: Record) -> Bool {
        first.recordType == second.recordType && first.recordName == second.recordName
            && first.fields == second.fields && first.writtenEncryptedFields == second.writtenEncryptedFields
            && first.parent == second.parent && first.clearedFields == second.clearedFields
            && first.serverMetadata == second.serverMetadata
    }

    /// Hashes the parts of the record that `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(recordType)
        hasher.combine(recordName)
        hasher.combine(fields)
        hasher.combine(writtenEncryptedFields)
        hasher.combine(parent)
        hasher.combine(clearedFields)
        hasher.combine(serverMetadata)
    }

    /// The metadata, unless it is empty: what the server has said about the record.
    private var serverMetadata: RecordMetadata? {
        guard let metadata = metadataBox?.value, metadata != RecordMetadata() else { return nil }
        return metadata
    }

    /// A record whose metadata is already boxed.
    init(recordType: String, recordName: String, fields: [String: RecordValue], metadataBox: Shared<RecordMetadata>?) {
        self.recordType = recordType
        self.recordName = recordName
        self.fieldStorage = .dictionary(fields)
        self.metadataBox = metadataBox
    }

    /// A record of the fields a reader of JSON read, kept as it read them.
    init(recordType: String, recordName: String, readFields: ReadFields, metadata: RecordMetadata?) {
        self.recordType = recordType
        self.recordName = recordName
        self.fieldStorage = .read(readFields)
        self.metadataBox = metadata.map(Shared.init)
    }
}

extension Record: CustomReflectable {
    /// The record's parts as `print`, `dump` and debuggers show them: its type, name, fields and
    /// metadata, whichever way the record stores them, and its encrypted fields and parent when it
    /// has them.
    public var customMirror: Mirror {
        var children: [Mirror.Child] = [("recordType", recordType), ("recordName", recordName), ("fields", fields)]
        if !encryptedFields.isEmpty || extrasBox != nil {
            children += [
                ("encryptedFields", encryptedFields), ("clearedFields", clearedFields), ("parent", parent as Any),
            ]
        }
        children.append(("metadata", metadata as Any))
        return Mirror(self, children: children, displayStyle: .struct)
    }
}

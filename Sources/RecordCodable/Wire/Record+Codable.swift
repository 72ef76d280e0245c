import Foundation

/// A record's `Codable` form is the record dictionary of CloudKit Web Services.
///
/// ```json
/// { "recordName": "N1", "recordType": "Note", "recordChangeTag": "e",
///   "fields": {
///     "title": {"type": "STRING", "value": "Hello"},
///     "tags":  {"type": "STRING_LIST", "value": ["a", "b"]} },
///   "created": {"timestamp": 1699920000000, "userRecordName": "_3f", "deviceID": "2"} }
/// ```
///
/// Every field is written with its `type`; a field in ``Record/encryptedFields`` also with
/// `"isEncrypted": true`. Dates are whole milliseconds since 1970, rounded to the nearest; bytes
/// are Base64; an asset's local `fileURL` is not part of CloudKit's format and is left out. The
/// JSON is the same whatever key, date and data strategies the `JSONEncoder` has.
///
/// Reading accepts what CloudKit returns and what people write by hand: a record without
/// `recordType` (the server leaves it out of some answers) has an empty type, a field without `type`
/// takes the type its value implies (see <doc:TheWireFormat>), `ASSET` reads like `ASSETID`, an
/// encrypted field (`"isEncrypted": true`, or a type such as `ENCRYPTED_BYTES`) reads as its plain
/// value, a field whose value is `null` or missing is absent (its name kept in
/// ``Record/clearedFields``), and unknown keys are ignored.
/// Anything malformed is a `DecodingError` with its coding path.
extension Record: Codable, WireCodable {
    /// Writes the record as a CloudKit Web Services record dictionary.
    ///
    /// - Throws: `EncodingError.invalidValue` for a value that CloudKit's JSON cannot carry: a
    ///   `Double` that is NaN or infinite, a date beyond the milliseconds an `Int64` counts, or a
    ///   list that mixes kinds of values or holds lists.
    public func encode(to encoder: any Encoder) throws {
        try WireRecord.encode(self, to: encoder)
    }

    /// Reads a record from a CloudKit Web Services record dictionary.
    ///
    /// - Throws: `DecodingError`, with the coding path of the value that failed, for a missing
    ///   `recordName`, a field of an unknown type, a value of the wrong kind for its type, bad
    ///   Base64, an `INT64` that is fractional or beyond `Int64`, a list whose elements differ, and
    ///   every other malformed input.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Record.self, from: decoder)
    }

    init(wire reader: WireReader) throws {
        self = try WireRecord.record(from: reader)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        .object(try WireRecord.object(for: self, at: path, as: .stored))
    }
}

/// The record dictionary of CloudKit Web Services, written and read.
enum WireRecord {
    /// Where a record dictionary goes, which decides the keys it may have.
    enum Form {
        /// The record as the server has it, in a response: every key, system fields included.
        case stored
        /// The record in a save operation: only the keys a request may carry. The server sets
        /// the system fields itself and refuses a request that sends them, and the zone is the
        /// request's. An update may leave out the type, as Apple's own examples do; a record that
        /// the operation creates or replaces needs it.
        case saved(typeRequired: Bool)
    }

    // MARK: Writing

    /// Whether ``object(for:at:as:defersCommonFields:)`` leaves the common fields of records as
    /// values: set by ``RecordJSONEncoder`` while it builds a body to write, never otherwise.
    @TaskLocal static var defersCommonFields = false

    /// The record's dictionary as CloudKit Web Services has it in `form`.
    ///
    /// - Parameter defersCommonFields: Whether the fields of a common kind are left as values, for
    ///   ``JSONBytesWriter`` to write straight (``WireJSON/recordFields(_:)``). Their
    ///   JSON is always built without error, so leaving them changes neither the bytes nor which
    ///   error is thrown: the other fields are built, and fail, in the order of `record.fields`
    ///   either way. The default is ``defersCommonFields``, which ``RecordJSONEncoder`` sets while
    ///   it builds a body.
    static func object(
        for record: Record, at path: @autoclosure () -> [any CodingKey], as form: Form,
        defersCommonFields: Bool = defersCommonFields
    ) throws -> [String: WireJSON] {
        var object: [String: WireJSON] = [:]
        try forEachMember(of: record, at: path(), as: form, defersCommonFields: defersCommonFields) { key, member in
            object[key.description] = member.json
        }
        return object
    }

    /// A member of a record's dictionary: its JSON, or what ``JSONBytesWriter`` writes without
    /// building its JSON first.
    enum Member {
        case json(WireJSON)
        case reference(RecordReference)
        /// The record's fields, not looked at: handed over only when
        /// ``forEachMember(of:at:as:defersCommonFields:checksFields:_:)`` is asked not to check
        /// them, by a writer that checks each as it writes it.
        case uncheckedFields([String: RecordValue])

        /// The member's JSON.
        var json: WireJSON {
            switch self {
            case .json(let json): json
            case .reference(let reference): WireField.reference(reference)
            // Never asked of: only a writer asks for fields unchecked.
            case .uncheckedFields(let values): .commonFields(values)
            }
        }
    }

    /// Hands `body` each member of the record's dictionary as CloudKit Web Services has it in
    /// `form`, in the order of their keys' UTF-8 bytes (as `JSONEncoder` with `.sortedKeys`
    /// writes them): `created`, `deleted`, `fields`, `modified`, `parent`, `recordChangeTag`,
    /// `recordName`, `recordType`, `share`, `shortGUID`, `zoneID`, each when the record has it.
    ///
    /// The one description of a record's dictionary: ``object(for:at:as:defersCommonFields:)``
    /// builds it as a tree, and ``JSONBytesWriter`` writes it straight, with no dictionary of its
    /// members. Whatever can be refused is worked out before the first member is handed over, in
    /// this order: a missing record type, the fields in the order of `record.fields`, the cleared
    /// fields, the `created` and `modified` stamps. So the first error is the same whichever builds.
    ///
    /// - Parameters:
    ///   - defersCommonFields: As for ``object(for:at:as:defersCommonFields:)``.
    ///   - checksFields: Whether the fields are looked at, and built or refused, before the first
    ///     member is handed over. Without, they are handed over as ``Member/uncheckedFields(_:)``,
    ///     for a writer that writes a record of common fields in one pass and, at anything else or
    ///     any error, gives up and writes the record again with them checked
    ///     (``JSONBytesWriter/write(_:as:at:)``).
    static func forEachMember(
        of record: Record, at path: @autoclosure () -> [any CodingKey], as form: Form,
        defersCommonFields: Bool = defersCommonFields, checksFields: Bool = true,
        _ body: (_ key: StaticString, _ member: Member) throws -> Void
    ) throws {
        var isStored = false
        switch form {
        case .stored:
            isStored = true
        case .saved(let typeRequired):
            if record.recordType.isEmpty && typeRequired {
                throw EncodingError.invalid(
                    record.recordType, at: path() + [AnyCodingKey(stringValue: "recordType")],
                    "Record '\(record.recordName)' has no record type, which the server needs to save it.")
            }
        }
        let fields =
            checksFields
            ? Member.json(try fieldsObject(of: record, at: path(), as: form, defersCommonFields: defersCommonFields))
            : Member.uncheckedFields(record.fields)
        let metadata = record.metadata
        let stored = isStored ? metadata : nil
        let created = try stored?.created.map { try stamp($0, at: path(), key: "created") }
        let modified = try stored?.modified.map { try stamp($0, at: path(), key: "modified") }

        if let created { try body("created", .json(created)) }
        if stored?.deleted == true { try body("deleted", .json(.bool(true))) }
        try body("fields", fields)
        if let modified { try body("modified", .json(modified)) }
        if let parent = record.parent { try body("parent", .reference(parent)) }
        if let changeTag = metadata?.changeTag { try body("recordChangeTag", .json(.string(changeTag))) }
        // A saved record without a name is named by the server.
        if isStored || !record.recordName.isEmpty { try body("recordName", .json(.string(record.recordName))) }
        if isStored || !record.recordType.isEmpty { try body("recordType", .json(.string(record.recordType))) }
        if let share = stored?.share { try body("share", .reference(share)) }
        if let shortGUID = stored?.shortGUID { try body("shortGUID", .json(.string(shortGUID))) }
        if let zoneID = stored?.zoneID { try body("zoneID", .json(WireField.zoneID(zoneID))) }
    }

    /// The record's `fields` object, each field built as ``WireField`` builds it, or left as the
    /// record's values (see ``object(for:at:as:defersCommonFields:)``).
    private static func fieldsObject(
        of record: Record, at path: @autoclosure () -> [any CodingKey], as form: Form, defersCommonFields: Bool
    ) throws -> WireJSON {
        var fields: [String: WireJSON] = [:]
        let encrypted = record.encryptedFields
        for (name, value) in record.fields {
            // Built only for an error.
            func fieldPath() -> [any CodingKey] {
                path() + [AnyCodingKey(stringValue: "fields"), AnyCodingKey(stringValue: name)]
            }
            if case .saved = form { try requireUploaded(value, of: record, field: name, at: fieldPath()) }
            if defersCommonFields, DeferredFields.writesStraight(value, named: name, encrypted: encrypted) { continue }
            fields[name] = try WireField.object(
                for: value, typeHint: value.isEmptyList ? record.fieldTypeHints[name] : nil,
                encrypted: encrypted.contains(name), at: fieldPath())
        }
        var cleared: [String: WireJSON] = [:]
        for name in record.clearedFields {
            let json = try WireField.clearedObject(
                typeName: record.fieldTypeHints[name], encrypted: encrypted.contains(name),
                at: path() + [AnyCodingKey(stringValue: "fields"), AnyCodingKey(stringValue: name)])
            if defersCommonFields { cleared[name] = json } else { fields[name] = json }
        }
        guard defersCommonFields else { return .object(fields) }
        // Most often every field is written straight, which needs nothing but the values.
        guard fields.isEmpty && cleared.isEmpty && encrypted.isEmpty else {
            return .recordFields(
                DeferredFields(values: record.fields, encrypted: encrypted, built: fields, cleared: cleared))
        }
        return .commonFields(record.fields)
    }

    /// A record's `fields` object, left in part as the record's values (``WireJSON/recordFields(_:)``,
    /// or ``WireJSON/commonFields(_:)`` when it is all values): each field that
    /// ``writesStraight(_:named:encrypted:)`` is written from its value, and every other one from
    /// the JSON that ``object(for:at:as:defersCommonFields:)`` built for it, errors and all.
    struct DeferredFields: Hashable, Sendable {
        /// The record's fields.
        let values: [String: RecordValue]
        /// The record's encrypted fields.
        let encrypted: Set<String>
        /// The JSON of each field that is not written from its value.
        let built: [String: WireJSON]
        /// The JSON of the cleared fields, which have no value.
        let cleared: [String: WireJSON]

        init(
            values: [String: RecordValue], encrypted: Set<String> = [], built: [String: WireJSON] = [:],
            cleared: [String: WireJSON] = [:]
        ) {
            self.values = values
            self.encrypted = encrypted
            self.built = built
            self.cleared = cleared
        }

        /// Whether a field is written from its value: it is of a common kind, whose JSON is always
        /// built without error (``WireField/isCommon(_:)``), and not an encrypted reference, which
        /// CloudKit refuses to encrypt. (An encrypted field is written with its marker.)
        static func writesStraight(_ value: RecordValue, named name: String, encrypted: Set<String>) -> Bool {
            WireField.isCommon(value)
                && (encrypted.isEmpty || WireField.canBeEncrypted(value) || !encrypted.contains(name))
        }

        /// The JSON built for the field `name`, or `nil` for a field written from its value.
        @inline(__always)
        func builtJSON(of name: String, _ value: RecordValue) -> WireJSON? {
            if built.isEmpty || Self.writesStraight(value, named: name, encrypted: encrypted) { return nil }
            return built[name]
        }

        /// Whether the field `name` is marked encrypted.
        @inline(__always)
        func isEncrypted(_ name: String) -> Bool {
            !encrypted.isEmpty && encrypted.contains(name)
        }

        /// The members of the object the fields stand for, each as ``WireField`` builds it.
        var object: [String: WireJSON] {
            var object = built.merging(cleared) { built, _ in built }
            for (name, value) in values where object[name] == nil {
                // A common value's JSON is always built: `null` is never taken, and would keep
                // the field rather than drop it.
                object[name] = (try? WireField.object(for: value, encrypted: isEncrypted(name), at: [])) ?? .null
            }
            return object
        }
    }

    /// Refuses to save an asset that the server cannot resolve: a local file not uploaded yet,
    /// which has neither the upload's receipt nor a checksum of a file the server has.
    private static func requireUploaded(
        _ value: RecordValue, of record: Record, field: String, at path: @autoclosure () -> [any CodingKey]
    ) throws {
        // Most values hold no asset: they are looked through without an array of their assets.
        let elements: [RecordValue]
        switch value {
        case .asset: elements = [value]
        case .list(let list): elements = list
        default: return
        }
        for element in elements {
            guard case .asset(let asset) = element, !asset.isKnownToServer else { continue }
            let file = asset.fileURL.map { " (\($0.path))" } ?? ""
            throw EncodingError.invalid(
                asset, at: path(),
                "The asset in field '\(field)' of record '\(record.recordName)' is a file\(file) that the server "
                    + "has not received: upload it first (assets/upload, see AssetsUploadRequest), then save the "
                    + "record with the asset the upload returns.")
        }
    }

    private static func stamp(
        _ stamp: RecordMetadata.Stamp, at path: @autoclosure () -> [any CodingKey], key: String
    ) throws -> WireJSON {
        let timestamp = try WireField.milliseconds(
            stamp.timestamp, at: path() + [AnyCodingKey(stringValue: key), AnyCodingKey(stringValue: "timestamp")])
        var object: [String: WireJSON] = ["timestamp": timestamp]
        object.set("userRecordName", stamp.userRecordName.map(WireJSON.string))
        object.set("deviceID", stamp.deviceID.map(WireJSON.string))
        return .object(object)
    }

    // MARK: Reading

    /// Reads a record dictionary. A stored record must have a name; a record in a save operation
    /// may leave it to the server.
    static func record(from reader: WireReader, as form: Form = .stored) throws -> Record {
        try record(from: reader, as: form, fieldErrors: nil)
    }

    /// The errors of the fields that did not read, by field name, for a record read in part.
    final class FieldErrors {
        var byName: [String: DecodingError] = [:]
    }

    /// What reads of a stored record dictionary that does not read whole: the record with every
    /// field that reads, and the error of each field that does not. The record is `nil` when its
    /// own keys (its name, system fields or parent) do not read.
    static func readablePart(from reader: WireReader) -> (record: Record?, fieldErrors: [String: DecodingError]) {
        let fieldErrors = FieldErrors()
        var record = try? self.record(from: reader, as: .stored, fieldErrors: fieldErrors)
        // Saved, the part is an update: a create or a replace of it would lose the fields not read.
        record?.unreadFields = Set(fieldErrors.byName.keys)
        record?.isUpdate = true
        return (record, fieldErrors.byName)
    }

    /// Reads a record dictionary; with `fieldErrors`, a field that does not read is left out and
    /// its error kept there, rather than thrown.
    private static func record(from reader: WireReader, as form: Form, fieldErrors: FieldErrors?) throws -> Record {
        let members = Members(of: reader)
        let recordName: String
        switch form {
        case .stored: recordName = try members.member(.recordName).string()
        case .saved: recordName = try members.optionalMember(.recordName)?.string() ?? ""
        }
        let metadata = try self.metadata(from: members)
        // The server leaves the type out of some answers: a deleted record, or a save whose
        // request asked for no fields back.
        let recordType = try members.optionalMember(.recordType)?.string() ?? ""
        var fields: [String: RecordValue] = [:]
        var encryptedFields: Set<String> = []
        var clearedFields: Set<String> = []
        var typeHints: [String: String] = [:]
        if let fieldsReader = try members.optionalMember(.fields) {
            // Room for every field at once: growing a dictionary field by field rehashes it.
            fields.reserveCapacity(fieldsReader.memberCount)
            try fieldsReader.forEachMember { name, field in
                let content: WireField.Content
                if let fieldErrors {
                    do {
                        content = try WireField.content(of: field)
                    } catch let error as DecodingError {
                        fieldErrors.byName[name] = error
                        return
                    }
                } else {
                    content = try WireField.content(of: field)
                }
                switch content {
                case .value(let value, let typeName, let isEncrypted):
                    if isEncrypted { encryptedFields.insert(name) }
                    // An empty list keeps the type the server has for its field.
                    if value.isEmptyList, let typeName { typeHints[name] = typeName }
                    fields[name] = value
                case .cleared(let typeName, let isEncrypted):
                    clearedFields.insert(name)
                    if isEncrypted { encryptedFields.insert(name) }
                    if let typeName { typeHints[name] = typeName }
                }
            }
        }
        var record = Record(recordType: recordType, recordName: recordName, fields: fields, metadata: metadata)
        if !encryptedFields.isEmpty { record.encryptedFields = encryptedFields }
        if !clearedFields.isEmpty { record.clearedFields = clearedFields }
        if !typeHints.isEmpty { record.fieldTypeHints = typeHints }
        // Setting no parent would still cost the record's extras a look.
        if let parent = try members.optionalMember(.parent).map(WireField.reference(from:)) { record.parent = parent }
        return record
    }

    private static func metadata(from members: Members) throws -> RecordMetadata? {
        let changeTag = try members.optionalMember(.recordChangeTag)?.string()
        let created = try members.optionalMember(.created).map { try stamp(from: $0) }
        let modified = try members.optionalMember(.modified).map { try stamp(from: $0) }
        let zoneID = try members.optionalMember(.zoneID).map { try WireField.zoneID(from: $0) }
        let deleted = try members.optionalMember(.deleted)?.bool()
        let share = try members.optionalMember(.share).map(WireField.reference(from:))
        let shortGUID = try members.optionalMember(.shortGUID)?.string()
        return metadata(
            changeTag: changeTag, created: created, modified: modified, zoneID: zoneID, deleted: deleted,
            share: share, shortGUID: shortGUID)
    }

    /// The metadata of a record dictionary's system fields, each as read (`nil` when missing or
    /// `null`); `nil` when it has none.
    static func metadata(
        changeTag: String?, created: RecordMetadata.Stamp? = nil, modified: RecordMetadata.Stamp? = nil,
        zoneID: RecordZoneID? = nil, deleted: Bool? = nil, share: RecordReference? = nil, shortGUID: String? = nil
    ) -> RecordMetadata? {
        // A record the server has not seen has none of them: no metadata, without building an
        // empty one to compare with.
        if changeTag == nil, created == nil, modified == nil, zoneID == nil, deleted == nil, share == nil,
            shortGUID == nil
        {
            return nil
        }
        let metadata = RecordMetadata(
            changeTag: changeTag, created: created, modified: modified, zoneID: zoneID, deleted: deleted ?? false,
            share: share, shortGUID: shortGUID)
        return metadata == RecordMetadata() && deleted == nil ? nil : metadata
    }

    private static func stamp(from reader: WireReader) throws -> RecordMetadata.Stamp {
        RecordMetadata.Stamp(
            timestamp: try reader.member("timestamp").timestamp(),
            userRecordName: try reader.optionalMember("userRecordName")?.string(),
            deviceID: try reader.optionalMember("deviceID")?.string())
    }
}

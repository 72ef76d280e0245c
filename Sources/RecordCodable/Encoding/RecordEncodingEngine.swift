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
    /// What the engine knows of the model's type; replaced when a record teaches a new layout.
    private var typeInfo: ModelEncodingInfo
    /// The graph this record belongs to, when ``RecordEncoder/encodeGraph(_:)`` collects linked
    /// models; `nil` when linked models are written as references alone.
    let graph: GraphEncoding?
    /// The name of the record when the model encodes no identifier; else a new UUID.
    private let fallbackName: String?
    /// What each property becomes: the one place that decides it (see ``PropertyRoles``). Only
    /// the identifier is encoded when the engine works out a linked model's name: nothing else
    /// about the model is then encoded or checked.
    let roles: PropertyRoles

    // The engine's mutable state. An engine is used by one call to `encode(_:)` on one thread,
    // and no access to this state lasts across a call into a model's code (a value is encoded
    // first and stored after; the only code that runs inside an access is a custom key strategy,
    // which is handed keys and cannot reach the engine), so accesses never overlap: the run-time
    // exclusivity checks, which cost as much as a field's own work, are turned off.

    /// The record being written (see ``RecordDraft``).
    @exclusivity(unchecked) private(set) var draft: RecordDraft
    /// A value encoder that finished its value and can encode the next one.
    @exclusivity(unchecked) private var spareValueEncoder: ValueEncoder?

    /// The action of references to linked models written now: set by a ``Link`` property wrapper
    /// while its value is encoded.
    private(set) var linkAction = RecordReference.Action.none

    /// How many values are being encoded inside one another now, each by a value encoder of its
    /// own (a wrapper's value, a list's element): one while a property's value encodes itself.
    /// Raised and lowered around each, by `findForm` alone, and never above
    /// ``maximumValueNesting``.
    var valueNesting = 0

    /// How many values may be encoded inside one another. Each level is a value's own
    /// `encode(to:)` calling into the engine, which takes stack: about 6 KB a level in a debug
    /// build, where some 85 levels fill a secondary thread's 512 KB stack, and more with
    /// AddressSanitizer. A value nested deeper (a long chain of wrappers, a recursive enum holding
    /// deep lists) is an error, not a crash.
    static let maximumValueNesting = 64

    /// Whether the model's type was found to be one that a record can hold, at the engine's first
    /// record; an engine kept for the next record of its type does not ask again.
    private var modelTypeIsChecked = false

    init(
        options: RecordEncoder, typeInfo: ModelEncodingInfo, graph: GraphEncoding?, fallbackName: String? = nil,
        encodesIdentifierOnly: Bool = false
    ) {
        self.options = options
        self.typeInfo = typeInfo
        self.graph = graph
        self.fallbackName = fallbackName
        roles = PropertyRoles(options: options, encodesIdentifierOnly: encodesIdentifierOnly)
        // Without the caches, every record starts from no layout, and so writes every key by name.
        let layout = options.usesEncodingCaches ? typeInfo.layout(for: options.keyEncodingStrategy) : nil
        let allowsShortcut = layout.map(roles.allAreFields(in:)) ?? false
        draft = RecordDraft(
            fields: RecordFieldWriter(
                layout: layout, strategy: options.keyEncodingStrategy, allowsShortcut: allowsShortcut))
        layoutAskedForShortcut = layout
        layoutAllowsShortcut = allowsShortcut
    }

    /// Makes an engine ready to be kept for the next record of its type (see ``SpareEngines``): its
    /// draft is emptied and starts from the layout this engine last learned, so that a kept engine
    /// holds nothing of the record it wrote.
    func clearForNextRecord() {
        let layout = typeInfo.layout(for: options.keyEncodingStrategy)
        draft.clear(startingFrom: layout, allowsShortcut: allowsShortcut(from: layout))
    }

    /// The layout last asked about in ``allowsShortcut(from:)``, and its answer: asked once per
    /// layout, as a kept engine starts most records from the layout of the last.
    private var layoutAskedForShortcut: FieldLayout?
    private var layoutAllowsShortcut = false

    /// Whether a record that starts from `layout` may write the keys the layout expects by the
    /// field writer's shortcut (see ``RecordFieldWriter``), which stores a value as a field and
    /// nothing else: only when every key of the layout is a field (``PropertyRoles/allAreFields(in:)``).
    /// Worked out once per layout.
    private func allowsShortcut(from layout: FieldLayout?) -> Bool {
        if layout !== layoutAskedForShortcut {
            layoutAskedForShortcut = layout
            layoutAllowsShortcut = layout.map(roles.allAreFields(in:)) ?? false
        }
        return layoutAllowsShortcut
    }

    /// Makes a kept engine ready for its next record: its spare value encoder refers to it again.
    func resume() {
        spareValueEncoder?.attach(to: self)
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

    /// The role of the property under the key named `keyName` (see ``PropertyRoles``).
    @inline(__always)
    func role(ofKeyNamed keyName: String) -> PropertyRole {
        roles.role(ofKeyNamed: keyName)
    }

    /// Stores a property's value as its role says: as the record's name when `key` is the
    /// identifier, else as the field named for `key`. `nil` stores nothing, and removes a field
    /// written before. `canBeIdentifier` is false for a `Bool`, stored as an integer, which may not
    /// name a record.
    ///
    /// The way of every property that does not take the shortcut (``storeExpected(_:size:keyName:)``); not
    /// generic over the value and not inlined, so that its one copy for each type of key serves
    /// every property.
    @inline(never)
    func store(
        _ value: __owned RecordValue?, size: Int, forKey key: some CodingKey, named keyName: String,
        canBeIdentifier: Bool = true
    ) throws {
        let role = role(ofKeyNamed: keyName)
        if role == .skipped { return }
        // A value written under a key replaces a nested container asked for under it before.
        if !draft.nestedValues.isEmpty { dropNestedValue(named: keyName) }
        switch role {
        case .field, .metadata, .systemFieldsArchive, .skipped:
            // (Metadata and the system fields' archive are told by their type, before any value is stored.)
            try draft.fields.write(value, size: size, keyName: keyName, forKey: key)
        case .identifier, .identifierAndField:
            guard canBeIdentifier else {
                throw draft.identity.refuse(
                    .invalid(
                        value == .int64(1), at: .field(key),
                        "The identifier '\(keyName)' must be a String, a UUID or an integer to name the record, "
                            + "but it is a Bool."))
            }
            // Most models name their records with text that CloudKit takes as it is: named without
            // the general way, which says what is wrong with any other value.
            let named = if case .string(let text)? = value { draft.identity.setName(text) } else { false }
            if !named { try draft.identity.setName(value, forKey: key) }
            if role == .identifierAndField, let value {
                try draft.fields.write(value, size: size, keyName: keyName, forKey: key)
            }
        }
    }

    /// Whether the value for the key named `keyName` may be stored by ``storeExpected(_:size:keyName:)``:
    /// the record's learned layout expects it next, and so it is a field (see
    /// ``PropertyRoles/allAreFields(in:)``).
    @inline(__always)
    func expects(_ keyName: String) -> Bool {
        draft.fields.expects(keyName)
    }

    /// Stores the value of the key named `keyName`, which the record's layout expects next
    /// (``expects(_:)`` said so), as its field. Not generic and not inlined: every property of every
    /// model that takes this way shares its one copy, so that the code a record runs through stays
    /// small.
    ///
    /// Should the layout hold no place for it after all, the value is stored by its role
    /// (``store(_:size:forKey:named:canBeIdentifier:)``), as it would be without the layout: no
    /// value is lost.
    @inline(never)
    func storeExpected(_ value: __owned RecordValue, size: Int, keyName: String) throws {
        guard let slot = draft.fields.expectedSlot() else {
            return try storeUnplaced(value, size: size, keyName: keyName)
        }
        draft.fields.writeExpected(value, size: size, at: slot)
    }

    /// Stores by its role a value that ``storeExpected(_:size:keyName:)`` found no place for.
    @inline(never)
    private func storeUnplaced(_ value: __owned RecordValue, size: Int, keyName: String) throws {
        try store(value, size: size, forKey: AnyCodingKey(stringValue: keyName), named: keyName)
    }

    /// Stores a field that `encodeField(_:at:)` built, or nothing for `nil`. The value moves into
    /// the record: copying it out of `field` would retain its text or list, and releasing `field`
    /// would undo that, on every property.
    @inline(__always)
    func store(_ field: consuming EncodedValue?, forKey key: some CodingKey, named keyName: String) throws {
        guard let field = consume field else { return try store(nil, size: 0, forKey: key, named: keyName) }
        let size = field.size
        try store((consume field).value, size: size, forKey: key, named: keyName)
    }

    /// Notes a property that the model left out as `nil` (`encodeIfPresent`): a `nil` identifier
    /// names no record, which the server then names.
    @inline(__always)
    func noteAbsentValue(forKey key: some CodingKey) {
        if role(ofKeyNamed: key.stringValue).namesRecord { draft.identity.noteAbsentIdentifier() }
    }

    /// Tells the fields written so far, with keys of `keyType`, from those a superclass writes
    /// next into the same record: the two may not share a field.
    func separateSuperclassFields(writtenWith keyType: any CodingKey.Type) {
        draft.fields.separateSuperclassFields(writtenWith: ObjectIdentifier(keyType))
    }

    /// The record's name, once the model has encoded its identifier.
    var encodedRecordName: String? { draft.identity.name }

    /// Whether the model wrote its identifier, `nil` included.
    var wroteIdentifier: Bool { draft.identity.wroteIdentifier }

    /// Whether the identifier's value could not name the record.
    var refusedRecordName: Bool { draft.identity.refusedName }

    /// Runs `body` with references to linked models taking `action`.
    func withLinkAction<Result>(_ action: RecordReference.Action, _ body: () throws -> Result) rethrows -> Result {
        let outer = linkAction
        linkAction = action
        defer { linkAction = outer }
        return try body()
    }

    func setMetadata(_ metadata: RecordMetadata?) {
        draft.identity.setMetadata(metadata)
    }

    /// Keeps the value of a ``RecordSystemFieldsArchive`` property, for the finished record.
    func setSystemFields(_ systemFields: (any RecordSystemFieldsArchive)?) {
        draft.systemFields = systemFields.map(KeptSystemFields.init)
    }

    /// Notes that an ``Encrypted`` property wrote the key named `keyName`.
    func noteEncryptedKey(named keyName: String) {
        draft.encryptedKeys.append(keyName)
    }

    /// The value that a nested container of `kind` for `key` writes into, stored when the model is
    /// done; `kind` is `nil` for `superEncoder(forKey:)` (see ``NestedFieldValues``). A container
    /// of the other kind than the one already there is a misuse (see ``TreeValue``), thrown when
    /// the record is finished.
    func nestedValue(_ kind: TreeValue.ContainerKind?, forKey key: some CodingKey) -> TreeValue {
        draft.fields.closeShortcut()
        let name = key.stringValue
        let role = role(ofKeyNamed: name)
        let keyHasValue =
            kind != nil
            && (draft.fields.hasValue(forKeyNamed: name, key) || (role.namesRecord && draft.identity.name != nil))
        return draft.nestedValues.value(kind, forKey: key, keyHasValue: keyHasValue, isKept: role != .skipped)
    }

    /// Drops the value that nested containers were building for the key named `name`: a value
    /// written under a key after them replaces it, as in Foundation's JSON encoder.
    @inline(never)
    private func dropNestedValue(named name: String) {
        draft.nestedValues.drop(named: name)
    }

    // MARK: Value encoders

    /// A value encoder for the value at `path`: the spare one if there is one.
    func makeValueEncoder(at path: consuming CodingPath, isElement: Bool) -> ValueEncoder {
        // Taken, not copied: the spare's reference moves out.
        let encoder = spareValueEncoder.take() ?? ValueEncoder(engine: self)
        encoder.start(at: path, isElement: isElement)
        return encoder
    }

    /// Lets go of the spare value encoder's reference back to the engine, once the engine's record
    /// is done: the reference would make a cycle, and keep the engine from being kept for the next
    /// record. A spare that anything else refers to is let go instead.
    func detachSpareValueEncoder() {
        guard var spare = spareValueEncoder.take() else { return }
        guard isKnownUniquelyReferenced(&spare) else { return }
        spare.attach(to: nil)
        spareValueEncoder = spare
    }

    /// Keeps a value encoder for the next value, unless the value kept a reference to it.
    func recycle(_ encoder: inout ValueEncoder) {
        if isKnownUniquelyReferenced(&encoder) { spareValueEncoder = encoder }
    }

    // MARK: Finishing

    /// The record, once the model's `encode(to:)` has returned.
    ///
    /// What most records need is written here; what few need — a top-level container to refuse,
    /// values of nested containers to store, a layout to note, encrypted fields — is done out of
    /// line, so that a record runs through little code.
    func finish<T>(encoding value: T) throws -> Record {
        if draft.rejectedTopLevel != nil || !draft.nestedValues.isEmpty { try finishNestedValues(of: value) }
        let (fields, newLayout) = draft.fields.finish()
        guard draft.fields.size <= options.maximumRecordSize else { throw recordTooLarge(fields) }
        if let newLayout { note(newLayout, of: T.self) }
        // Most records: named by the identifier, with nothing of the model's to add.
        if let name = draft.identity.name, draft.identity.metadata == nil, draft.systemFields == nil,
            draft.encryptedKeys.isEmpty, !options.finishesWithMore
        {
            return Record(recordType: typeInfo.recordType, recordName: name, fields: fields, metadataBox: nil)
        }
        return try finishedWithMore(value, fields: fields)
    }

    /// The record of a model that has more than an identifier and fields: metadata that may name
    /// it, no identifier, encrypted fields, an archive of system fields, or an encoder that puts
    /// records in a zone.
    @inline(never)
    private func finishedWithMore<T>(_ value: T, fields: [String: RecordValue]) throws -> Record {
        let recordName: String
        if let name = draft.identity.name, draft.identity.metadata == nil {
            recordName = name
        } else {
            recordName = try finishedRecordName(of: value, fields: fields)
        }
        if options.zoneID != nil { try placeInEncoderZone(value) }
        var record = Record(
            recordType: typeInfo.recordType, recordName: recordName, fields: fields,
            metadataBox: draft.identity.metadata)
        if !draft.encryptedKeys.isEmpty || options.hasEncryptedKeys {
            record.encryptedFields = try encryptedFieldNames(in: fields)
        }
        if let systemFields = draft.systemFields {
            record.systemFieldsArchive = systemFields.value.recordSystemFieldsArchive
        }
        return record
    }

    /// Throws for a top-level container the model asked for that a record cannot hold, then stores
    /// the values that the model built through nested containers.
    @inline(never)
    private func finishNestedValues<T>(of value: T) throws {
        if let rejected = draft.rejectedTopLevel {
            throw EncodingError.invalid(
                value, at: .root,
                "Top-level \(T.self) encoded \(rejected), but a record holds named fields: "
                    + "encode a struct or class with a keyed container.")
        }
        // Taken out first: storing a nested value runs the values written into it.
        for pending in draft.nestedValues.takeAll() {
            if let misuse = pending.value.firstMisuse { throw misuse }
            let path = CodingPath(parent: .root, last: .key(pending.key))
            try store(encodeField(pending.value, at: path), forKey: pending.key, named: pending.key.stringValue)
        }
    }

    /// Keeps `layout`, which this record taught, for the type's next records, unless the encoder
    /// keeps no layouts (``RecordEncoder/usesEncodingCaches``).
    @inline(never)
    private func note<T>(_ layout: FieldLayout, of type: T.Type) {
        guard options.usesEncodingCaches else { return }
        typeInfo = ModelEncodingInfo.noteLayout(layout, for: options.keyEncodingStrategy, of: type)
    }

    /// The record's name when its identifier gave none, or the model wrote its metadata
    /// (``finish(encoding:)`` takes the identifier's value itself otherwise).
    ///
    /// In order: the identifier's value, which must agree with the metadata's
    /// ``RecordMetadata/recordName`` when both are there; the metadata's name; the name of the
    /// record whose system fields a ``RecordSystemFieldsArchive`` property holds; for a linked model,
    /// the name its references give it. With none of these, a record whose metadata has a change
    /// tag is an error: the server has that record, and no new name may stand for it. Else the
    /// name is empty for an identifier that is `nil`, so that the server names the record, or a
    /// new UUID, or empty for an encoder that does not name such models.
    @inline(never)
    private func finishedRecordName<T>(of value: T, fields: [String: RecordValue]) throws -> String {
        let metadata = draft.identity.metadata?.value
        if let name = try draft.identity.name(agreeingWith: metadata, identifierKey: roles.identifierKey) {
            return name
        }
        if let name = draft.systemFields?.value.recordSystemFieldsRecordName { return name }
        if let fallbackName { return fallbackName }
        if let changeTag = metadata?.changeTag { throw unprovableName(of: value, changeTag: changeTag) }
        if draft.identity.wroteIdentifier { return "" }
        if options.identifierKeyIsExplicit, let identifierKey = roles.identifierKey {
            // A key set by hand that the model never writes is a mistake, such as "ID" for `id`:
            // without this, every encode would name the record anew and keep the identifier as a field.
            let written = fields.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
            throw EncodingError.invalid(
                value, at: .root,
                "The identifier key '\(identifierKey)' was set, but \(T.self) does not encode it; it wrote "
                    + (written.isEmpty ? "no field" : written)
                    + ". Set identifierKey to the key of the model's identifier, or to nil to name each record "
                    + "with a new UUID.")
        }
        return options.namesUnidentifiedModels ? UUID().uuidString : ""
    }

    /// The error for a model whose metadata has a change tag, but whose record has no name to
    /// prove which record the tag belongs to.
    @inline(never)
    private func unprovableName<T>(of value: T, changeTag: String) -> EncodingError {
        EncodingError.invalid(
            value, at: .root,
            "\(T.self)'s metadata has the change tag '\(changeTag)' of a record the server has, but no record "
                + "name: the model has no identifier, and the metadata no recordName. Keep the metadata that "
                + "RecordDecoder read (its recordName names the record), or give the model an identifier.")
    }

    /// Puts the record in the encoder's zone (``RecordEncoder/zoneID``): the zone of its
    /// metadata, which holds only the zone when the model wrote none. Metadata of another zone
    /// is an error, since a record cannot move from one zone to another.
    @inline(never)
    private func placeInEncoderZone<T>(_ value: T) throws {
        guard let zoneID = options.zoneID else { return }
        var metadata = draft.identity.metadata?.value ?? RecordMetadata()
        if let other = metadata.zoneID {
            guard other == zoneID else {
                throw EncodingError.invalid(
                    value, at: .root,
                    "\(T.self)'s metadata places its record in zone '\(other.zoneName)', but the encoder writes "
                        + "records to zone '\(zoneID.zoneName)': a record cannot move between zones. Encode it "
                        + "with an encoder whose zoneID is the record's, or nil.")
            }
            return
        }
        metadata.zoneID = zoneID
        draft.identity.setMetadata(metadata)
    }

    /// Lets go of the values the model was building, when encoding stops early with an error.
    func abandon() {
        _ = draft.nestedValues.takeAll()
    }

    @inline(never)
    private func recordTooLarge(_ fields: [String: RecordValue]) -> RecordEncodingError {
        let sizes: [(name: String, size: Int)] = fields.map { name, value in
            (name, name.utf8.count &+ value.encodedSize)
        }
        // At most three, and only those that weigh: a field of under a twentieth of the record
        // would not bring it under the limit if it moved to an asset.
        let total = draft.fields.size
        let sorted = sizes.sorted { first, second in
            first.size != second.size ? first.size > second.size : first.name < second.name
        }
        let heaviest = sorted.prefix(3).enumerated()
            .filter { index, field in index == 0 || field.size >= total / 20 }
            .map(\.element.name)
        return .recordTooLarge(size: total, limit: options.maximumRecordSize, heaviestFields: heaviest)
    }

    /// Throws when the model's type cannot be a record (see ``rejectSingleValue(_:at:)``). Asked
    /// at the engine's first record only: an engine encodes records of one type.
    func checkModelType<T: Encodable>(of value: T) throws {
        guard !modelTypeIsChecked else { return }
        try rejectSingleValue(value)
        modelTypeIsChecked = true
    }

    /// Throws when `value` is of a type stored as a single field, such as a `Date` or a `URL`,
    /// which cannot be a whole record even if its own `encode(to:)` uses a keyed container.
    func rejectSingleValue<T: Encodable>(_ value: T, at path: CodingPath = .root) throws {
        // The type is asked first: a model, which is not such a type, pays one lookup.
        guard SpecialType(T.self) != nil, let special = encodeSpecial(value) else { return }
        rejectTopLevel("a single \(T.self)")
        throw EncodingError.invalid(
            value, at: path,
            "Top-level \(T.self) is stored as \(special.value.kindDescription), but a record holds named fields: "
                + "encode a struct or class with a keyed container.")
    }

    /// Records that the model asked for a top-level container a record cannot hold.
    func rejectTopLevel(_ what: String) {
        draft.rejectedTopLevel = draft.rejectedTopLevel ?? what
    }

    // MARK: Nested values as JSON

    /// The coder for values stored as JSON (see ``NestedJSON``), with this encoder's `userInfo`.
    private lazy var jsonEncoder: JSONEncoder = {
        guard !options.userInfo.isEmpty else { return NestedJSON.encoder }
        let encoder = NestedJSON.makeEncoder()
        encoder.userInfo = options.userInfo
        return encoder
    }()

    /// The JSON of `value`, with any error's coding path starting at `path`.
    func encodeJSON<T: Encodable>(_ value: T, at path: CodingPath) throws -> Data {
        do {
            return try jsonEncoder.encode(value)
        } catch let error as EncodingError {
            throw error.prefixingPath(with: path.keys)
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

    /// A value whose size the caller worked out as it built it. Checked in debug builds.
    init(_ value: RecordValue, size: Int) {
        assert(size == value.encodedSize, "EncodedValue.size must be the value's encodedSize")
        self.value = value
        self.size = size
    }
}

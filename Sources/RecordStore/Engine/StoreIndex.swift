/// The store's index, kept in memory: for each record, where its latest entry is in the journal
/// and its sync status; for each zone, its sync token.
///
/// Opening the store builds it from the journal; each commit updates it. Reading a record is a
/// look-up here, then one read at the offset it gives.
///
/// Records are filed by zone and name, then by type: CloudKit names a record by zone and name
/// alone, and its messages sometimes leave the type out (a deleted record in a page of changes,
/// a reference to a linked record), so the index finds a record by name without a type as
/// cheaply as with one.
///
/// Opened from a checkpoint, the index is that checkpoint (read as it is, never loaded into
/// dictionaries; see ``CheckpointRecords``) with the changes since kept here over it: a name
/// changed since is copied here whole, all its types, and a name removed since stays here as
/// ``Types/vacant``, hiding the checkpoint's records of it.
///
/// A look-up that reads the checkpoint can throw: the checkpoint is checked a block at a time
/// as it is read, and when a block is damaged, its records are replayed from the journal, which
/// can fail. A change therefore looks its record up first (``place(for:)``), before anything is
/// written, and is then made without a look-up that could fail (``set(_:at:)``).
struct StoreIndex {
    /// What the index keeps of a record.
    struct Slot: Hashable {
        var location: EntryLocation
        var state: RecordState

        var status: SyncStatus {
            get { state.status }
            set { state.status = newValue }
        }
    }

    /// The records of one name in one zone: nearly always one type.
    fileprivate enum Types {
        /// None: while a slot is being replaced, or a name the checkpoint has that is removed.
        case vacant
        case one(recordType: String, Slot)
        case many([String: Slot])
    }

    /// A record's key and what the checkpoint holds under its name, looked up ahead of a
    /// change: with it, ``set(_:at:)`` changes the record without reading the checkpoint.
    struct Place {
        let key: RecordKey
        fileprivate let nameKey: NameInZone
        /// The checkpoint's records of the name, which a name not changed since inherits.
        fileprivate let inherited: Types?
    }

    private var byName: [NameInZone: Types] = [:]
    private var tokens: [String: (token: String, owner: String?, location: EntryLocation)] = [:]
    /// The checkpoint's records, under ``byName``.
    private(set) var checkpoint: CheckpointRecords?

    /// An empty index.
    init() {}

    /// The index that `checkpoint` holds: its records read through `records`.
    init(checkpoint: IndexCheckpoint, records: CheckpointRecords) {
        self.checkpoint = records
        count = checkpoint.recordCount
        liveBytes = checkpoint.liveBytes
        for token in checkpoint.tokens {
            tokens[token.zone] = (token.token, token.owner, token.location)
        }
    }

    /// The types of `nameKey` in the checkpoint, if it has any.
    private func checkpointTypes(of nameKey: NameInZone) throws -> Types? {
        guard let found = try checkpoint?.records(named: nameKey.name, inZone: nameKey.zone), let first = found.first
        else { return nil }
        guard found.count > 1 else { return .one(recordType: first.recordType, first.slot) }
        return .many(Dictionary(found, uniquingKeysWith: { _, last in last }))
    }

    /// How many records the index holds.
    private(set) var count = 0

    /// The bytes of the journal's live entries: those no later entry replaced.
    private(set) var liveBytes = 0

    /// The record of `key`.
    subscript(key: RecordKey) -> Slot? {
        get throws {
            Self.slot(of: key.recordType, in: try byName[key.nameInZone] ?? checkpointTypes(of: key.nameInZone))
        }
    }

    private static func slot(of recordType: String, in types: Types?) -> Slot? {
        switch types {
        case .one(let onlyType, let slot): onlyType == recordType ? slot : nil
        case .many(let slots): slots[recordType]
        case .vacant, nil: nil
        }
    }

    /// Where the record of `key` is kept, for a change to it: this is the look-up that can fail.
    func place(for key: RecordKey) throws -> Place {
        let nameKey = key.nameInZone
        return Place(key: key, nameKey: nameKey, inherited: try checkpointTypes(of: nameKey))
    }

    /// The record at `place`, as the index holds it now.
    func slot(at place: Place) -> Slot? {
        Self.slot(of: place.key.recordType, in: byName[place.nameKey] ?? place.inherited)
    }

    /// Changes the record at `place` to `newValue`; `nil` removes it.
    mutating func set(_ newValue: Slot?, at place: Place) {
        let nameKey = place.nameKey
        // A name the checkpoint has is copied here before it changes.
        if byName[nameKey] == nil, let inherited = place.inherited {
            byName[nameKey] = inherited
        }
        // One look-up of the name: the entry is found, or made, and changed in place.
        let old = Self.replace(place.key.recordType, with: newValue, in: &byName[nameKey, default: .vacant])
        // A name left without records is forgotten, unless it hides the checkpoint's.
        if newValue == nil, case .vacant = byName[nameKey], place.inherited == nil {
            byName[nameKey] = nil
        }
        if let old { account(removing: old) }
        if let newValue { account(adding: newValue) }
    }

    /// Changes the record of `key` to `newValue`, looking it up first.
    mutating func set(_ newValue: Slot?, for key: RecordKey) throws {
        set(newValue, at: try place(for: key))
    }

    /// Replaces the slot of `recordType` among `types` with `slot`, and returns the old one.
    private static func replace(_ recordType: String, with slot: Slot?, in types: inout Types) -> Slot? {
        switch types {
        case .vacant:
            if let slot { types = .one(recordType: recordType, slot) }
            return nil
        case .one(let onlyType, let old) where onlyType == recordType:
            types = slot.map { .one(recordType: recordType, $0) } ?? .vacant
            return old
        case .one(let onlyType, let other):
            if let slot { types = .many([onlyType: other, recordType: slot]) }
            return nil
        case .many(var slots):
            let old: Slot?
            if let slot {
                old = slots.updateValue(slot, forKey: recordType)
            } else {
                old = slots.removeValue(forKey: recordType)
            }
            if slots.count == 1, let only = slots.first {
                types = .one(recordType: only.key, only.value)
            } else {
                types = .many(slots)
            }
            return old
        }
    }

    /// Makes room for `count` records, so that opening a large store fills the index without
    /// growing it again and again.
    mutating func reserveCapacity(_ count: Int) {
        byName.reserveCapacity(count)
    }

    private mutating func account(adding slot: Slot) {
        count += 1
        liveBytes += Self.cost(of: slot.location)
    }

    private mutating func account(removing slot: Slot) {
        count -= 1
        liveBytes -= Self.cost(of: slot.location)
    }

    /// The records named `name` in `zone`, of any type.
    func records(named name: String, inZone zone: String) throws -> [(key: RecordKey, slot: Slot)] {
        let nameKey = NameInZone(zone: zone, name: name)
        return switch try byName[nameKey] ?? checkpointTypes(of: nameKey) {
        case .one(let recordType, let slot):
            [(RecordKey(zone: zone, recordType: recordType, recordName: name), slot)]
        case .many(let slots):
            slots.map { (RecordKey(zone: zone, recordType: $0.key, recordName: name), $0.value) }
        case .vacant, nil:
            []
        }
    }

    /// Every record whose key and slot pass `include`, in no particular order.
    func records(where include: (RecordKey, Slot) -> Bool) throws -> [(key: RecordKey, slot: Slot)] {
        var found: [(key: RecordKey, slot: Slot)] = []
        for (nameKey, types) in byName {
            switch types {
            case .one(let recordType, let slot):
                let key = RecordKey(zone: nameKey.zone, recordType: recordType, recordName: nameKey.name)
                if include(key, slot) { found.append((key, slot)) }
            case .many(let slots):
                for (recordType, slot) in slots {
                    let key = RecordKey(zone: nameKey.zone, recordType: recordType, recordName: nameKey.name)
                    if include(key, slot) { found.append((key, slot)) }
                }
            case .vacant:
                break
            }
        }
        try checkpoint?.forEachRecord { key, slot in
            if byName[key.nameInZone] == nil, include(key, slot) { found.append((key, slot)) }
        }
        return found
    }

    /// The sync token of `zone`, with its owner and where it is in the journal.
    func syncTokenEntry(forZone zone: String) -> IndexCheckpoint.Token? {
        tokens[zone].map { IndexCheckpoint.Token(zone: zone, token: $0.token, owner: $0.owner, location: $0.location) }
    }

    /// Every zone's sync token, with its owner and where it is in the journal.
    var syncTokens: [IndexCheckpoint.Token] {
        tokens.map {
            IndexCheckpoint.Token(
                zone: $0.key, token: $0.value.token, owner: $0.value.owner, location: $0.value.location)
        }
    }

    /// The sync token of `zone`.
    func syncToken(forZone zone: String) -> String? {
        tokens[zone]?.token
    }

    /// The zones that have a sync token.
    var zonesWithSyncTokens: [String] { Array(tokens.keys) }

    /// The owner the server named for `zone`, kept with its sync token.
    func owner(ofZone zone: String) -> String? {
        tokens[zone]?.owner
    }

    /// Keeps `token` as `zone`'s sync token, with the zone's `owner`, written at `location`;
    /// `nil` forgets both.
    mutating func setSyncToken(_ token: String?, owner: String?, forZone zone: String, at location: EntryLocation) {
        if let old = tokens[zone] { liveBytes -= Self.cost(of: old.location) }
        tokens[zone] = token.map { ($0, owner, location) }
        if token != nil { liveBytes += Self.cost(of: location) }
    }

    /// Applies an entry the journal holds at `location`.
    mutating func apply(_ summary: JournalEntry.Summary, at location: EntryLocation) throws {
        switch summary {
        case .record(let key, let state):
            try set(Slot(location: location, state: state), for: key)
        case .removal(let key):
            try set(nil, for: key)
        case .syncToken(let zone, let token, let owner):
            setSyncToken(token, owner: owner, forZone: zone, at: location)
        }
    }

    /// Every live entry, and what owns it: what compaction copies.
    func liveEntries() throws -> [LiveEntry] {
        var entries = try records(where: { _, _ in true }).map { LiveEntry.record($0.key, $0.slot) }
        for (zone, token) in tokens {
            entries.append(
                .syncToken(
                    IndexCheckpoint.Token(
                        zone: zone, token: token.token, owner: token.owner, location: token.location)))
        }
        return entries
    }

    /// A live entry of the journal, and what owns it.
    enum LiveEntry {
        case record(RecordKey, Slot)
        case syncToken(IndexCheckpoint.Token)

        var location: EntryLocation {
            switch self {
            case .record(_, let slot): slot.location
            case .syncToken(let token): token.location
            }
        }
    }

    /// The index of `entries` once compaction has copied each to the location of the same
    /// place in `locations`: every live entry is in it, and no checkpoint under it.
    init(moving entries: [LiveEntry], to locations: [EntryLocation]) {
        byName.reserveCapacity(entries.count)
        for (entry, location) in zip(entries, locations) {
            switch entry {
            case .record(let key, var slot):
                slot.location = location
                set(slot, at: Place(key: key, nameKey: key.nameInZone, inherited: nil))
            case .syncToken(let token):
                setSyncToken(token.token, owner: token.owner, forZone: token.zone, at: location)
            }
        }
    }

    /// What an entry costs the journal: its bytes and their length.
    private static func cost(of location: EntryLocation) -> Int {
        Int(location.count) + 4
    }
}

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
/// dictionaries) with the changes since kept here over it: a name changed since is copied here
/// whole, all its types, and a name removed since stays here as ``Types/vacant``, hiding the
/// checkpoint's records of it.
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

    /// What owns an entry of the journal that is still live.
    enum Owner: Hashable {
        case record(RecordKey)
        case syncToken(zone: String)
    }

    /// The records of one name in one zone: nearly always one type.
    private enum Types {
        /// None: while a slot is being replaced, or a name the checkpoint has that is removed.
        case vacant
        case one(recordType: String, Slot)
        case many([String: Slot])
    }

    private var byName: [NameInZone: Types] = [:]
    private var tokens: [String: (token: String, owner: String?, location: EntryLocation)] = [:]
    /// The checkpoint the index was opened from, under ``byName``.
    private(set) var checkpoint: IndexCheckpoint?

    /// An empty index.
    init() {}

    /// The index that `checkpoint` holds.
    init(checkpoint: IndexCheckpoint) {
        self.checkpoint = checkpoint
        count = checkpoint.recordCount
        liveBytes = checkpoint.liveBytes
        for token in checkpoint.tokens {
            tokens[token.zone] = (token.token, token.owner, token.location)
        }
    }

    /// The types of `nameKey` in the checkpoint, if it has any.
    private func checkpointTypes(of nameKey: NameInZone) -> Types? {
        guard let found = checkpoint?.records(named: nameKey.name, inZone: nameKey.zone), let first = found.first
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
        get {
            switch byName[key.nameInZone] ?? checkpointTypes(of: key.nameInZone) {
            case .one(let recordType, let slot): recordType == key.recordType ? slot : nil
            case .many(let slots): slots[key.recordType]
            case .vacant, nil: nil
            }
        }
        set {
            let nameKey = key.nameInZone
            // A name the checkpoint has is copied here before it changes.
            if checkpoint != nil, byName[nameKey] == nil, let inherited = checkpointTypes(of: nameKey) {
                byName[nameKey] = inherited
            }
            // One look-up of the name: the entry is found, or made, and changed in place.
            let old = Self.replace(key.recordType, with: newValue, in: &byName[nameKey, default: .vacant])
            if newValue == nil, case .vacant = byName[nameKey], checkpointTypes(of: nameKey) == nil {
                byName[nameKey] = nil
            }
            if let old { account(removing: old) }
            if let newValue { account(adding: newValue) }
        }
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
    func records(named name: String, inZone zone: String) -> [(key: RecordKey, slot: Slot)] {
        let nameKey = NameInZone(zone: zone, name: name)
        return switch byName[nameKey] ?? checkpointTypes(of: nameKey) {
        case .one(let recordType, let slot):
            [(RecordKey(zone: zone, recordType: recordType, recordName: name), slot)]
        case .many(let slots):
            slots.map { (RecordKey(zone: zone, recordType: $0.key, recordName: name), $0.value) }
        case .vacant, nil:
            []
        }
    }

    /// Every record whose key and slot pass `include`, in no particular order.
    func records(where include: (RecordKey, Slot) -> Bool) -> [(key: RecordKey, slot: Slot)] {
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
        checkpoint?.forEachRecord { key, slot in
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
    mutating func apply(_ summary: JournalEntry.Summary, at location: EntryLocation) {
        switch summary {
        case .record(let key, let state):
            self[key] = Slot(location: location, state: state)
        case .removal(let key):
            self[key] = nil
        case .syncToken(let zone, let token, let owner):
            setSyncToken(token, owner: owner, forZone: zone, at: location)
        }
    }

    /// Every live entry, and what owns it: what compaction copies.
    func liveEntries() -> [(owner: Owner, location: EntryLocation)] {
        var entries = records(where: { _, _ in true }).map { (Owner.record($0.key), $0.slot.location) }
        for (zone, token) in tokens {
            entries.append((.syncToken(zone: zone), token.location))
        }
        return entries
    }

    /// Forgets the checkpoint, once every record it holds is here: after compaction has moved
    /// every live entry, the checkpoint holds nothing that is not here, or that is not removed.
    mutating func forgetCheckpoint() {
        guard checkpoint != nil else { return }
        checkpoint = nil
        byName = byName.filter {
            if case .vacant = $0.value { false } else { true }
        }
    }

    /// Moves an entry that compaction copied.
    mutating func move(_ owner: Owner, to location: EntryLocation) {
        switch owner {
        case .record(let key):
            if var slot = self[key] {
                slot.location = location
                self[key] = slot
            }
        case .syncToken(let zone):
            if let token = tokens[zone] { setSyncToken(token.token, owner: token.owner, forZone: zone, at: location) }
        }
    }

    /// What an entry costs the journal: its bytes and their length.
    private static func cost(of location: EntryLocation) -> Int {
        Int(location.count) + 4
    }
}

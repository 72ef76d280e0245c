import RecordCodable

/// Things bound for the server — operations, record names to look up — grouped by the zone each
/// goes to.
///
/// The store names a zone by its name (``RecordKey/zone``); the server, by its name and its
/// owner. Each thing comes with the zone ID its record knows, if any, and the rule is:
/// - Within one name, things go to the one owner their records know, and those whose records know
///   none go with them: a record made here names no owner, and a fetched one names the user
///   even in the user's own zone.
/// - When none of them knows an owner, they go to the owner the store's records of that name say
///   (see ``ZoneOwners``), if they say one.
/// - When records of one name know two owners (zones that two people shared with the user), each
///   owner's go to that owner's zone, and those that know none to the user's own zone.
/// - A zone ID of another name than the store's zone says nothing: the record was saved into
///   this zone from another one.
struct ZoneGroups<Thing> {
    /// What was added, by zone name: each thing with the owner its record knows.
    private var byName: [String: [(owner: String?, thing: Thing)]] = [:]

    /// Adds `thing`, bound for the store's zone `zone`, whose record knows the zone as `zoneID`.
    mutating func add(_ thing: Thing, toZone zone: String, knownAs zoneID: RecordZoneID?) {
        let owner = zoneID?.zoneName == zone ? zoneID?.ownerRecordName : nil
        byName[zone, default: []].append((owner, thing))
    }

    /// The groups, by zone name and then by owner, the user's own zone first; each group's things
    /// in the order they were added.
    ///
    /// - Parameter knownOwner: The owner the store knows for a zone name, asked for only for a
    ///   name none of whose things knows one.
    func groups(knownOwner: (String) throws -> String?) rethrows -> [(zoneID: RecordZoneID, things: [Thing])] {
        try byName.sorted { $0.key < $1.key }.flatMap { name, added in
            let owners = Set(added.compactMap(\.owner))
            guard owners.count > 1 else {
                let owner = try owners.first ?? knownOwner(name)
                return [(RecordZoneID(zoneName: name, ownerRecordName: owner), added.map(\.thing))]
            }
            return Dictionary(grouping: added, by: \.owner).sorted { ($0.key ?? "") < ($1.key ?? "") }.map {
                owner, added in (RecordZoneID(zoneName: name, ownerRecordName: owner), added.map(\.thing))
            }
        }
    }
}

/// What the store's records say of the owner of each zone name, from the zone IDs they name:
/// for the records made here, which name none, so that they go to the zone their name stands for.
///
/// Owned by the store's engine, under its lock. A name is worked out from the stored records when
/// it is asked for, and kept until a commit changes a record filed under that name (``forget(_:)``),
/// so it is always what the records say now.
struct ZoneOwners {
    /// What the records of one zone name say of its owner.
    enum Knowledge: Equatable {
        /// No record names an owner: the user's own zone.
        case none
        /// Records name this owner, and no other.
        case one(String)
        /// Records name two owners or more: zones of one name that two people shared.
        case several

        /// The knowledge once a record naming `owner` is seen too.
        func adding(_ owner: String?) -> Knowledge {
            guard let owner else { return self }
            switch self {
            case .none: return .one(owner)
            case .one(let known): return known == owner ? self : .several
            case .several: return self
            }
        }

        /// The owner a record that names none goes to.
        var owner: String? {
            if case .one(let owner) = self { return owner }
            return nil
        }
    }

    /// The names worked out since their records last changed.
    private var known: [String: Knowledge] = [:]

    /// The owner the store's records say for `zone`, worked out with `zoneIDs` (the zone IDs of
    /// the records filed under that name) unless known since their last change.
    mutating func owner(ofZone zone: String, zoneIDs: () throws -> [RecordZoneID]) rethrows -> String? {
        if let knowledge = known[zone] { return knowledge.owner }
        let knowledge = try zoneIDs().reduce(Knowledge.none) { knowledge, zoneID in
            zoneID.zoneName == zone ? knowledge.adding(zoneID.ownerRecordName) : knowledge
        }
        known[zone] = knowledge
        return knowledge.owner
    }

    /// Forgets what was worked out for `zone`: a record filed under it changed.
    mutating func forget(_ zone: String) {
        known[zone] = nil
    }
}

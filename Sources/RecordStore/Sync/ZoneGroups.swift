import RecordCodable

/// Things bound for the server — operations, record names to look up — grouped by the zone each
/// goes to.
///
/// The store names a zone by its name (``RecordKey/zone``); the server, by its name and its
/// owner. Each thing comes with the zone ID its record knows, if any, and the rule is:
/// - A thing whose record names an owner for the zone goes to that owner's zone, and so does a
///   thing pinned to a zone (its record was sent there already, and the answer has not come).
/// - A thing whose record names none goes with the others of its zone name: to the one owner they
///   name, if they name exactly one (a record made here names no owner, and a fetched one names
///   the user even in the user's own zone); else to the user's own zone.
/// - A zone ID of another name than the store's zone says nothing: the record was saved into this
///   zone from another one.
struct ZoneGroups<Thing> {
    /// What was added, by zone name: each thing with the owner its record names, and whether it
    /// is pinned to that owner (`nil` then meaning the user's own zone).
    private var byName: [String: [(owner: String?, pinned: Bool, thing: Thing)]] = [:]

    /// Adds `thing`, bound for the store's zone `zone`, whose record knows the zone as `zoneID`,
    /// or was sent to `sentTo` already.
    mutating func add(_ thing: Thing, toZone zone: String, knownAs zoneID: RecordZoneID?, sentTo: RecordZoneID? = nil) {
        if let zoneID, zoneID.zoneName == zone, let owner = zoneID.ownerRecordName {
            byName[zone, default: []].append((owner, true, thing))
        } else if let sentTo, sentTo.zoneName == zone {
            byName[zone, default: []].append((sentTo.ownerRecordName, true, thing))
        } else {
            byName[zone, default: []].append((nil, false, thing))
        }
    }

    /// The groups, by zone name and then by owner, the user's own zone first; each group's things
    /// in the order they were added.
    var groups: [(zoneID: RecordZoneID, things: [Thing])] {
        byName.sorted { $0.key < $1.key }.flatMap { name, added in
            let owners = Set(added.compactMap(\.owner))
            let joined = owners.count == 1 ? owners.first : nil
            let byOwner = Dictionary(grouping: added) { $0.pinned ? $0.owner : joined }
            return byOwner.sorted { ($0.key ?? "") < ($1.key ?? "") }.map { owner, added in
                (RecordZoneID(zoneName: name, ownerRecordName: owner), added.map(\.thing))
            }
        }
    }
}

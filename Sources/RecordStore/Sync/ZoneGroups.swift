import RecordCodable

/// Things bound for the server — operations, record names to look up — grouped by the zone each
/// goes to.
///
/// The store names a zone by its name (``RecordKey/zone``); the server, by its name and its
/// owner. Each thing comes with the zone ID its record knows, if any, and the rule is:
/// - Within one name, things go to the one owner their records know, and those whose records know
///   none go with them: a record made here names no owner, and a fetched one names the user
///   even in the user's own zone.
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
    var groups: [(zoneID: RecordZoneID, things: [Thing])] {
        byName.sorted { $0.key < $1.key }.flatMap { name, added in
            let owners = Set(added.compactMap(\.owner))
            guard owners.count > 1 else {
                return [(RecordZoneID(zoneName: name, ownerRecordName: owners.first), added.map(\.thing))]
            }
            return Dictionary(grouping: added, by: \.owner).sorted { ($0.key ?? "") < ($1.key ?? "") }.map {
                owner, added in (RecordZoneID(zoneName: name, ownerRecordName: owner), added.map(\.thing))
            }
        }
    }
}

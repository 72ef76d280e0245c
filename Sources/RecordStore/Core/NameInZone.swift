/// A record's zone and name, whatever its type: what CloudKit names a record by, and what a
/// reference names.
struct NameInZone: Hashable {
    var zone: String
    var name: String
}

extension RecordKey {
    /// The key's zone and name.
    var nameInZone: NameInZone { NameInZone(zone: zone, name: recordName) }
}

import Foundation
import RecordCodable

/// One zone of the stand-in's database: its records, the deletions it remembers, and the counter
/// its changes are numbered by.
///
/// Each save and deletion takes the zone's next change number. A sync token is the number of the
/// last change a page holds, as text (`"<zone>:<number>"`): the changes after it are the records
/// and deletions whose number is greater, in order of number.
struct StandInZone {
    let zoneID: RecordZoneID
    /// The records, by name, as the server has them: metadata with change tag and stamps.
    var records: [String: Record] = [:]
    /// The change number of each record's last save.
    var changeNumbers: [String: Int] = [:]
    /// The records deleted, by name, with the change number of the deletion.
    var deletions: [String: Int] = [:]
    /// The number of the zone's last change.
    var lastChange = 0

    init(zoneID: RecordZoneID) {
        self.zoneID = zoneID
    }

    /// Saves `record` as the server's version, with a new change tag `tag` and `now` as its
    /// modification time (and creation time, for a new record).
    mutating func save(_ record: Record, tag: String, now: RecordMetadata.Stamp) {
        var saved = record
        saved.clearedFields = []
        let created = records[record.recordName]?.metadata?.created ?? now
        saved.metadata = RecordMetadata(changeTag: tag, created: created, modified: now)
        lastChange += 1
        records[record.recordName] = saved
        changeNumbers[record.recordName] = lastChange
        deletions[record.recordName] = nil
    }

    /// Deletes the record named `name`.
    mutating func delete(_ name: String) {
        lastChange += 1
        records[name] = nil
        changeNumbers[name] = nil
        deletions[name] = lastChange
    }

    /// The sync token that stands for change `number`.
    func token(_ number: Int) -> String { "\(zoneID.zoneName):\(number)" }

    /// The change number a sync token stands for: 0 for none; `nil` for a token this zone did not
    /// give.
    func changeNumber(of token: String?) -> Int? {
        guard let token else { return 0 }
        let prefix = "\(zoneID.zoneName):"
        guard token.hasPrefix(prefix), let number = Int(token.dropFirst(prefix.count)), number >= 0,
            number <= lastChange
        else { return nil }
        return number
    }

    /// The page of changes after change `number`: at most `limit` records and deletions, in the
    /// order they were made, each record as it is now.
    func changes(after number: Int, limit: Int) -> RecordsChangesResponse {
        var changed: [(number: Int, result: RecordResult)] = []
        for (name, change) in changeNumbers where change > number {
            if let record = records[name] { changed.append((change, .success(record))) }
        }
        for (name, change) in deletions where change > number {
            var marker = Record(recordType: "", recordName: name)
            marker.metadata = RecordMetadata(deleted: true)
            changed.append((change, .success(marker)))
        }
        changed.sort { $0.number < $1.number }
        let page = changed.prefix(max(limit, 1))
        let end = page.count < changed.count ? (page.last?.number ?? number) : lastChange
        return RecordsChangesResponse(
            records: page.map(\.result), syncToken: token(end), moreComing: page.count < changed.count, zoneID: zoneID)
    }
}

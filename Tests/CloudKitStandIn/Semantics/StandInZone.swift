import Foundation
import RecordCodable

/// One zone of the stand-in's database: its records, the deletions it remembers, and the counter
/// its changes are numbered by.
///
/// Each save and deletion takes the zone's next change number, and goes into the zone's log, in
/// order. A sync token is the number of the last change a page holds, as text
/// (`"<zone>:<number>"`): the changes after it are the log's entries past that number that are
/// still current — a record's last save, or its deletion — so that a page costs what it holds,
/// not the zone's size.
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
    /// Every change, in order: its number and the record's name. An entry is current while its
    /// number is the record's last change (in ``changeNumbers`` or ``deletions``).
    private var log: [(number: Int, name: String)] = []

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
        log.append((lastChange, record.recordName))
        records[record.recordName] = saved
        changeNumbers[record.recordName] = lastChange
        deletions[record.recordName] = nil
    }

    /// Deletes the record named `name`.
    mutating func delete(_ name: String) {
        lastChange += 1
        log.append((lastChange, name))
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
        // The log is sorted by number: find the first entry past `number`.
        var low = 0
        var high = log.count
        while low < high {
            let middle = low + (high - low) / 2
            if log[middle].number <= number { low = middle + 1 } else { high = middle }
        }
        var index = low
        var page: [RecordResult] = []
        var end = number
        while index < log.count, page.count < max(limit, 1) {
            let (change, name) = log[index]
            index += 1
            if changeNumbers[name] == change, let record = records[name] {
                page.append(.success(record))
            } else if deletions[name] == change {
                var marker = Record(recordType: "", recordName: name)
                marker.metadata = RecordMetadata(deleted: true)
                page.append(.success(marker))
            } else {
                continue
            }
            end = change
        }
        while index < log.count, !isCurrent(log[index]) { index += 1 }
        let moreComing = index < log.count
        return RecordsChangesResponse(
            records: page, syncToken: token(moreComing ? end : lastChange), moreComing: moreComing, zoneID: zoneID)
    }

    /// Whether a log entry is its record's last change.
    private func isCurrent(_ entry: (number: Int, name: String)) -> Bool {
        changeNumbers[entry.name] == entry.number || deletions[entry.name] == entry.number
    }
}

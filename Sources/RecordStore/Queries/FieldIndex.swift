import Foundation
import RecordCodable

/// A secondary index of one field of one record type: each record's value, and the records
/// sorted by value, then key.
///
/// Its one owner is ``SecondaryIndexes``, which the store touches only with its lock held.
struct FieldIndex {
    /// A record's value, as the sorted entries hold it.
    struct Entry {
        var value: RecordValue
        var key: RecordKey
    }

    /// The value of each record that has the field.
    private(set) var values: [RecordKey: RecordValue] = [:]
    /// The records that lack the field.
    private(set) var missing: Set<RecordKey> = []
    /// The records with the field, by value then key; stale while `isSorted` is false.
    private var entries: [Entry] = []
    private var isSorted = true

    /// Sets the value of `key`'s field: `nil` when its record lacks it.
    ///
    /// - Parameter inPlace: Whether to move the record's entry at once (a binary search and a
    ///   move of the entries after it), for a few changes; else the entries are sorted again at
    ///   the next read, for many.
    mutating func set(_ value: RecordValue?, for key: RecordKey, inPlace: Bool) {
        remove(key, inPlace: inPlace)
        guard let value else {
            missing.insert(key)
            return
        }
        values[key] = value
        let entry = Entry(value: value, key: key)
        if inPlace && isSorted {
            entries.insert(entry, at: position(of: entry))
        } else {
            isSorted = false
        }
    }

    /// Forgets `key`: its record is gone, or deleted locally.
    mutating func remove(_ key: RecordKey, inPlace: Bool) {
        missing.remove(key)
        guard let old = values.removeValue(forKey: key) else { return }
        if inPlace && isSorted {
            let at = position(of: Entry(value: old, key: key))
            if at < entries.count, entries[at].key == key { entries.remove(at: at) }
        } else {
            isSorted = false
        }
    }

    /// Sorts the entries again after changes that were not made in place.
    mutating func sortIfNeeded() {
        guard !isSorted else { return }
        entries = values.map { Entry(value: $0.value, key: $0.key) }
        entries.sort(by: Self.precedes)
        isSorted = true
    }

    /// The records whose value passes `condition`, by value then key. Call ``sortIfNeeded()``
    /// first.
    func entries(passing condition: FieldCondition) -> [Entry] {
        var found: [Entry] = []
        for (lower, upper) in condition.ranges {
            var at = lower.map(firstPosition(notBefore:)) ?? 0
            while at < entries.count {
                let entry = entries[at]
                if let upper, FieldOrder.compare(entry.value, upper) > 0 { break }
                if condition.isPastEnd(entry.value) { break }
                if condition.matches(entry.value) { found.append(entry) }
                at += 1
            }
        }
        return found
    }

    /// Every record, by value then key, those lacking the field first (with `nil`). Call
    /// ``sortIfNeeded()`` first.
    func allEntries() -> [(value: RecordValue?, key: RecordKey)] {
        missing.sorted().map { (nil, $0) } + entries.map { ($0.value, $0.key) }
    }

    /// Where `entry` is, or goes, among the sorted entries.
    private func position(of entry: Entry) -> Int {
        firstPosition(after: { Self.precedes($0, entry) })
    }

    /// The first entry whose value does not come before `value`.
    private func firstPosition(notBefore value: RecordValue) -> Int {
        firstPosition(after: { FieldOrder.compare($0.value, value) < 0 })
    }

    /// The first entry that `isBefore` is false of, by a binary search: the entries it is true of
    /// come first.
    private func firstPosition(after isBefore: (Entry) -> Bool) -> Int {
        var range = 0..<entries.count
        while !range.isEmpty {
            let middle = range.lowerBound + range.count / 2
            if isBefore(entries[middle]) {
                range = (middle + 1)..<range.upperBound
            } else {
                range = range.lowerBound..<middle
            }
        }
        return range.lowerBound
    }

    private static func precedes(_ first: Entry, _ second: Entry) -> Bool {
        let order = FieldOrder.compare(first.value, second.value)
        return order != 0 ? order < 0 : first.key < second.key
    }
}

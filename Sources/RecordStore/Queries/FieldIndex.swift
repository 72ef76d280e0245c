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
        let unsorted = values.map { Entry(value: $0.value, key: $0.key) }
        // Positions are sorted rather than entries, and compared where the entries lie: a sort
        // moves and compares each element many times, and a copy of an entry retains and releases
        // its value and its key's three strings.
        let order = unsorted.withUnsafeBufferPointer { entries in
            entries.indices.sorted { first, second in
                let order = FieldOrder.compare(entries[first].value, entries[second].value)
                return order != 0 ? order < 0 : entries[first].key < entries[second].key
            }
        }
        entries = order.map { unsorted[$0] }
        isSorted = true
    }

    /// Hands `body` the records whose value passes `condition` — every record, those lacking the
    /// field included, when it is `nil` — by value then key, until `body` returns false. Call
    /// ``sortIfNeeded()`` first.
    ///
    /// - Parameter descending: Whether values come from the last one: records of one value still
    ///   come by key, and those lacking the field last.
    func visit(
        passing condition: FieldCondition?, descending: Bool, _ body: (RecordValue?, RecordKey) throws -> Bool
    ) rethrows {
        var spans = condition.map { condition in condition.ranges.map { span(of: $0, for: condition) } }
        if descending { spans?.reverse() }
        let absent = condition == nil ? missing.sorted() : []
        if !descending {
            for key in absent { guard try body(nil, key) else { return } }
        }
        for span in spans ?? [0..<entries.count] {
            var runs = [span]
            if descending {
                // Runs of one value, from the last: each one read forward, by key.
                runs = []
                var end = span.upperBound
                while end > span.lowerBound {
                    var start = end - 1
                    while start > span.lowerBound,
                        FieldOrder.compare(entries[start - 1].value, entries[end - 1].value) == 0
                    {
                        start -= 1
                    }
                    runs.append(start..<end)
                    end = start
                }
            }
            for run in runs {
                for entry in entries[run] where condition?.matches(entry.value) ?? true {
                    guard try body(entry.value, entry.key) else { return }
                }
            }
        }
        if descending {
            for key in absent { guard try body(nil, key) else { return } }
        }
    }

    /// Where the entries of one of `condition`'s ranges are: from the first not before its lower
    /// bound to the last not after its upper one, or, for a prefix, the last string that has it.
    private func span(of range: (lower: RecordValue?, upper: RecordValue?), for condition: FieldCondition) -> Range<Int>
    {
        let start = range.lower.map(firstPosition(notBefore:)) ?? 0
        let end: Int
        if let upper = range.upper {
            end = firstPosition(after: { FieldOrder.compare($0.value, upper) <= 0 })
        } else if case .hasPrefix(let prefix) = condition.test {
            // The strings with a prefix follow it, before every other string after it.
            let lower = RecordValue.string(prefix)
            end = firstPosition(after: { FieldOrder.compare($0.value, lower) < 0 || condition.matches($0.value) })
        } else {
            end = entries.count
        }
        return start..<max(start, end)
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

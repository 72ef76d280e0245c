import Foundation
import RecordCodable

/// A query with its fields resolved to record fields, and how the store answers it: from an
/// index's range when a condition (or the one sort) names an indexed field, else by reading every
/// record of the type.
struct QueryPlan {
    /// A field a query reads: the record's name (the model's identifier), or a field.
    enum Field: Hashable {
        case recordName
        case named(String)
    }

    var recordType: String
    var zone: String?
    var conditions: [(field: Field, condition: FieldCondition)]
    var sorts: [(field: Field, ascending: Bool)]
    var limit: Int?
    /// The fields the model declares indexed.
    var indexedFields: Set<String>
    /// Whether to read every record even where an index would serve.
    var scansOnly: Bool

    /// How a run found its records.
    enum Access: Equatable {
        /// The range of the index of this field.
        case index(String)
        /// Every record of the type.
        case scan
    }

    /// The keys of the records that pass, sorted and limited, and how they were found.
    func keys(engine: StoreEngine, indexes: SecondaryIndexes) throws -> (keys: [RecordKey], access: Access) {
        guard limit != 0 else { return ([], .scan) }
        let fieldIndexes = scansOnly ? [:] : try indexes.indexes(of: recordType, fields: indexedFields, engine: engine)
        var values = FieldValues(engine: engine, indexes: fieldIndexes)
        var remaining = conditions
        let candidates: [(value: RecordValue?, key: RecordKey)]
        let orderedBy: Field?
        if let driver = drivingCondition(among: fieldIndexes), case .named(let name) = driver.field,
            let index = fieldIndexes[name]
        {
            remaining.remove(at: driver.position)
            candidates = index.entries(passing: driver.condition).map { ($0.value, $0.key) }
            orderedBy = driver.field
        } else if remaining.isEmpty, sorts.count == 1, case .named(let name) = sorts[0].field,
            let index = fieldIndexes[name]
        {
            candidates = index.allEntries()
            orderedBy = sorts[0].field
        } else {
            candidates = engine.index.records { key, slot in key.recordType == recordType && slot.state.isVisible }
                .map { (nil, $0.key) }.sorted { $0.key < $1.key }
            orderedBy = nil
        }
        let access =
            orderedBy.map { field -> Access in
                if case .named(let name) = field { return .index(name) }
                return .scan
            } ?? .scan
        let inZone = candidates.filter { zone == nil || $0.key.zone == zone }
        let passes = { (key: RecordKey) throws -> Bool in
            try remaining.allSatisfy { try $0.condition.matches(values.value(of: $0.field, for: key)) }
        }
        if let orderedBy, sorts.count == 1, sorts[0].field == orderedBy {
            // The index's order is the results' order: read up to the limit, no further.
            let ordered = sorts[0].ascending ? inZone : Self.descendingKeepingKeyOrder(inZone)
            var found: [RecordKey] = []
            for candidate in ordered {
                guard try passes(candidate.key) else { continue }
                found.append(candidate.key)
                if let limit, found.count >= limit { break }
            }
            return (found, access)
        }
        var found = try inZone.map(\.key).filter(passes)
        if !sorts.isEmpty {
            let sortValues = try found.map { key in try sorts.map { try values.value(of: $0.field, for: key) } }
            let order = found.indices.sorted { first, second in
                for (position, sort) in sorts.enumerated() {
                    let comparison = FieldOrder.compare(sortValues[first][position], sortValues[second][position])
                    if comparison != 0 { return sort.ascending ? comparison < 0 : comparison > 0 }
                }
                return found[first] < found[second]
            }
            found = order.map { found[$0] }
        } else if orderedBy != nil {
            found.sort()
        }
        if let limit, found.count > limit { found.removeSubrange(limit...) }
        return (found, access)
    }

    /// The condition to read an index's range for: an equality or `isIn` on an indexed field
    /// first, as it reads the fewest records, else a range; `nil` when no condition names one.
    private func drivingCondition(
        among indexes: [String: FieldIndex]
    ) -> (position: Int, field: Field, condition: FieldCondition)? {
        let indexed = conditions.indices.filter { position in
            if case .named(let name) = conditions[position].field { return indexes[name] != nil }
            return false
        }
        let exact = indexed.first { position in
            switch conditions[position].condition.test {
            case .equals, .isIn: true
            default: false
            }
        }
        guard let position = exact ?? indexed.first else { return nil }
        return (position, conditions[position].field, conditions[position].condition)
    }

    /// Entries sorted by value then key, sorted by value descending, then key ascending.
    static func descendingKeepingKeyOrder(
        _ entries: [(value: RecordValue?, key: RecordKey)]
    ) -> [(value: RecordValue?, key: RecordKey)] {
        var result: [(value: RecordValue?, key: RecordKey)] = []
        result.reserveCapacity(entries.count)
        var end = entries.count
        while end > 0 {
            var start = end - 1
            while start > 0, FieldOrder.compare(entries[start - 1].value, entries[end - 1].value) == 0 { start -= 1 }
            result += entries[start..<end]
            end = start
        }
        return result
    }
}

/// The values of records' fields, for a query's conditions and sorts: from an index when the
/// field has one, else from the record, read and decoded once.
private struct FieldValues {
    let engine: StoreEngine
    let indexes: [String: FieldIndex]
    private var records: [RecordKey: Record] = [:]

    init(engine: StoreEngine, indexes: [String: FieldIndex]) {
        self.engine = engine
        self.indexes = indexes
    }

    mutating func value(of field: QueryPlan.Field, for key: RecordKey) throws -> RecordValue? {
        switch field {
        case .recordName:
            return .string(key.recordName)
        case .named(let name):
            if let index = indexes[name] { return index.values[key] }
            if let record = records[key] { return record.fields[name] }
            guard let record = try engine.visibleRecord(for: key)?.decoded(as: key) else { return nil }
            records[key] = record
            return record.fields[name]
        }
    }
}

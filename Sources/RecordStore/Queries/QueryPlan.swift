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
        // The index whose range is read, and the field it orders the records by.
        var source: (index: FieldIndex, condition: FieldCondition?, field: Field, name: String)?
        if let driver = drivingCondition(among: fieldIndexes), case .named(let name) = driver.field,
            let index = fieldIndexes[name]
        {
            remaining.remove(at: driver.position)
            source = (index, driver.condition, driver.field, name)
        } else if remaining.isEmpty, sorts.count == 1, case .named(let name) = sorts[0].field,
            let index = fieldIndexes[name]
        {
            source = (index, nil, sorts[0].field, name)
        }
        let access = source.map { Access.index($0.name) } ?? .scan
        let passes = { (key: RecordKey) throws -> Bool in
            guard zone == nil || key.zone == zone else { return false }
            return try remaining.allSatisfy { try $0.condition.matches(values.value(of: $0.field, for: key)) }
        }
        if let source, sorts.count == 1, sorts[0].field == source.field {
            // The index's order is the results' order: read up to the limit, no further.
            var found: [RecordKey] = []
            try source.index.visit(passing: source.condition, descending: !sorts[0].ascending) { _, key in
                guard try passes(key) else { return true }
                found.append(key)
                return limit.map { found.count < $0 } ?? true
            }
            return (found, access)
        }
        var candidates: [RecordKey] = []
        if let source {
            source.index.visit(passing: source.condition, descending: false) { _, key in
                candidates.append(key)
                return true
            }
        } else {
            candidates = try engine.index.records { key, slot in key.recordType == recordType && slot.state.isVisible }
                .map(\.key)
        }
        var found = try candidates.filter(passes)
        if sorts.isEmpty {
            found.sort()
        } else {
            let sortValues = try found.map { key in try sorts.map { try values.value(of: $0.field, for: key) } }
            let order = found.indices.sorted { first, second in
                for (position, sort) in sorts.enumerated() {
                    let comparison = FieldOrder.compare(sortValues[first][position], sortValues[second][position])
                    if comparison != 0 { return sort.ascending ? comparison < 0 : comparison > 0 }
                }
                return found[first] < found[second]
            }
            found = order.map { found[$0] }
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
            if let record = records[key] { return record[name] }
            guard let record = try engine.visibleRecord(for: key)?.decoded(as: key) else { return nil }
            records[key] = record
            return record[name]
        }
    }
}

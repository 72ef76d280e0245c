import Foundation
import RecordCodable

extension RecordStore {
    /// The models that `query` picks: those whose fields pass its conditions, sorted, up to its
    /// limit. See ``Query`` for which records pass, in what order, and when an index answers.
    ///
    /// ```swift
    /// let dueSoon = try store.fetch(
    ///     Query<Task>().filter(.due, .between(now, nextWeek)).sorted(by: .due).limit(50))
    /// ```
    ///
    /// The models are read as ``retrieveAll(_:inZone:)`` reads them, with the records they link to,
    /// as of one commit.
    ///
    /// - Throws: `DecodingError` when a picked record does not decode as `Model`, its message naming
    ///   the record; `EncodingError` when a coding key makes no valid field name under the encoder's
    ///   key strategy; ``RecordStoreError`` when the records cannot be read.
    public func fetch<Model: QueryableModel>(_ query: Query<Model>) throws -> [Model] {
        try fetchAsOfCommit(query).models
    }

    /// How many models `query` picks, up to its limit: the same records ``fetch(_:)`` reads, none
    /// of them decoded as a model.
    public func count<Model: QueryableModel>(_ query: Query<Model>) throws -> Int {
        let plan = try plan(of: query)
        return try withEngine { try plan.keys(engine: $0, indexes: indexes).keys.count }
    }

    /// The models `query` picks, and the number of the last commit they reflect.
    func fetchAsOfCommit<Model: QueryableModel>(_ query: Query<Model>) throws -> (models: [Model], commit: Int) {
        let plan = try plan(of: query)
        var commit = 0
        let models = try models(Model.self) { batch in
            commit = observers.commits
            // The batch stages nothing: the records are read from the journal, their local
            // versions alone, neighbours in one read.
            let keys = try plan.keys(engine: batch.engine, indexes: indexes).keys
            var roots: [(record: Record, zone: String)] = []
            roots.reserveCapacity(keys.count)
            for (key, text) in zip(keys, try batch.engine.visibleRecordTexts(for: keys)) {
                if let text { roots.append((try text.decoded(as: key), key.zone)) }
            }
            return roots
        }
        return (models, commit)
    }

    /// How the store finds the records of `query`: an index's range, or every record of the type.
    func access<Model: QueryableModel>(of query: Query<Model>) throws -> QueryPlan.Access {
        let plan = try plan(of: query)
        return try withEngine { try plan.keys(engine: $0, indexes: indexes).access }
    }

    /// `query` with its coding keys turned into fields, as the store's encoder names them.
    private func plan<Model: QueryableModel>(of query: Query<Model>) throws -> QueryPlan {
        let encoder = options.encoder
        let field = { (keyName: String) throws -> QueryPlan.Field in
            if keyName == encoder.identifierKey { return .recordName }
            return .named(try encoder.keyEncodingStrategy.fieldName(for: keyName, AnyCodingKey(stringValue: keyName)))
        }
        var indexed: Set<String> = []
        for key in Model.indexedFields {
            if case .named(let name) = try field(key.stringValue) { indexed.insert(name) }
        }
        return QueryPlan(
            recordType: RecordEncoder.recordType(of: Model.self), zone: query.zone,
            conditions: try query.conditions.map { (try field($0.key), $0.condition) },
            sorts: try query.sorts.map { (try field($0.key), $0.ascending) }, limit: query.limit,
            indexedFields: indexed, scansOnly: query.scansOnly)
    }
}

extension RecordSchema {
    /// Something about models or queries that the schema would make the server refuse.
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// The schema has no record type of this name.
        case missingRecordType(String)
        /// The record type has no field of this name.
        case missingField(recordType: String, field: String)
        /// The field's type in the models differs from its type in the schema, such as `INT64`
        /// and `DOUBLE`.
        case typeMismatch(recordType: String, field: String, model: FieldType, schema: FieldType)
        /// The field is encrypted on one side only: the server refuses every write of it.
        case encryptionMismatch(recordType: String, field: String, encryptedInModel: Bool)
        /// The field lacks indexes that the models declare or a query needs.
        case missingIndexes(recordType: String, field: String, indexes: Indexes)
        /// A query filters or sorts on an encrypted field, which CloudKit cannot index.
        case queriesEncryptedField(recordType: String, field: String)

        /// The problem in a sentence, with what to do about it.
        public var description: String {
            switch self {
            case .missingRecordType(let name):
                "The schema has no record type '\(name)'."
            case .missingField(let recordType, let field):
                "The record type '\(recordType)' has no field '\(field)' in the schema."
            case .typeMismatch(let recordType, let field, let model, let schema):
                "\(recordType).\(field) is \(model) in the model but \(schema) in the schema."
            case .encryptionMismatch(let recordType, let field, let encryptedInModel):
                "\(recordType).\(field) is \(encryptedInModel ? "encrypted" : "not encrypted") in the model but "
                    + "\(encryptedInModel ? "not" : "encrypted") in the schema: the server refuses every write of it, "
                    + "and a field cannot change between plain and encrypted once it exists."
            case .missingIndexes(let recordType, let field, let indexes):
                "\(recordType).\(field) needs \(indexes.keywords.joined(separator: " ")), which the schema does not "
                    + "give it."
            case .queriesEncryptedField(let recordType, let field):
                "A query filters or sorts on \(recordType).\(field), which is encrypted: CloudKit cannot index an "
                    + "encrypted field."
            }
        }
    }

    /// Every problem that the schema would cause the models and queries: a record type or field
    /// the schema lacks, a field of another type or encrypted on one side only, and an index that a
    /// model declares or a query needs but the schema lacks.
    ///
    /// ```swift
    /// let container = try RecordSchema(parsing: exportedText)
    /// let models = try RecordSchema(models: [Note.self])
    /// let byTitle = RecordQuery(
    ///     recordType: "Note",
    ///     filterBy: [.init(fieldName: "title", comparator: .beginsWith, fieldValue: .string("A"))],
    ///     sortBy: [.init(fieldName: "___createTime")])
    /// for problem in container.problems(for: models, queries: [byTitle]) {
    ///     print(problem)    // "Note.title needs QUERYABLE, which the schema does not give it."
    /// }
    /// ```
    ///
    /// Fields and record types that only the schema has are no problem: a container holds the
    /// records of other models and app versions, and Core Data's companions (`CD_` fields, their
    /// `_ckAsset` assets). A `NUMBER` field takes integers and doubles, or the one it is
    /// `PREFERRED AS`. A query's filter needs `QUERYABLE` (a range comparison `SORTABLE`, a token
    /// search `SEARCHABLE`), and a sort `SORTABLE`; see ``Indexes``. A query with no filter, for
    /// every record of its type, needs `___recordID` `QUERYABLE`.
    ///
    /// - Parameters:
    ///   - models: The record types the models are stored as, such as ``init(models:encoder:)``
    ///     makes.
    ///   - queries: The queries the app sends.
    /// - Returns: Every problem, each once, in the order of the models' record types and fields,
    ///   then of the queries; empty when the models and queries fit the schema.
    public func problems(for models: RecordSchema, queries: [RecordQuery] = []) -> [Problem] {
        var problems = ProblemList()
        // Looked up by name once each, so that checking a large schema stays linear.
        var schemaTypes: [String: IndexedRecordType] = [:]
        for recordType in recordTypes where schemaTypes[recordType.name] == nil {
            schemaTypes[recordType.name] = IndexedRecordType(recordType)
        }
        for model in models.recordTypes {
            guard let recordType = schemaTypes[model.name] else {
                problems.add(.missingRecordType(model.name))
                continue
            }
            for field in model.fields {
                problems.add(recordType.problems(with: field))
            }
        }
        // A field the models encrypt cannot be queried, whether or not the schema has it yet.
        var encryptedInModels: [String: Set<String>] = [:]
        for model in models.recordTypes {
            encryptedInModels[model.name, default: []].formUnion(model.fields.filter(\.isEncrypted).map(\.name))
        }
        for query in queries {
            guard let recordType = schemaTypes[query.recordType] else {
                problems.add(.missingRecordType(query.recordType))
                continue
            }
            let encrypted = encryptedInModels[query.recordType] ?? []
            if query.filterBy.isEmpty {
                // A query for every record of a type looks its records up by name.
                problems.add(
                    recordType.problems(
                        querying: RecordSchema.SystemField.recordID.rawValue, needing: .queryable,
                        encryptedInModels: false))
            }
            for filter in query.filterBy {
                problems.add(
                    recordType.problems(
                        querying: filter.fieldName, needing: filter.comparator.neededIndexes,
                        encryptedInModels: encrypted.contains(filter.fieldName)))
            }
            for sort in query.sortBy {
                problems.add(
                    recordType.problems(
                        querying: sort.fieldName, needing: .sortable,
                        encryptedInModels: encrypted.contains(sort.fieldName)))
            }
        }
        return problems.list
    }
}

/// A record type of the schema with its fields by name.
private struct IndexedRecordType {
    let name: String
    let fields: [String: RecordSchema.Field]

    init(_ recordType: RecordSchema.RecordType) {
        name = recordType.name
        fields = Dictionary(recordType.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func field(named name: String) -> RecordSchema.Field? { fields[name] }

    /// What is wrong with a field of the models for this record type of the schema.
    func problems(with modelField: RecordSchema.Field) -> [RecordSchema.Problem] {
        guard let field = field(named: modelField.name) else {
            guard modelField.isSystemField else { return [.missingField(recordType: name, field: modelField.name)] }
            // A system field is always there, but has no index unless the schema lists one.
            return modelField.indexes.isEmpty
                ? [] : [.missingIndexes(recordType: name, field: modelField.name, indexes: modelField.indexes)]
        }
        var problems: [RecordSchema.Problem] = []
        if !field.type.accepts(modelField.type) {
            problems.append(
                .typeMismatch(recordType: name, field: field.name, model: modelField.type, schema: field.type))
        }
        if field.isEncrypted != modelField.isEncrypted {
            problems.append(
                .encryptionMismatch(recordType: name, field: field.name, encryptedInModel: modelField.isEncrypted))
        }
        let missing = modelField.indexes.subtracting(field.indexes)
        if !missing.isEmpty {
            problems.append(.missingIndexes(recordType: name, field: field.name, indexes: missing))
        }
        return problems
    }

    /// What is wrong with a query's filter or sort on `fieldName`, which needs `indexes`; the
    /// models may encrypt the field where the schema does not (yet).
    func problems(querying fieldName: String, needing indexes: RecordSchema.Indexes, encryptedInModels: Bool)
        -> [RecordSchema.Problem]
    {
        if encryptedInModels { return [.queriesEncryptedField(recordType: name, field: fieldName)] }
        guard let field = field(named: fieldName) else {
            let isSystemField = RecordSchema.SystemField(rawValue: fieldName) != nil
            return [
                isSystemField
                    ? .missingIndexes(recordType: name, field: fieldName, indexes: indexes)
                    : .missingField(recordType: name, field: fieldName)
            ]
        }
        if field.isEncrypted { return [.queriesEncryptedField(recordType: name, field: fieldName)] }
        let missing = indexes.subtracting(field.indexes)
        return missing.isEmpty ? [] : [.missingIndexes(recordType: name, field: fieldName, indexes: missing)]
    }
}

extension RecordQuery.Comparator {
    /// The index a filter with this comparator needs: a token search a text index, a range
    /// comparison a sorted one, anything else (equality, lists, prefixes, `NEAR`) a lookup index.
    fileprivate var neededIndexes: RecordSchema.Indexes {
        switch self {
        case .containsAllTokens, .containsAnyTokens: .searchable
        case .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals: .sortable
        default: .queryable
        }
    }
}

/// Problems in the order they are found, each once.
private struct ProblemList {
    private(set) var list: [RecordSchema.Problem] = []
    private var seen: Set<RecordSchema.Problem> = []

    mutating func add(_ problem: RecordSchema.Problem) {
        if seen.insert(problem).inserted { list.append(problem) }
    }

    mutating func add(_ problems: [RecordSchema.Problem]) {
        for problem in problems { add(problem) }
    }
}

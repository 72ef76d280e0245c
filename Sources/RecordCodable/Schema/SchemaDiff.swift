extension RecordSchema {
    /// One difference between two schemas, such as a field added or a field whose type changed,
    /// and whether a container whose schema is deployed to production would refuse it.
    ///
    /// ```swift
    /// let deployed = try RecordSchema(parsing: String(contentsOf: exportURL, encoding: .utf8))
    /// for change in deployed.changes(to: next) {
    ///     print(change)   // "Note.rating changes type from INT64 to DOUBLE: refused by a deployed container, …"
    /// }
    /// ```
    ///
    /// Production keeps every record type and field it has, each with its type, so that no record
    /// loses data: removing a record type or a field, or changing a field's type, is refused. A
    /// field's type includes being a list and being encrypted; a `NUMBER` may take a preference
    /// (`NUMBER PREFERRED AS INT64`), which changes no stored value. Everything else is added to
    /// production when the development schema is deployed: record types, fields, indexes, grants
    /// and roles. Removing an index is accepted too, and queries that need it then fail.
    public enum Change: Hashable, Sendable, CustomStringConvertible {
        /// The schema creates a role that it did not.
        case addedRole(String)
        /// The schema no longer creates a role.
        case removedRole(String)
        /// A record type is new.
        case addedRecordType(String)
        /// A record type is gone: refused by a deployed container.
        case removedRecordType(String)
        /// A field is new.
        case addedField(recordType: String, field: Field)
        /// A field is gone: refused by a deployed container.
        case removedField(recordType: String, field: Field)
        /// A field's type, or whether it is encrypted, changed: refused by a deployed container,
        /// unless a `NUMBER` takes a preference.
        case changedFieldType(recordType: String, old: Field, new: Field)
        /// A field has indexes it did not have.
        case addedIndexes(recordType: String, field: String, indexes: Indexes)
        /// A field lost indexes: queries that need them fail.
        case removedIndexes(recordType: String, field: String, indexes: Indexes)
        /// What a role may do with a record type's records changed; no permission is no grant.
        case changedGrant(
            recordType: String, role: String, old: Grant.Permissions, new: Grant.Permissions)

        /// Whether a container whose schema is in production refuses the change: a record type or
        /// field removed, a field's type changed.
        public var isRefusedByDeployedContainer: Bool {
            switch self {
            case .removedRecordType, .removedField:
                true
            case .changedFieldType(_, let old, let new):
                !Self.onlyTakesPreference(old, new)
            case .addedRole, .removedRole, .addedRecordType, .addedField, .addedIndexes, .removedIndexes,
                .changedGrant:
                false
            }
        }

        /// The change in plain words; a refused one says why.
        public var description: String {
            switch self {
            case .addedRole(let role):
                "The role \(SchemaName.written(role)) is created."
            case .removedRole(let role):
                "The role \(SchemaName.written(role)) is no longer created."
            case .addedRecordType(let name):
                "The record type \(name) is added."
            case .removedRecordType(let name):
                "The record type \(name) is removed: refused by a deployed container, which keeps every record type "
                    + "it has."
            case .addedField(let recordType, let field):
                "\(recordType).\(field.name) is added: \(field.definitionText)."
            case .removedField(let recordType, let field):
                "\(recordType).\(field.name) (\(field.typeText)) is removed: refused by a deployed container, "
                    + "which keeps every field it has."
            case .changedFieldType(let recordType, let old, let new):
                "\(recordType).\(old.name) changes type from \(old.typeText) to \(new.typeText)"
                    + (isRefusedByDeployedContainer
                        ? ": refused by a deployed container, which keeps each field's type." : ".")
            case .addedIndexes(let recordType, let field, let indexes):
                "\(recordType).\(field) gains \(indexes.keywords.joined(separator: " "))."
            case .removedIndexes(let recordType, let field, let indexes):
                "\(recordType).\(field) loses \(indexes.keywords.joined(separator: " ")): queries that need it fail."
            case .changedGrant(let recordType, let role, let old, let new):
                "\(recordType) grants \(Self.words(new)) to \(SchemaName.written(role)), where it granted "
                    + "\(Self.words(old))."
            }
        }

        private static func words(_ permissions: Grant.Permissions) -> String {
            permissions.isEmpty ? "nothing" : permissions.keywords.joined(separator: ", ")
        }

        /// Whether `new` is `old`, a `NUMBER` without a preference, with one.
        private static func onlyTakesPreference(_ old: Field, _ new: Field) -> Bool {
            guard old.type.valueType == .number(preferredAs: nil), old.type.isList == new.type.isList,
                old.isEncrypted == new.isEncrypted, case .number(preferredAs: _?) = new.type.valueType
            else { return false }
            return true
        }
    }

    /// Every change that turns this schema into `new`: roles, then record types by name, each
    /// with its fields by name and then its grants by role.
    ///
    /// ```swift
    /// let deployed = try RecordSchema(parsing: productionExport)
    /// let next = try RecordSchema(parsing: developmentExport)
    /// let refused = deployed.changes(to: next).filter(\.isRefusedByDeployedContainer)
    /// ```
    ///
    /// A system field (``SystemField``) that a record type does not list is there all the same,
    /// without indexes: listing it, as exports do, is no change, and only its indexes are
    /// compared. An unchanged schema has no change, whatever the order and comments of its text.
    ///
    /// - Parameter new: The schema to compare with, such as the one about to be deployed.
    /// - Returns: The changes, empty when the schemas are the same; see
    ///   ``Change/isRefusedByDeployedContainer`` for those production refuses.
    public func changes(to new: RecordSchema) -> [Change] {
        var changes: [Change] = []
        let oldRoles = Set(roles)
        let newRoles = Set(new.roles)
        changes += roles.filter { !newRoles.contains($0) }.map(Change.removedRole)
        changes += new.roles.filter { !oldRoles.contains($0) }.map(Change.addedRole)

        let oldTypes = Dictionary(recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newTypes = Dictionary(new.recordTypes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let names = Set(oldTypes.keys).union(newTypes.keys).sorted(by: SchemaName.listsBefore)
        for name in names {
            switch (oldTypes[name], newTypes[name]) {
            case (let old?, let new?):
                changes += old.changes(to: new)
            case (_?, nil):
                changes.append(.removedRecordType(name))
            case (nil, let new?):
                changes.append(.addedRecordType(name))
                changes += new.fields.filter { !$0.isSystemField || !$0.indexes.isEmpty }.map {
                    .addedField(recordType: name, field: $0)
                }
                changes += new.grants.map {
                    .changedGrant(recordType: name, role: $0.role, old: [], new: $0.permissions)
                }
            case (nil, nil):
                break
            }
        }
        return changes
    }
}

extension RecordSchema.RecordType {
    /// The changes of fields and grants that turn this record type into `new`, of the same name.
    fileprivate func changes(to new: Self) -> [RecordSchema.Change] {
        var changes: [RecordSchema.Change] = []
        let oldFields = fieldsWithSystemFields
        let newFields = new.fieldsWithSystemFields
        let names = Set(oldFields.keys).union(newFields.keys).sorted(by: SchemaName.listsBefore)
        for fieldName in names {
            switch (oldFields[fieldName], newFields[fieldName]) {
            case (let old?, let new?):
                if old.type != new.type || old.isEncrypted != new.isEncrypted {
                    changes.append(.changedFieldType(recordType: name, old: old, new: new))
                }
                let removed = old.indexes.subtracting(new.indexes)
                if !removed.isEmpty {
                    changes.append(.removedIndexes(recordType: name, field: fieldName, indexes: removed))
                }
                let added = new.indexes.subtracting(old.indexes)
                if !added.isEmpty {
                    changes.append(.addedIndexes(recordType: name, field: fieldName, indexes: added))
                }
            case (let old?, nil):
                changes.append(.removedField(recordType: name, field: old))
            case (nil, let new?):
                changes.append(.addedField(recordType: name, field: new))
            case (nil, nil):
                break
            }
        }
        let oldGrants = Dictionary(grants.map { ($0.role, $0.permissions) }, uniquingKeysWith: { $0.union($1) })
        let newGrants = Dictionary(new.grants.map { ($0.role, $0.permissions) }, uniquingKeysWith: { $0.union($1) })
        for role in Set(oldGrants.keys).union(newGrants.keys).sorted(by: SchemaName.listsBefore) {
            let old = oldGrants[role] ?? []
            let new = newGrants[role] ?? []
            if old != new {
                changes.append(.changedGrant(recordType: name, role: role, old: old, new: new))
            }
        }
        return changes
    }

    /// The fields by name, with each system field the record type does not list, as it is
    /// without indexes.
    private var fieldsWithSystemFields: [String: RecordSchema.Field] {
        var fields = Dictionary(self.fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for systemField in RecordSchema.SystemField.allCases where fields[systemField.rawValue] == nil {
            fields[systemField.rawValue] = RecordSchema.Field(name: systemField.rawValue, type: systemField.type)
        }
        return fields
    }
}

extension RecordSchema.Field {
    /// The field's type and indexes, as its line in a schema has them: `STRING QUERYABLE`.
    var definitionText: String {
        ([typeText] + indexes.keywords).joined(separator: " ")
    }
}

import Foundation

/// What a `records/query` request looks for: records of one type that pass every filter, in the
/// order of the sort descriptors.
///
/// It is the `query` dictionary of a ``RecordsQueryRequest``:
///
/// ```swift
/// let query = RecordQuery(
///     recordType: "Artist",
///     filterBy: [.init(fieldName: "lastName", comparator: .equals, fieldValue: .string("Chen"))],
///     sortBy: [.init(fieldName: "firstName")])
/// // {"recordType": "Artist",
/// //  "filterBy": [{"comparator": "EQUALS", "fieldName": "lastName",
/// //                "fieldValue": {"type": "STRING", "value": "Chen"}}],
/// //  "sortBy": [{"ascending": true, "fieldName": "firstName"}]}
/// ```
///
/// A query without filters matches every record of its type. The server can filter and sort only
/// on fields that the schema marks queryable and sortable.
public struct RecordQuery: Hashable, Sendable, Codable, WireCodable {
    /// The type of the records to find.
    public var recordType: String

    /// The conditions a record must meet, all of them; empty for every record of the type.
    public var filterBy: [Filter]

    /// The order of the records, by the first descriptor, then the next; empty for the server's
    /// order.
    public var sortBy: [SortDescriptor]

    /// Creates a query.
    ///
    /// - Parameters:
    ///   - recordType: The type of the records to find.
    ///   - filterBy: The conditions a record must meet, all of them.
    ///   - sortBy: The order of the records.
    public init(recordType: String, filterBy: [Filter] = [], sortBy: [SortDescriptor] = []) {
        self.recordType = recordType
        self.filterBy = filterBy
        self.sortBy = sortBy
    }

    /// Writes the query dictionary as CloudKit Web Services reads it.
    ///
    /// - Throws: `EncodingError.invalidValue` for a value that CloudKit's JSON cannot carry, such
    ///   as a distance or a location coordinate that is NaN or infinite.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a query dictionary.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = ["recordType": .string(recordType)]
        if !filterBy.isEmpty {
            object["filterBy"] = try filterBy.wireJSON(member: "filterBy", at: path) { try $0.wireJSON(at: $1) }
        }
        if !sortBy.isEmpty {
            object["sortBy"] = try sortBy.wireJSON(member: "sortBy", at: path) { try $0.wireJSON(at: $1) }
        }
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        recordType = try reader.member("recordType").string()
        filterBy = try Self.list(reader.optionalMember("filterBy"), Filter.init(wire:))
        sortBy = try Self.list(reader.optionalMember("sortBy"), SortDescriptor.init(wire:))
    }

    /// The entries of `filterBy` or `sortBy`: an array, or a single dictionary, as iCloud's own
    /// web clients send a query with one filter.
    private static func list<Entry>(_ reader: WireReader?, _ read: (WireReader) throws -> Entry) throws -> [Entry] {
        guard let reader else { return [] }
        if case .object = reader.kind { return [try read(reader)] }
        return try reader.mapElements(read)
    }
}

// MARK: - Filters

extension RecordQuery {
    /// One condition of a query: a field compared with a value.
    ///
    /// ```swift
    /// // Artists whose last name is Chen:
    /// RecordQuery.Filter(fieldName: "lastName", comparator: .equals, fieldValue: .string("Chen"))
    /// // Within 5 km of a point:
    /// RecordQuery.Filter.near("location", RecordLocation(latitude: 37.33, longitude: -122.03), distance: 5)
    /// ```
    ///
    /// The value is written as a typed field value, `{"type": "STRING", "value": "Chen"}`, as in
    /// a record. A comparator that takes several values (``Comparator/in``,
    /// ``Comparator/listContainsAny``…) takes them as a list.
    public struct Filter: Hashable, Sendable {
        /// The name of the field to compare.
        public var fieldName: String

        /// How the field is compared with ``fieldValue``.
        public var comparator: Comparator

        /// The value the field is compared with.
        public var fieldValue: RecordValue

        /// For ``Comparator/near``, the radius around ``fieldValue`` (a location) in which a
        /// record's location must lie, in kilometers, as CloudKit's location queries measure it.
        public var distance: Double?

        /// Creates a filter.
        ///
        /// - Parameters:
        ///   - fieldName: The name of the field to compare.
        ///   - comparator: How the field is compared with the value.
        ///   - fieldValue: The value the field is compared with.
        ///   - distance: For ``Comparator/near``, the radius around the value, in kilometers.
        public init(fieldName: String, comparator: Comparator, fieldValue: RecordValue, distance: Double? = nil) {
            self.fieldName = fieldName
            self.comparator = comparator
            self.fieldValue = fieldValue
            self.distance = distance
        }

        /// A filter for records whose location field lies within `distance` kilometers of
        /// `location`.
        ///
        /// - Parameters:
        ///   - fieldName: The name of a `LOCATION` field.
        ///   - location: The center of the circle.
        ///   - distance: The circle's radius, in kilometers.
        public static func near(_ fieldName: String, _ location: RecordLocation, distance: Double) -> Filter {
            Filter(fieldName: fieldName, comparator: .near, fieldValue: .location(location), distance: distance)
        }

        func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
            var object: [String: WireJSON] = [
                "comparator": .string(comparator.rawValue),
                "fieldName": .string(fieldName),
                "fieldValue": try WireField.object(
                    for: fieldValue, at: path + [AnyCodingKey(stringValue: "fieldValue")]),
            ]
            if let distance {
                object["distance"] = try WireField.finite(
                    distance, at: path + [AnyCodingKey(stringValue: "distance")])
            }
            return .object(object)
        }

        init(wire reader: WireReader) throws {
            comparator = Comparator(rawValue: try reader.member("comparator").string())
            fieldName = try reader.member("fieldName").string()
            let valueReader = try reader.member("fieldValue")
            guard case .value(let value, _, _) = try WireField.content(of: valueReader) else {
                // A filter compares with a value: a missing one is keyNotFound, null is none.
                let value = try valueReader.member("value")
                throw DecodingError.valueNotFound(
                    RecordValue.self,
                    DecodingError.Context(
                        codingPath: value.path, debugDescription: "Expected RecordValue value but found null instead."))
            }
            fieldValue = value
            distance = try reader.optionalMember("distance")?.double()
        }
    }

    /// How a filter compares a field with its value: the comparators of CloudKit Web Services.
    ///
    /// Comparators this package has no constant for can be made from their name, and read from a
    /// request as they are.
    public struct Comparator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The comparator as the server writes it, such as `EQUALS`.
        public var rawValue: String
        /// Creates a comparator from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The comparator as the server writes it.
        public var description: String { rawValue }

        /// The field equals the value.
        public static let equals = Comparator(rawValue: "EQUALS")
        /// The field does not equal the value.
        public static let notEquals = Comparator(rawValue: "NOT_EQUALS")
        /// The field is less than the value.
        public static let lessThan = Comparator(rawValue: "LESS_THAN")
        /// The field is less than or equal to the value.
        public static let lessThanOrEquals = Comparator(rawValue: "LESS_THAN_OR_EQUALS")
        /// The field is greater than the value.
        public static let greaterThan = Comparator(rawValue: "GREATER_THAN")
        /// The field is greater than or equal to the value.
        public static let greaterThanOrEquals = Comparator(rawValue: "GREATER_THAN_OR_EQUALS")
        /// The location field lies within the filter's ``Filter/distance`` of the location value.
        public static let near = Comparator(rawValue: "NEAR")
        /// The text field contains every token of the value.
        public static let containsAllTokens = Comparator(rawValue: "CONTAINS_ALL_TOKENS")
        /// The text field contains at least one token of the value.
        public static let containsAnyTokens = Comparator(rawValue: "CONTAINS_ANY_TOKENS")
        /// The field equals one of the values of the list.
        public static let `in` = Comparator(rawValue: "IN")
        /// The field equals none of the values of the list.
        public static let notIn = Comparator(rawValue: "NOT_IN")
        /// The list field contains the value.
        public static let listContains = Comparator(rawValue: "LIST_CONTAINS")
        /// The list field does not contain the value.
        public static let notListContains = Comparator(rawValue: "NOT_LIST_CONTAINS")
        /// The list field contains at least one of the values of the list.
        public static let listContainsAny = Comparator(rawValue: "LIST_CONTAINS_ANY")
        /// The list field contains none of the values of the list.
        public static let notListContainsAny = Comparator(rawValue: "NOT_LIST_CONTAINS_ANY")
        /// The string field begins with the value.
        public static let beginsWith = Comparator(rawValue: "BEGINS_WITH")
        /// The string field does not begin with the value.
        public static let notBeginsWith = Comparator(rawValue: "NOT_BEGINS_WITH")
        /// A string of the list field begins with the value.
        public static let listMemberBeginsWith = Comparator(rawValue: "LIST_MEMBER_BEGINS_WITH")
        /// No string of the list field begins with the value.
        public static let notListMemberBeginsWith = Comparator(rawValue: "NOT_LIST_MEMBER_BEGINS_WITH")
        /// The list field contains every value of the list.
        public static let listContainsAll = Comparator(rawValue: "LIST_CONTAINS_ALL")
        /// The list field does not contain every value of the list.
        public static let notListContainsAll = Comparator(rawValue: "NOT_LIST_CONTAINS_ALL")

        /// Every comparator with a constant: those CloudKit's reference lists.
        static let known: [Comparator] = [
            .equals, .notEquals, .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals, .near,
            .containsAllTokens, .containsAnyTokens, .in, .notIn, .listContains, .notListContains, .listContainsAny,
            .notListContainsAny, .beginsWith, .notBeginsWith, .listMemberBeginsWith, .notListMemberBeginsWith,
            .listContainsAll, .notListContainsAll,
        ]
    }
}

// MARK: - Sorting

extension RecordQuery {
    /// One key of a query's order: a field, ascending or descending, or for a location field,
    /// by distance from a point.
    ///
    /// ```swift
    /// RecordQuery.SortDescriptor(fieldName: "lastName")                   // A to Z
    /// RecordQuery.SortDescriptor(fieldName: "created", ascending: false)  // newest first
    /// RecordQuery.SortDescriptor(fieldName: "location", relativeLocation: here)  // nearest first
    /// ```
    public struct SortDescriptor: Hashable, Sendable {
        /// The name of the field to sort by.
        public var fieldName: String

        /// Whether the records come in ascending order, the server's default.
        public var ascending: Bool

        /// For a location field, the point whose distance orders the records.
        public var relativeLocation: RecordLocation?

        /// Creates a sort descriptor.
        ///
        /// - Parameters:
        ///   - fieldName: The name of the field to sort by.
        ///   - ascending: Whether the records come in ascending order.
        ///   - relativeLocation: For a location field, the point whose distance orders the records.
        public init(fieldName: String, ascending: Bool = true, relativeLocation: RecordLocation? = nil) {
            self.fieldName = fieldName
            self.ascending = ascending
            self.relativeLocation = relativeLocation
        }

        func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
            var object: [String: WireJSON] = ["fieldName": .string(fieldName), "ascending": .bool(ascending)]
            if let relativeLocation {
                object["relativeLocation"] = try WireField.location(
                    relativeLocation, at: path + [AnyCodingKey(stringValue: "relativeLocation")])
            }
            return .object(object)
        }

        init(wire reader: WireReader) throws {
            fieldName = try reader.member("fieldName").string()
            ascending = try reader.optionalMember("ascending")?.bool() ?? true
            relativeLocation = try reader.optionalMember("relativeLocation").map(WireField.location(from:))
        }
    }
}

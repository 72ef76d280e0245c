import Foundation
import RecordCodable

/// A model that the store can query by its fields, and the fields it keeps an index of.
///
/// A query names fields by the model's coding keys — the keys its `Codable` conformance writes,
/// which the store's encoder turns into field names as it does when it parks the model. Declare
/// `CodingKeys` yourself, as the synthesized ones are private, and list the keys whose fields the
/// store indexes:
///
/// ```swift
/// struct Task: Codable, QueryableModel {
///     var id: String
///     var title: String
///     var priority: Int
///     var due: Date?
///
///     enum CodingKeys: String, CodingKey { case id, title, priority, due }
///     static let indexedFields: [CodingKeys] = [.priority, .due]
/// }
/// ```
///
/// A query on a field that is not listed works too, by reading every record of the type. The
/// identifier key (the encoder's `identifierKey`, `id` by default) is the record's name: a
/// condition on it reads the records' keys, not the records.
public protocol QueryableModel: Codable {
    /// The keys that name the model's fields: usually its `CodingKeys`.
    associatedtype QueryField: CodingKey
    /// The fields the store keeps a secondary index of, built from the records the first time a
    /// query uses one and kept up to date by each commit after.
    static var indexedFields: [QueryField] { get }
}

extension QueryableModel {
    /// No field indexed: every query reads every record of the type.
    public static var indexedFields: [QueryField] { [] }
}

/// The models of one type whose fields pass some conditions, sorted, up to a limit: what
/// ``RecordStore/fetch(_:)`` reads, ``RecordStore/count(_:)`` counts and
/// ``RecordStore/observe(_:)`` watches.
///
/// ```swift
/// let urgent = Query<Task>()
///     .filter(.priority, .atLeast(3))
///     .filter(.title, .hasPrefix("Call"))
///     .sorted(by: .due)
///     .limit(20)
/// let tasks = try store.fetch(urgent)
/// ```
///
/// ## Which records pass
///
/// A record passes when every condition holds on its field's value (``FieldCondition``); a record
/// that lacks the field passes none. Values compare as `RecordValue`s, in one order for every
/// kind: a missing field first, then numbers (integers and doubles together, by value), strings
/// (by their UTF-8 bytes), dates, bytes, references (by zone, then name), lists (element by
/// element), locations and assets. Only visible records count: a record deleted locally does not.
///
/// ## Sorting
///
/// Results come sorted by each sort field in turn, ascending unless asked otherwise; a missing
/// value sorts first ascending and last descending. Records equal on every sort field, and all
/// records when the query has no sort, come in key order: by zone, then record name.
///
/// ## Indexes
///
/// The store answers from an index when a condition names a field in
/// ``QueryableModel/indexedFields``, or, with no such condition, when the one sort field is
/// indexed: it reads the index's range and the records it finds, and, when the results' order is
/// the index's, stops at the limit. Any other query — a condition on a field not listed — reads
/// and decodes every record of the type, in time that grows with their number: list the fields
/// your app filters on. An index lives in memory: it is built from the records the first time a
/// query uses it (so opening the store does not pay for it), and kept up to date by every commit
/// after, including those of sync.
public struct Query<Model: QueryableModel>: Sendable {
    /// A condition on the field of a coding key.
    struct Condition: Sendable {
        var key: String
        var condition: FieldCondition
    }

    /// A field to sort by.
    struct Sort: Sendable {
        var key: String
        var ascending: Bool
    }

    /// The zone the models are in, or `nil` for every zone.
    public var zone: String?
    private(set) var conditions: [Condition] = []
    private(set) var sorts: [Sort] = []
    /// The most results, or `nil` for all.
    public private(set) var limit: Int?
    /// For tests: reads every record, as with no index, so that both ways can be compared.
    package var scansOnly = false

    /// Every model of `Model`, in `zone` or in every zone.
    public init(inZone zone: String? = nil) {
        self.zone = zone
    }

    /// The query, with `condition` on `field` too.
    public func filter(_ field: Model.QueryField, _ condition: FieldCondition) -> Self {
        var query = self
        query.conditions.append(Condition(key: field.stringValue, condition: condition))
        return query
    }

    /// The query, sorted by `field` after the sorts it has: a later sort orders the records that
    /// the earlier ones leave equal.
    public func sorted(by field: Model.QueryField, ascending: Bool = true) -> Self {
        var query = self
        query.sorts.append(Sort(key: field.stringValue, ascending: ascending))
        return query
    }

    /// The query, with at most `count` results (none when `count` is zero or less).
    public func limit(_ count: Int) -> Self {
        var query = self
        query.limit = max(count, 0)
        return query
    }
}

import Foundation
import RecordCodable

/// A Swift value that a query compares a field with, as the field's `RecordValue`.
///
/// The store's encoder stores these types as these values, so that a condition on a property
/// compares with what the property's records hold: every integer and `Bool` as
/// `RecordValue.int64(_:)`, `Double` and `Float` as `RecordValue.double(_:)`, `String` and
/// `UUID` (its `uuidString`) as `RecordValue.string(_:)`, `Date` as `RecordValue.date(_:)`.
public protocol QueryValue: Sendable {
    /// The value as a record's field holds it.
    var recordValue: RecordValue { get }
}

extension RecordValue: QueryValue {
    /// The value itself.
    public var recordValue: RecordValue { self }
}

extension String: QueryValue {
    /// `.string(self)`.
    public var recordValue: RecordValue { .string(self) }
}

extension Int: QueryValue {
    /// `.int64(self)`.
    public var recordValue: RecordValue { .int64(Int64(self)) }
}

extension Int64: QueryValue {
    /// `.int64(self)`.
    public var recordValue: RecordValue { .int64(self) }
}

extension Int32: QueryValue {
    /// `.int64(self)`.
    public var recordValue: RecordValue { .int64(Int64(self)) }
}

extension Bool: QueryValue {
    /// `.int64(1)` for `true`, `.int64(0)` for `false`.
    public var recordValue: RecordValue { .int64(self ? 1 : 0) }
}

extension Double: QueryValue {
    /// `.double(self)`.
    public var recordValue: RecordValue { .double(self) }
}

extension Float: QueryValue {
    /// `.double(Double(self))`.
    public var recordValue: RecordValue { .double(Double(self)) }
}

extension Date: QueryValue {
    /// `.date(self)`.
    public var recordValue: RecordValue { .date(self) }
}

extension UUID: QueryValue {
    /// `.string(uuidString)`.
    public var recordValue: RecordValue { .string(uuidString) }
}

extension RecordReference: QueryValue {
    /// `.reference(self)`.
    public var recordValue: RecordValue { .reference(self) }
}

/// What a query asks of one field's value.
///
/// Values are compared in the order ``Query`` documents: numbers by value whether integer or
/// double, strings by their UTF-8 bytes, a missing field before every value. A missing field
/// matches no condition.
///
/// ```swift
/// .equals("Inbox")
/// .atLeast(3)
/// .between(start, end)        // both ends included
/// .hasPrefix("Gro")
/// .isIn(["work", "home"])
/// ```
public struct FieldCondition: Sendable, Hashable {
    enum Test: Sendable, Hashable {
        case equals(RecordValue)
        case lessThan(RecordValue)
        case atMost(RecordValue)
        case greaterThan(RecordValue)
        case atLeast(RecordValue)
        case between(RecordValue, RecordValue)
        case hasPrefix(String)
        case isIn([RecordValue])
    }

    let test: Test

    /// The field equals `value`: `3` matches `3` and `3.0`.
    public static func equals(_ value: some QueryValue) -> Self { Self(test: .equals(value.recordValue)) }
    /// The field comes before `value`.
    public static func lessThan(_ value: some QueryValue) -> Self { Self(test: .lessThan(value.recordValue)) }
    /// The field comes before `value` or equals it.
    public static func atMost(_ value: some QueryValue) -> Self { Self(test: .atMost(value.recordValue)) }
    /// The field comes after `value`.
    public static func greaterThan(_ value: some QueryValue) -> Self {
        Self(test: .greaterThan(value.recordValue))
    }
    /// The field comes after `value` or equals it.
    public static func atLeast(_ value: some QueryValue) -> Self { Self(test: .atLeast(value.recordValue)) }
    /// The field is between `lower` and `upper`, both included; nothing when `upper` comes before
    /// `lower`.
    public static func between(_ lower: some QueryValue, _ upper: some QueryValue) -> Self {
        Self(test: .between(lower.recordValue, upper.recordValue))
    }
    /// The field is a string that starts with `prefix`, compared by UTF-8 bytes (case and
    /// accents count). Every string has the empty prefix.
    public static func hasPrefix(_ prefix: String) -> Self { Self(test: .hasPrefix(prefix)) }
    /// The field equals one of `values`; nothing when `values` is empty.
    public static func isIn(_ values: [some QueryValue]) -> Self { Self(test: .isIn(values.map(\.recordValue))) }

    /// Whether `value`, a field's value or `nil` when the record lacks it, passes.
    func matches(_ value: RecordValue?) -> Bool {
        guard let value else { return false }
        switch test {
        case .equals(let wanted): return FieldOrder.compare(value, wanted) == 0
        case .lessThan(let bound): return FieldOrder.compare(value, bound) < 0
        case .atMost(let bound): return FieldOrder.compare(value, bound) <= 0
        case .greaterThan(let bound): return FieldOrder.compare(value, bound) > 0
        case .atLeast(let bound): return FieldOrder.compare(value, bound) >= 0
        case .between(let lower, let upper):
            return FieldOrder.compare(value, lower) >= 0 && FieldOrder.compare(value, upper) <= 0
        case .hasPrefix(let prefix):
            guard case .string(let string) = value else { return false }
            return string.utf8.starts(with: prefix.utf8)
        case .isIn(let values): return values.contains { FieldOrder.compare(value, $0) == 0 }
        }
    }

    /// The ranges of values, in the order, that hold every value that passes: what an index
    /// reads, before each value it finds is checked with ``matches(_:)``. Each range is a lower
    /// bound (`nil`: from the first value) and an upper one (`nil`: to the last), both included;
    /// the ranges are sorted and apart.
    var ranges: [(lower: RecordValue?, upper: RecordValue?)] {
        switch test {
        case .equals(let value): return [(value, value)]
        case .lessThan(let bound), .atMost(let bound): return [(nil, bound)]
        case .greaterThan(let bound), .atLeast(let bound): return [(bound, nil)]
        case .between(let lower, let upper):
            return FieldOrder.compare(lower, upper) <= 0 ? [(lower, upper)] : []
        case .hasPrefix(let prefix):
            // Strings that start with the prefix sort from it on, before any other string after
            // it: the index finds where they end.
            return [(.string(prefix), nil)]
        case .isIn(let values):
            let sorted = values.sorted { FieldOrder.precedes($0, $1) }
            var unique: [RecordValue] = []
            for value in sorted where unique.last.map({ FieldOrder.compare($0, value) != 0 }) ?? true {
                unique.append(value)
            }
            return unique.map { ($0, $0) }
        }
    }
}

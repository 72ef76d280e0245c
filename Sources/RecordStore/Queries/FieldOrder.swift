import Foundation
import RecordCodable

/// The order in which queries compare field values: one total order over every `RecordValue`,
/// so that an index can keep them sorted and a range means the same with or without one.
///
/// Kinds come in this order, and within a kind:
///
/// 1. a missing field (or a field that holds nothing), first;
/// 2. numbers, `int64` and `double` together, by their value: `3` and `3.0` are equal, and an
///    integer too large for a double keeps its exact place;
/// 3. strings, by their UTF-8 bytes, which is the order of their Unicode scalars: a precomposed `é`
///    and `e` with a combining accent are two strings, as they are two sequences of bytes to
///    CloudKit;
/// 4. dates;
/// 5. bytes, byte by byte;
/// 6. references, by zone, then record name;
/// 7. lists, element by element, a shorter list first when it is a prefix of the other;
/// 8. locations, by latitude, then longitude, then their other facts;
/// 9. assets, by their description.
enum FieldOrder {
    /// `-1`, `0` or `1` as `first` comes before, with, or after `second`.
    static func compare(_ first: RecordValue?, _ second: RecordValue?) -> Int {
        guard let first else { return second == nil ? 0 : -1 }
        guard let second else { return 1 }
        let ranks = (rank(of: first), rank(of: second))
        guard ranks.0 == ranks.1 else { return ranks.0 < ranks.1 ? -1 : 1 }
        switch (first, second) {
        case (.int64(let a), .int64(let b)): return sign(a, b)
        case (.double(let a), .double(let b)): return sign(a, b)
        case (.int64(let a), .double(let b)): return compare(a, b)
        case (.double(let a), .int64(let b)): return -compare(b, a)
        case (.string(let a), .string(let b)): return compareText(a, b)
        case (.date(let a), .date(let b)): return sign(a, b)
        case (.bytes(let a), .bytes(let b)): return compareBytes(a, b)
        case (.reference(let a), .reference(let b)):
            let zones = compareText(a.zoneID?.zoneName ?? "", b.zoneID?.zoneName ?? "")
            return zones != 0 ? zones : compareText(a.recordName, b.recordName)
        case (.list(let a), .list(let b)):
            for (x, y) in zip(a, b) {
                let order = compare(x, y)
                if order != 0 { return order }
            }
            return sign(a.count, b.count)
        case (.location(let a), .location(let b)):
            let order = sign(a.latitude, b.latitude)
            if order != 0 { return order }
            let longitude = sign(a.longitude, b.longitude)
            return longitude != 0 ? longitude : compareText(String(describing: a), String(describing: b))
        default:
            return compareText(String(describing: first), String(describing: second))
        }
    }

    /// Whether `first` comes before `second`.
    static func precedes(_ first: RecordValue?, _ second: RecordValue?) -> Bool {
        compare(first, second) < 0
    }

    /// The place of a value's kind in the order.
    private static func rank(of value: RecordValue) -> Int {
        switch value {
        case .int64, .double: 1
        case .string: 2
        case .date: 3
        case .bytes: 4
        case .reference: 5
        case .list: 6
        case .location: 7
        case .asset: 8
        }
    }

    /// Strings by their UTF-8 bytes.
    static func compareText(_ first: String, _ second: String) -> Int {
        var a = first.utf8.makeIterator()
        var b = second.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    private static func compareBytes(_ first: Data, _ second: Data) -> Int {
        for (x, y) in zip(first, second) where x != y { return x < y ? -1 : 1 }
        return sign(first.count, second.count)
    }

    private static func sign<T: Comparable>(_ first: T, _ second: T) -> Int {
        first < second ? -1 : (second < first ? 1 : 0)
    }

    /// An integer against a double, exactly: converting the integer to a double would round it
    /// above 2^53.
    private static func compare(_ integer: Int64, _ double: Double) -> Int {
        // A NaN, which no record should hold, goes after every integer rather than trap below.
        guard !double.isNaN else { return -1 }
        // -2^63 is exact as a double; 2^63 is the first double above every Int64.
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        let whole = double.rounded(.towardZero)
        let order = sign(integer, Int64(whole))
        if order != 0 { return order }
        return sign(0.0, double - whole)
    }
}

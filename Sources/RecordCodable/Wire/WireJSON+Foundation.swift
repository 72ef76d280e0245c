import Foundation

/// `WireJSON`'s `Codable` conformance: the generic route of a wire value through any coder, as
/// a string-keyed dictionary of values, each read by trying each kind of JSON in turn.
///
/// The wire types take it with a coder that does not hand their dictionaries to keyed containers
/// unchanged (a JSON coder with a key strategy other than the default), and for any value that
/// the keyed route (`WireJSON+Keyed.swift`) finds is not what its place in CloudKit's format
/// expects: its values and its errors are the ones both routes give (see ``WireCoding``).
extension WireJSON: Codable {
    init(from decoder: any Decoder) throws {
        #if DEBUG
            Self.readCount?.values += 1
        #endif
        let container = try decoder.singleValueContainer()
        // Foundation's decoder offers no way to ask which kind a value is, so each kind is tried,
        // the likeliest first. A try of the wrong kind fails at once, at this value's own path.
        // A try that fails in any other way found the right kind with something wrong in it, and
        // its error is the answer: so no part of the JSON is read twice, and an error names the
        // value that is wrong.
        if container.decodeNil() {
            self = .null
            return
        }
        let path: [any CodingKey]
        do {
            self = .string(try container.decode(String.self))
            return
        } catch DecodingError.typeMismatch(_, let context) {
            // Not a string. The error tells the value's path, which would cost as much to ask for.
            path = context.codingPath
        }
        // Only a value that is not a string can nest, so only such a value is measured.
        guard path.count - Self.documentDepth <= Self.maximumNesting else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: path,
                    debugDescription: "The JSON nests more than \(Self.maximumNesting) levels deep, deeper than "
                        + "CloudKit's records and bodies do."))
        }
        if let object = try Self.attempt([String: WireJSON].self, in: container, at: path) {
            self = .object(object)
        } else if let number = try? container.decode(Int64.self) {
            // An integral number reads as Int64 first, so that every digit of a large one is kept.
            self = Self.integer(number, double: number == 0 ? try? container.decode(Double.self) : nil)
        } else if let number = try Self.attempt(Double.self, in: container, at: path) {
            self = .double(number)
        } else if let bool = try Self.attempt(Bool.self, in: container, at: path) {
            self = .bool(bool)
        } else {
            self = .array(try Self.elements(of: container))
        }
    }

    /// The value at `path` as a `T`, or `nil` when it is not of `T`'s kind at all.
    private static func attempt<T: Decodable>(
        _ type: T.Type, in container: any SingleValueDecodingContainer, at path: [any CodingKey]
    ) throws -> T? {
        do {
            return try container.decode(type)
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.count == path.count {
            return nil
        } catch  where NestedJSON.isReadError(error) {
            throw readError(error, at: path, isNumber: type == Double.self)
        }
    }

    /// The error for JSON that Foundation's decoder finds it cannot read only as it reads it: a
    /// number beyond a Double's range, which this value is, or a broken string somewhere inside
    /// this object. Foundation's decoder throws an error of its own, which it reports for the
    /// whole document as "not valid JSON": the value at `path` is the one it means.
    ///
    /// - Parameter isNumber: Whether the value is a number, rather than an object with something
    ///   broken inside it.
    static func readError(_ error: any Error, at path: [any CodingKey], isNumber: Bool = false) -> DecodingError {
        let reason =
            isNumber
            ? "The number is beyond the range of a Double"
            : "A value in this object cannot be read: a number beyond the range of a Double, or a string "
                + "that is not valid Unicode"
        return DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: path, debugDescription: "\(reason) (\(error)).", underlyingError: error))
    }

    /// An integral JSON number, with its double when it is zero, which JSON can sign: `-0` is the
    /// double minus zero, so that it reads back as it was written; any other is the integer.
    static func integer(_ integer: Int64, double: Double?) -> WireJSON {
        if integer == 0, let double, double.sign == .minus { return .double(double) }
        return .int64(integer)
    }

    /// The elements of an array. A list's elements are all of one kind, so an array of plain
    /// values is first read as one: each element would otherwise cost a failed try or more, and a
    /// failed try costs an error. A plain value has nothing inside it, so a failed read of the
    /// whole array costs at most one pass over it, never a second reading of what nests in it.
    private static func elements(of container: any SingleValueDecodingContainer) throws -> [WireJSON] {
        if let integers = try? container.decode([Int64].self) {
            return Self.integers(integers, doubles: { try? container.decode([Double].self) })
        }
        if let strings = try? container.decode([String].self) { return strings.map(WireJSON.string) }
        if let doubles = try? container.decode([Double].self), let numbers = numbers(doubles) { return numbers }
        return try container.decode([WireJSON].self)
    }

    /// An array read as integers, each as ``integer(_:double:)`` makes it. Only a zero may be
    /// minus zero, which only its double tells: so `doubles`, the same array read as doubles, is
    /// read only when there is a zero.
    static func integers(_ integers: [Int64], doubles: () -> [Double]?) -> [WireJSON] {
        guard integers.contains(0), let doubles = doubles() else { return integers.map(WireJSON.int64) }
        return zip(integers, doubles).map { integer($0, double: $1) }
    }

    /// An array read as doubles, each number as it reads alone: an integral one within `Int64` as
    /// an integer, unless it is minus zero. `nil` when a double is from 2^53 up: it may be an
    /// integer the double rounded, so such an array is read number by number, each as an integer
    /// first, so that no digit of an integer is lost unseen.
    static func numbers(_ doubles: [Double]) -> [WireJSON]? {
        guard !doubles.contains(where: { $0.magnitude >= 0x1p53 }) else { return nil }
        return doubles.map { number in
            if number == 0 && number.sign == .minus { return .double(number) }
            return Int64(exactly: number).map(WireJSON.int64) ?? .double(number)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .int64(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .array(let elements):
            switch PlainElements(elements) {
            case .integers(let integers): try container.encode(integers)
            case .strings(let strings): try container.encode(strings)
            case nil: try container.encode(elements)
            }
        case .object(let members): try container.encode(members)
        case .recordFields, .commonFields:
            try container.encode(deferredFields?.object ?? [:])
        }
    }
}

/// The elements of an array when they are all integers or all strings. A list's elements are all
/// of one kind: an array of plain values is written as one, which Foundation's encoder does much
/// faster than value by value.
enum PlainElements: Equatable {
    case integers([Int64])
    case strings([String])

    init?(_ elements: [WireJSON]) {
        if let integers = elements.all({ if case .int64(let number) = $0 { number } else { nil } }) {
            self = .integers(integers)
        } else if let strings = elements.all({ if case .string(let string) = $0 { string } else { nil } }) {
            self = .strings(strings)
        } else {
            return nil
        }
    }
}

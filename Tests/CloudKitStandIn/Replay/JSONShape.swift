import Foundation

/// A JSON value as the replay compares bodies: objects without regard to key order or spacing,
/// numbers by value (`1` equals `1.0`), `true` never equal to `1`.
indirect enum JSONShape: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case float(Double)
    case string(String)
    case array([JSONShape])
    case object([String: JSONShape])

    /// Parses a body, or throws the decoder's error for one that is not JSON.
    static func parse(_ body: Data) throws -> JSONShape {
        try JSONDecoder().decode(JSONShape.self, from: body)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .float(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONShape].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONShape].self))
        }
    }

    static func == (lhs: JSONShape, rhs: JSONShape) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let left), .bool(let right)): left == right
        case (.string(let left), .string(let right)): left == right
        case (.array(let left), .array(let right)): left.elementsEqual(right)
        case (.object(let left), .object(let right)):
            left.count == right.count && left.allSatisfy { right[$0.key] == $0.value }
        default:
            if let left = lhs.number, let right = rhs.number { left == right } else { false }
        }
    }

    private var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .float(let value): value
        default: nil
        }
    }

    /// Where `sent` first differs from `self` (the recorded value), as a path from the body's
    /// root (`$`) and the two values there, or `nil` when they are equal.
    ///
    /// For example: `at $.query.filterBy[0].comparator: recorded "EQUALS", sent "IN"`.
    func firstDifference(from sent: JSONShape, at path: String = "$") -> String? {
        switch (self, sent) {
        case (.object(let recorded), .object(let sentObject)):
            for key in Set(recorded.keys).union(sentObject.keys).sorted() {
                switch (recorded[key], sentObject[key]) {
                case (let left?, let right?):
                    if let difference = left.firstDifference(from: right, at: "\(path).\(key)") { return difference }
                case (let left?, nil):
                    return "at \(path): the recording has \"\(key)\" (\(left.summary)), the request has not"
                case (nil, let right?):
                    return "at \(path): the request has \"\(key)\" (\(right.summary)), the recording has not"
                case (nil, nil):
                    continue
                }
            }
            return nil
        case (.array(let recorded), .array(let sentArray)):
            for (index, (left, right)) in zip(recorded, sentArray).enumerated() {
                if let difference = left.firstDifference(from: right, at: "\(path)[\(index)]") { return difference }
            }
            guard recorded.count == sentArray.count else {
                return "at \(path): the recording has \(recorded.count) elements, the request \(sentArray.count)"
            }
            return nil
        default:
            return self == sent ? nil : "at \(path): recorded \(summary), sent \(sent.summary)"
        }
    }

    /// The value in a few characters: scalars as JSON writes them, containers by their size.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .integer(let value): String(value)
        case .float(let value): String(value)
        case .string(let value): value.count > 60 ? "\"\(value.prefix(60))…\"" : "\"\(value)\""
        case .array(let value): "an array of \(value.count)"
        case .object(let value): "an object of \(value.count) keys"
        }
    }
}

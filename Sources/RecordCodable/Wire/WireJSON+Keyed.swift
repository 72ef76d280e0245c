import Foundation

/// Wire JSON through keyed containers of ``DictionaryKey``: the fast form of `WireJSON`'s
/// `Codable` conformance, for a coder that treats string-keyed dictionaries as keyed containers
/// (``DictionaryCoding/isDictionaryMember(_:)``).
///
/// Through `Codable` alone, every object is a dictionary and every value in it a `WireJSON` of its
/// own, each with a coder of its own; and reading one means trying each kind of JSON in turn
/// until one fits, at the cost of an error for each kind that does not. Through keyed containers,
/// the values of an object are read and written in place, and each is read as the kind its
/// ``WireShape`` expects: a field's `value` as the kind its `type` names. The JSON is the same
/// byte for byte, and so are the values read and the errors thrown: where a value is not what
/// its shape expects, it is read by `WireJSON`'s own `init(from:)`, as it would have been anyway.
extension WireJSON {
    // MARK: Reading

    /// Reads the value at `source`, first as the kind `shape` expects.
    ///
    /// For example, `{"type": "INT64", "value": 3}` read as a ``WireShape/field`` costs a string
    /// for its `type` and an integer for its `value`, where `WireJSON(from:)` would try a string,
    /// an object and an integer for the value.
    static func read(_ source: some WireValueSource, as shape: WireShape) throws -> WireJSON {
        if let value = try readExpected(source, as: shape) { return value }
        return try source.anyValue()
    }

    /// The value at `source` read as the kind `shape` expects, or `nil` when it is not of that kind
    /// (or `shape` expects none). A read that fails in any way returns `nil` too: the value is
    /// then read as any value, which fails again if something is wrong with it, and so throws the
    /// very error it would have thrown without a shape.
    ///
    /// A value read here is the one `WireJSON(from:)` would read, which tries a string, an object,
    /// an integer, a double, a boolean and an array, in this order: so each kind is read as that
    /// order would read it, as noted below.
    private static func readExpected(_ source: some WireValueSource, as shape: WireShape) throws -> WireJSON? {
        switch shape {
        case .unknown:
            return nil
        case .string:
            return (try? source.string()).map(WireJSON.string)
        case .integer:
            guard let integer = try? source.int64() else { return nil }
            return Self.integer(integer, double: integer == 0 ? try? source.double() : nil)
        case .number:
            return number(source)
        case .bool:
            return (try? source.bool()).map(WireJSON.bool)
        case .strings, .integers, .numbers:
            return list(source, as: shape)
        case .objects(let object):
            return try objects(source, as: .object(object))
        case .object, .fields:
            guard let object = try? source.object(keyedBy: DictionaryKey.self) else { return nil }
            return .object(try members(of: object, as: shape))
        case .field:
            guard let field = try? source.object(keyedBy: FieldKey.self) else { return nil }
            return .object(try members(ofField: field))
        }
    }

    /// A number, read as a `Double`, and also as an `Int64` when it is integral: an integer read
    /// from it first would be the value. A number with a fraction is no `Int64`, so the usual
    /// number, such as `4.75`, costs one read.
    private static func number(_ source: some WireValueSource) -> WireJSON? {
        guard let number = try? source.double() else { return nil }
        guard number.rounded(.towardZero) == number, let integer = try? source.int64() else { return .double(number) }
        return Self.integer(integer, double: number)
    }

    /// An array of plain values: a list. Its elements are read one by one, where `WireJSON(from:)`
    /// reads such an array whole, to the same values.
    private static func list(_ source: some WireValueSource, as shape: WireShape) -> WireJSON? {
        switch shape {
        case .strings:
            // An empty array would be read as integers first: the same empty array.
            return plainElements(source, { try $0.decode(String.self) }).map { .array($0.map(WireJSON.string)) }
        case .integers:
            guard let integers = plainElements(source, { try $0.decode(Int64.self) }) else { return nil }
            return .array(Self.integers(integers, doubles: { plainElements(source, { try $0.decode(Double.self) }) }))
        default:
            guard let doubles = plainElements(source, { try $0.decode(Double.self) }) else { return nil }
            // Integers are tried first, which only integral numbers can be; strings next, which
            // numbers are not.
            if doubles.allSatisfy({ $0.rounded(.towardZero) == $0 }),
                let integers = plainElements(source, { try $0.decode(Int64.self) })
            {
                return .array(Self.integers(integers, doubles: { doubles }))
            }
            return numbers(doubles).map(WireJSON.array)
        }
    }

    /// The elements of an array, each read by `read`; `nil` when the value is not an array or an
    /// element is not what `read` reads.
    private static func plainElements<Element>(
        _ source: some WireValueSource, _ read: (inout any UnkeyedDecodingContainer) throws -> Element
    ) -> [Element]? {
        guard var elements = try? source.elements() else { return nil }
        var values: [Element] = []
        values.reserveCapacity(elements.count ?? 0)
        while !elements.isAtEnd {
            guard let value = try? read(&elements) else { return nil }
            values.append(value)
        }
        return values
    }

    /// An array of objects of one shape, read object by object. An array with anything but
    /// objects in it is left to `WireJSON(from:)`, which reads such an array whole in some cases.
    private static func objects(_ source: some WireValueSource, as shape: WireShape) throws -> WireJSON? {
        guard var elements = try? source.elements() else { return nil }
        var objects: [WireJSON] = []
        objects.reserveCapacity(elements.count ?? 0)
        while !elements.isAtEnd {
            // Only the container is asked for here: an error inside the object is the object's.
            guard let object = try? elements.nestedContainer(keyedBy: DictionaryKey.self) else { return nil }
            objects.append(.object(try members(of: object, as: shape)))
        }
        return .array(objects)
    }

    /// The members of an object of `shape`, each read as the shape expects.
    private static func members(
        of object: KeyedDecodingContainer<DictionaryKey>, as shape: WireShape
    ) throws -> [String: WireJSON] {
        try reportingReadErrors(in: object) {
            let keys = object.allKeys
            var members: [String: WireJSON] = Dictionary(minimumCapacity: keys.count)
            for key in keys {
                members[key.stringValue] = try read(KeyedMember(object, key), as: shape.member(key.stringValue))
            }
            return members
        }
    }

    /// The members of a record field: its `type` first, which says what its `value` is.
    private static func members(ofField field: KeyedDecodingContainer<FieldKey>) throws -> [String: WireJSON] {
        try reportingReadErrors(in: field) { try fieldMembers(field) }
    }

    /// Runs `read`, which reads the members of `object`. JSON that Foundation's decoder can read
    /// only as it reads it, broken inside the object, is reported at the object's path, as
    /// `WireJSON(from:)` reports it (``WireJSON/readError(_:at:)``).
    private static func reportingReadErrors<Key: CodingKey>(
        in object: KeyedDecodingContainer<Key>, _ read: () throws -> [String: WireJSON]
    ) throws -> [String: WireJSON] {
        do {
            return try read()
        } catch  where NestedJSON.isReadError(error) {
            throw readError(error, at: object.codingPath)
        }
    }

    private static func fieldMembers(_ field: KeyedDecodingContainer<FieldKey>) throws -> [String: WireJSON] {
        var members: [String: WireJSON] = Dictionary(minimumCapacity: 2)
        var valueShape = WireShape.unknown
        if let type = try member(.type, of: field, as: .string) {
            if case .string(let name) = type { valueShape = .value(ofType: name) }
            members[FieldKey.type.stringValue] = type
        }
        members[FieldKey.value.stringValue] = try member(.value, of: field, as: valueShape)
        // The other members: `isEncrypted`, and any CloudKit does not send, read all the same.
        for key in field.allKeys {
            members[key.stringValue] = try read(KeyedMember(field, key), as: WireShape.field.member(key.stringValue))
        }
        return members
    }

    /// The member `key` of a field, or `nil` when there is none. A field has its `type` and its
    /// `value`, so they are read before asking whether they are there.
    private static func member(
        _ key: FieldKey, of field: KeyedDecodingContainer<FieldKey>, as shape: WireShape
    ) throws -> WireJSON? {
        let member = KeyedMember(field, key)
        if let value = try readExpected(member, as: shape) { return value }
        guard field.contains(key) else { return nil }
        return try member.anyValue()
    }

    // MARK: Writing

    /// Writes the value through `encoder`'s keyed and unkeyed containers: the same JSON as
    /// `encode(to:)` writes.
    ///
    /// - Parameter depth: The length of `encoder`'s coding path.
    func write(to encoder: any Encoder, depth: Int) throws {
        switch self {
        case .object(let members):
            var container = encoder.container(keyedBy: DictionaryKey.self)
            try Self.write(members, to: &container, depth: depth)
        case .array(let elements) where Self.wholeArray(elements, depth: depth) == nil:
            var container = encoder.unkeyedContainer()
            try Self.write(elements, to: &container, depth: depth)
        default:
            try encode(to: encoder)
        }
    }

    /// The elements of an array at `depth` that is written whole, as `encode(to:)` writes an
    /// array of plain values; `nil` for an array written element by element.
    ///
    /// Foundation's encoder writes the elements the same either way, but a whole array costs it
    /// more. It also does not count a whole array against its limit of 512 levels of nesting, so
    /// arrays beyond half that depth, in which the JSON of a wire type never is unless the caller
    /// nests it there, are written whole.
    private static func wholeArray(_ elements: [WireJSON], depth: Int) -> PlainElements? {
        depth < 256 ? nil : PlainElements(elements)
    }

    /// Writes the members of an object into `container`, whose coding path is `depth` long.
    static func write(
        _ members: [String: WireJSON], to container: inout KeyedEncodingContainer<DictionaryKey>, depth: Int
    ) throws {
        for (name, value) in members {
            let key = DictionaryKey(name)
            switch value {
            case .null: try container.encodeNil(forKey: key)
            case .bool(let bool): try container.encode(bool, forKey: key)
            case .int64(let number): try container.encode(number, forKey: key)
            case .double(let number): try container.encode(number, forKey: key)
            case .string(let string): try container.encode(string, forKey: key)
            case .array(let elements):
                switch wholeArray(elements, depth: depth + 1) {
                case .integers(let integers): try container.encode(integers, forKey: key)
                case .strings(let strings): try container.encode(strings, forKey: key)
                case nil:
                    var nested = container.nestedUnkeyedContainer(forKey: key)
                    try write(elements, to: &nested, depth: depth + 1)
                }
            case .object(let members):
                var nested = container.nestedContainer(keyedBy: DictionaryKey.self, forKey: key)
                try write(members, to: &nested, depth: depth + 1)
            case .recordFields, .commonFields:
                var nested = container.nestedContainer(keyedBy: DictionaryKey.self, forKey: key)
                try write(value.deferredFields?.object ?? [:], to: &nested, depth: depth + 1)
            }
        }
    }

    private static func write(
        _ elements: [WireJSON], to container: inout any UnkeyedEncodingContainer, depth: Int
    ) throws {
        for element in elements {
            switch element {
            case .null: try container.encodeNil()
            case .bool(let bool): try container.encode(bool)
            case .int64(let number): try container.encode(number)
            case .double(let number): try container.encode(number)
            case .string(let string): try container.encode(string)
            case .array(let elements):
                switch wholeArray(elements, depth: depth + 1) {
                case .integers(let integers): try container.encode(integers)
                case .strings(let strings): try container.encode(strings)
                case nil:
                    var nested = container.nestedUnkeyedContainer()
                    try write(elements, to: &nested, depth: depth + 1)
                }
            case .object(let members):
                var nested = container.nestedContainer(keyedBy: DictionaryKey.self)
                try write(members, to: &nested, depth: depth + 1)
            case .recordFields, .commonFields:
                var nested = container.nestedContainer(keyedBy: DictionaryKey.self)
                try write(element.deferredFields?.object ?? [:], to: &nested, depth: depth + 1)
            }
        }
    }
}

/// Where a wire value is read from: the whole value of a decoder, or a member of a keyed
/// container. Each read throws when the value is not of the kind asked for.
protocol WireValueSource {
    func string() throws -> String
    func int64() throws -> Int64
    func double() throws -> Double
    func bool() throws -> Bool
    func object<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key>
    func elements() throws -> any UnkeyedDecodingContainer
    /// The value read as any value: `WireJSON(from:)`, which tries each kind in turn.
    func anyValue() throws -> WireJSON
}

/// The whole value a decoder holds.
struct DecoderValue: WireValueSource {
    let decoder: any Decoder

    func string() throws -> String { try decoder.singleValueContainer().decode(String.self) }
    func int64() throws -> Int64 { try decoder.singleValueContainer().decode(Int64.self) }
    func double() throws -> Double { try decoder.singleValueContainer().decode(Double.self) }
    func bool() throws -> Bool { try decoder.singleValueContainer().decode(Bool.self) }

    func object<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try decoder.container(keyedBy: type)
    }

    func elements() throws -> any UnkeyedDecodingContainer { try decoder.unkeyedContainer() }
    func anyValue() throws -> WireJSON { try WireJSON(from: decoder) }
}

/// One member of an object read through a keyed container.
struct KeyedMember<Key: CodingKey>: WireValueSource {
    let container: KeyedDecodingContainer<Key>
    let key: Key

    init(_ container: KeyedDecodingContainer<Key>, _ key: Key) {
        self.container = container
        self.key = key
    }

    func string() throws -> String { try container.decode(String.self, forKey: key) }
    func int64() throws -> Int64 { try container.decode(Int64.self, forKey: key) }
    func double() throws -> Double { try container.decode(Double.self, forKey: key) }
    func bool() throws -> Bool { try container.decode(Bool.self, forKey: key) }

    func object<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try container.nestedContainer(keyedBy: type, forKey: key)
    }

    func elements() throws -> any UnkeyedDecodingContainer { try container.nestedUnkeyedContainer(forKey: key) }
    func anyValue() throws -> WireJSON { try container.decode(WireJSON.self, forKey: key) }
}

import Foundation

/// Finds how the values of a type are stored, without a value: the type decodes itself from this
/// decoder, which notes the first thing it asks for and then stops it.
///
/// The encoder tells a value's form from the containers the value asks for (see
/// ``ValueEncoder``); decoding asks for the same ones. So a type that asks for a single `String`
/// is stored as `STRING`; one that asks for a keyed container is a nested value, stored as JSON
/// bytes; one that asks for an unkeyed container is a list of whatever its first element is. Types
/// with a fixed mapping, linked models and asset values are recognised by their type first, as
/// the encoder recognises them.
///
/// The first request decides: a type that would ask for something else had it received other
/// data is described by what it asks first.
final class ShapeProbe: Decoder {
    /// What the probes of one field share: whether an ``Encrypted`` wrapper was met on the way
    /// down, and the user info the model may read.
    final class Context {
        var isEncrypted = false
        let userInfo: [CodingUserInfoKey: Any]

        init(userInfo: [CodingUserInfoKey: Any]) {
            self.userInfo = userInfo
        }
    }

    /// How deep types may hold one another before the probe gives up, so that a type that holds
    /// itself ends with an error rather than a stack overflow.
    static let maximumDepth = 32

    private let context: Context
    private let depth: Int
    /// What the type asked for first.
    fileprivate(set) var shape: StoredShape?
    /// Whether the type asked for an element of its list: its one element, after which the list
    /// is at its end.
    fileprivate var offeredElement = false
    /// Why the list's element could not be probed, when the type went on past it.
    fileprivate var elementFailure: ProbeFailure?

    private init(context: Context, depth: Int) {
        self.context = context
        self.depth = depth
    }

    /// The shape of `type`'s values, noting in `context` whether they are encrypted.
    ///
    /// - Throws: ``ProbeFailure`` when `type` fails before asking for anything, or holds types
    ///   too deeply.
    static func shape<T: Decodable>(of type: T.Type, context: Context, depth: Int = 0) throws -> StoredShape {
        guard depth < maximumDepth else { throw ProbeFailure(.tooDeep(type)) }
        if type is any EncryptedWrapper.Type { context.isEncrypted = true }
        if let special = SpecialType(type) { return special.storedShape }
        if type is any LinkedRecord.Type { return .type(.reference) }
        if type is any RecordAssetValue.Type { return .type(.asset) }
        // Stored as JSON whatever its keys: one whose keys are neither strings nor integers reads
        // a list of keys and values, which the probe's one element cannot satisfy.
        if type is any DictionaryMarker.Type { return .json }
        let probe = ShapeProbe(context: context, depth: depth)
        do {
            _ = try T(from: probe)
        } catch is ProbeStop {
            // The probe learned what it needed.
        } catch  where probe.shape != nil {
            // The type failed after asking, on the probe's answer, which is not its business.
        } catch let failure as ProbeFailure {
            throw failure
        } catch {
            throw ProbeFailure(.failed(type, error))
        }
        // A list that went on past an element the probe could not answer is described by none.
        if let failure = probe.elementFailure { throw failure }
        // A value that reads nothing writes nothing either, which the encoder stores as `{}`.
        return probe.shape ?? .json
    }

    /// The shape of a value that `T` reads through a container of this probe.
    fileprivate func shape<T: Decodable>(of type: T.Type) throws -> StoredShape {
        try Self.shape(of: type, context: context, depth: depth &+ 1)
    }

    /// Notes the first request, and stops the type.
    fileprivate func learned(_ shape: StoredShape) -> ProbeStop {
        if self.shape == nil { self.shape = shape }
        return ProbeStop()
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw learned(.json)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ElementProbe(probe: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueProbe(probe: self)
    }
}

/// Thrown, and caught, when a probe has learned what it needed.
struct ProbeStop: Error {}

/// Why a model type could not be probed, and where.
struct ProbeFailure: Error {
    enum Reason {
        /// The type threw this error, on the probe's answers.
        case failed(Any.Type, any Error)
        /// Types held one another more than ``ShapeProbe/maximumDepth`` deep.
        case tooDeep(Any.Type)
    }

    var reason: Reason
    /// The path of the value that could not be probed: from the record when a
    /// ``PlaceholderDecoder`` throws it, from the property's value when a ``ShapeProbe`` does.
    var codingPath: [any CodingKey]

    init(_ reason: Reason, at codingPath: [any CodingKey] = []) {
        self.reason = reason
        self.codingPath = codingPath
    }
}

/// A probe's single value: the first value asked for is the shape.
private struct SingleValueProbe: SingleValueDecodingContainer {
    let probe: ShapeProbe

    var codingPath: [any CodingKey] { [] }

    /// An optional asks first whether it is `nil`: it is not, so that it reads what it wraps.
    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) throws -> Bool { throw probe.learned(.type(.int64)) }
    func decode(_ type: String.Type) throws -> String { throw probe.learned(.type(.string)) }
    func decode(_ type: Double.Type) throws -> Double { throw probe.learned(.type(.double)) }
    func decode(_ type: Float.Type) throws -> Float { throw probe.learned(.type(.double)) }
    func decode(_ type: Int.Type) throws -> Int { throw probe.learned(.type(.int64)) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw probe.learned(.type(.int64)) }
    func decode(_ type: Int16.Type) throws -> Int16 { throw probe.learned(.type(.int64)) }
    func decode(_ type: Int32.Type) throws -> Int32 { throw probe.learned(.type(.int64)) }
    func decode(_ type: Int64.Type) throws -> Int64 { throw probe.learned(.type(.int64)) }
    func decode(_ type: UInt.Type) throws -> UInt { throw probe.learned(.type(.int64)) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw probe.learned(.type(.int64)) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw probe.learned(.type(.int64)) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw probe.learned(.type(.int64)) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw probe.learned(.type(.int64)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { throw probe.learned(.type(.int64)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { throw probe.learned(.type(.int64)) }

    /// A value that wraps another, such as a raw-value enum's raw value or a wrapper's value, is
    /// stored as the value it wraps.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        throw probe.learned(try probe.shape(of: type))
    }
}

/// A probe's unkeyed container: it offers one element, whose shape makes the list's.
///
/// The list is at its end once its element was asked for, so that a type that reads on past an
/// element it could not decode (`try?` in a loop until `isAtEnd`) ends too.
private struct ElementProbe: UnkeyedDecodingContainer {
    let probe: ShapeProbe

    var codingPath: [any CodingKey] { [] }
    var count: Int? { 1 }
    var isAtEnd: Bool { probe.offeredElement || probe.shape != nil }
    var currentIndex: Int { isAtEnd ? 1 : 0 }

    func decodeNil() -> Bool { false }

    func decode(_ type: Bool.Type) throws -> Bool { throw element(.type(.int64)) }
    func decode(_ type: String.Type) throws -> String { throw element(.type(.string)) }
    func decode(_ type: Double.Type) throws -> Double { throw element(.type(.double)) }
    func decode(_ type: Float.Type) throws -> Float { throw element(.type(.double)) }
    func decode(_ type: Int.Type) throws -> Int { throw element(.type(.int64)) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw element(.type(.int64)) }
    func decode(_ type: Int16.Type) throws -> Int16 { throw element(.type(.int64)) }
    func decode(_ type: Int32.Type) throws -> Int32 { throw element(.type(.int64)) }
    func decode(_ type: Int64.Type) throws -> Int64 { throw element(.type(.int64)) }
    func decode(_ type: UInt.Type) throws -> UInt { throw element(.type(.int64)) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { throw element(.type(.int64)) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw element(.type(.int64)) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw element(.type(.int64)) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw element(.type(.int64)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 { throw element(.type(.int64)) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { throw element(.type(.int64)) }

    /// A collection of optionals is stored as JSON, whatever it holds, but for optional linked
    /// models, whose references make a list (as the encoder decides it).
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let optional = type as? any OptionalValue.Type {
            throw element(optional.wrappedType is any LinkedRecord.Type ? .type(.reference) : .json)
        }
        do {
            throw element(try probe.shape(of: type))
        } catch let failure as ProbeFailure {
            probe.offeredElement = true
            if probe.elementFailure == nil { probe.elementFailure = failure }
            throw failure
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw probe.learned(.json)
    }

    func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw probe.learned(.json)
    }

    func superDecoder() throws -> any Decoder {
        throw probe.learned(.json)
    }

    private func element(_ shape: StoredShape) -> ProbeStop {
        probe.offeredElement = true
        return probe.learned(shape.asListElement)
    }
}

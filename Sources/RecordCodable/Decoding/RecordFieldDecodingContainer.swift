import Foundation

/// The keyed container of a record: each property reads the field of its key.
///
/// The identifier reads the record's name, and a `RecordMetadata` property the record's metadata.
/// A missing field is `keyNotFound`, or `nil` for an optional property.
struct RecordFieldDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let engine: RecordDecodingEngine

    var codingPath: [any CodingKey] { [] }

    /// The keys of the record's fields. The identifier is not among them: a dictionary, or a
    /// model that has no identifier, reads the fields alone; a model that has one asks for it.
    var allKeys: [Key] {
        engine.fieldKeys.compactMap(Key.init(stringValue:))
    }

    /// Whether the key has a field, or is the identifier of a record that has a name.
    func contains(_ key: Key) -> Bool {
        engine.isIdentifier(key) ? engine.hasName : engine.field(forKey: key) != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        !contains(key)
    }

    // MARK: Values

    // Each method reads the key's name once, for both the identifier check and the field lookup.

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let name = key.stringValue
        if engine.isIdentifier(named: name) { return try engine.recordName(forKey: key) }
        return try Unbox.string(
            field(key, named: name), readingBytes: engine.options.readsStringsFromUTF8Bytes, at: .field(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try Unbox.bool(identifierOrField(key, named: key.stringValue, as: type), at: .field(key))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try Unbox.double(identifierOrField(key, named: key.stringValue, as: type), at: .field(key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try Unbox.float(identifierOrField(key, named: key.stringValue, as: type), at: .field(key))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(type, forKey: key) }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(type, forKey: key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // The types with a fixed mapping, recognised once here for the field's route too; none of
        // them is metadata.
        let special = SpecialType(T.self)
        if special == nil {
            // A RecordMetadata property is never a field: it reads the record's metadata, which a
            // record the server has not seen yet has none of but its name.
            if T.self == RecordMetadata.self {
                let name = engine.record.recordName
                return try reinterpret(
                    engine.record.metadata ?? RecordMetadata(recordName: name.isEmpty ? nil : name), as: type)
            }
            if KnownTypes.isOptionalMetadata(T.self) { return try reinterpret(engine.record.metadata, as: type) }
        }
        let name = key.stringValue
        if engine.isIdentifier(named: name) { return try identifier(as: type, forKey: key) }
        guard let value = engine.field(named: name) else {
            // Nor is the archive of the record's system fields that a platform bridge keeps: it
            // is read where no field has the property's name, so that no other property pays for
            // asking its type (a conformance lookup costs more than most properties' decoding).
            if let archiveType = T.self as? any RecordSystemFieldsArchive.Type {
                return try systemFieldsArchive(archiveType, as: type, forKey: key)
            }
            return try missingValue(type, forKey: key)
        }
        return try engine.decodeField(type, special: special, from: value, at: .field(named: name))
    }

    // MARK: Optional values

    // A missing field is nil. These are written out, rather than left to the protocol's defaults,
    // so that each looks the field up once, not three times.

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        let name = key.stringValue
        if engine.isIdentifier(named: name) { return engine.hasName ? engine.record.recordName : nil }
        return try engine.field(named: name).map {
            try Unbox.string($0, readingBytes: engine.options.readsStringsFromUTF8Bytes, at: .field(key))
        }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try optionalField(key, named: key.stringValue, as: type).map { try Unbox.bool($0, at: .field(key)) }
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try optionalField(key, named: key.stringValue, as: type).map { try Unbox.double($0, at: .field(key)) }
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try optionalField(key, named: key.stringValue, as: type).map { try Unbox.float($0, at: .field(key)) }
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try optionalInteger(type, forKey: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try optionalInteger(type, forKey: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try optionalInteger(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try optionalInteger(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try optionalInteger(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try optionalInteger(type, forKey: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try optionalInteger(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try optionalInteger(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try optionalInteger(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try optionalInteger(type, forKey: key)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        try optionalInteger(type, forKey: key)
    }
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        try optionalInteger(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        if T.self == RecordMetadata.self { return try engine.record.metadata.map { try reinterpret($0, as: type) } }
        let name = key.stringValue
        if engine.isIdentifier(named: name) { return engine.hasName ? try identifier(as: type, forKey: key) : nil }
        guard let value = engine.field(named: name) else {
            // The archive of the record's system fields, where no field has the property's name
            // (see `decode(_:forKey:)`).
            guard engine.record.systemFieldsArchive != nil,
                let archiveType = T.self as? any RecordSystemFieldsArchive.Type
            else { return nil }
            return try systemFieldsArchive(archiveType, as: type, forKey: key)
        }
        // An optional linked model whose record was not given is nil.
        if T.self is any LinkedRecord.Type, engine.isMissingLinkedRecord(value, of: T.self) {
            engine.noteUnreadLink(at: .field(named: name))
            return nil
        }
        return try engine.decodeField(type, from: value, at: .field(named: name))
    }

    /// The value of a ``RecordSystemFieldsArchive`` property: the record's archive, or an error
    /// when the property's type cannot hold what the record has (no archive for a property that is
    /// not optional).
    @inline(never)
    private func systemFieldsArchive<T>(
        _ archiveType: any RecordSystemFieldsArchive.Type, as type: T.Type, forKey key: Key
    ) throws -> T {
        let archive = engine.record.systemFieldsArchive
        guard let value = archiveType.holding(recordSystemFieldsArchive: archive) as? T else {
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: [key],
                    debugDescription: "The record has no system fields to fill \(T.self): read it from the "
                        + "platform's record (such as RecordDecoder.decode(_:from: CKRecord)), or make the "
                        + "property optional."))
        }
        return value
    }

    // MARK: Nested containers

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try nestedDecoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nestedDecoder(forKey: key).unkeyedContainer()
    }

    /// The record's own decoder, so that a superclass reads the same record.
    func superDecoder() throws -> any Decoder {
        engine
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let decoder = ValueDecoder(engine: engine)
        decoder.start(identifierOrField(forKey: key), at: .field(key))
        return decoder
    }

    // MARK: Helpers

    private func field(_ key: Key) throws -> RecordValue {
        try field(key, named: key.stringValue)
    }

    private func field(_ key: Key, named name: String) throws -> RecordValue {
        guard let value = engine.field(named: name) else { throw engine.missingField(key) }
        return value
    }

    /// The field's value, or the record's name as text when `key` is the identifier, so that the
    /// number decoders report a name that is not a number as corrupt.
    private func identifierOrField(_ key: Key, named name: String, as type: Any.Type) throws -> RecordValue {
        guard engine.isIdentifier(named: name) else { return try field(key, named: name) }
        throw DecodingError.corrupted(
            "The record name '\(engine.record.recordName)' cannot be read as \(type).", at: .field(key))
    }

    private func optionalField(_ key: Key, named name: String, as type: Any.Type) throws -> RecordValue? {
        guard engine.isIdentifier(named: name) else { return engine.field(named: name) }
        return engine.hasName ? try identifierOrField(key, named: name, as: type) : nil
    }

    /// The value of a type that stands for `nil` — an optional, or a wrapper of one — when its
    /// field is missing, as the encoder stores `nil` as no field; for any other type the field is
    /// missing: `keyNotFound`.
    private func missingValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        var decoder = engine.makeValueDecoder(for: nil, at: .field(key))
        defer { engine.recycle(&decoder) }
        // Any type that decodes from the missing value does: a wrapper of an optional, and also one
        // that falls back on a value of its own, as the encoder writes no field for what such a
        // type encodes as nil.
        guard let value = try? T(from: decoder) else { throw engine.missingField(key) }
        return value
    }

    private func nestedDecoder(forKey key: Key) throws -> ValueDecoder {
        guard let value = identifierOrField(forKey: key) else { throw engine.missingField(key) }
        let decoder = ValueDecoder(engine: engine)
        decoder.start(value, at: .field(key))
        return decoder
    }

    /// The value a decoder for `key` reads: the record's name as text for the identifier, as
    /// ``contains(_:)`` sees it, else the key's field; `nil` when there is none.
    private func identifierOrField(forKey key: Key) -> RecordValue? {
        guard engine.isIdentifier(key) else { return engine.field(forKey: key) }
        return engine.hasName ? .string(engine.record.recordName) : nil
    }

    // Inlined into each integer overload, so that each is compiled for its own integer type.
    @inline(__always)
    private func integer<I: FixedWidthInteger>(_ type: I.Type, forKey key: Key) throws -> I {
        let name = key.stringValue
        if engine.isIdentifier(named: name) { return try identifierNumber(type, forKey: key) }
        return try Unbox.integer(type, from: field(key, named: name), at: .field(key))
    }

    @inline(__always)
    private func optionalInteger<I: FixedWidthInteger>(_ type: I.Type, forKey key: Key) throws -> I? {
        let name = key.stringValue
        if engine.isIdentifier(named: name) { return engine.hasName ? try identifierNumber(type, forKey: key) : nil }
        return try engine.field(named: name).map { try Unbox.integer(type, from: $0, at: .field(key)) }
    }

    /// The record's name read as an integer identifier. A name that is not the integer's own
    /// text, such as "007", is refused: the model would save its record under another name.
    private func identifierNumber<I: FixedWidthInteger>(_ type: I.Type, forKey key: Key) throws -> I {
        let name = engine.record.recordName
        guard let number = I(name, radix: 10) else {
            throw DecodingError.corrupted("The record name '\(name)' is not a valid \(type).", at: .field(key))
        }
        guard String(number) == name else { throw renamed(name, as: String(number), forKey: key) }
        return number
    }

    @inline(never)
    private func renamed(_ name: String, as written: String, forKey key: Key) -> DecodingError {
        DecodingError.corrupted(
            "The record name '\(name)' reads as an identifier that encodes as '\(written)': saved again, the "
                + "model would make a new record. Make the identifier a String to keep such names.",
            at: .field(key))
    }

    /// The record's name as the identifier's type: text, a `UUID`, an integer, or a type that
    /// decodes from one of them.
    private func identifier<T: Decodable>(as type: T.Type, forKey key: Key) throws -> T {
        // An integer that reaches here as a generic type, such as the `ID` of a generic model.
        // (A UUID, the common identifier here, is told apart first at the cost of a comparison.)
        if T.self != UUID.self, let integerType = T.self as? any FixedWidthInteger.Type,
            let number = try identifierNumber(integerType, forKey: key) as? T
        {
            return number
        }
        let name = engine.record.recordName
        let identifier: T
        do {
            identifier = try engine.decodeField(type, from: .string(name), at: .field(key))
        } catch let error as DecodingError {
            // A type that encodes as an integer (an Int-backed enum, a wrapper) named the record
            // with the integer's text: it reads the integer back. (Never a Bool or a number with
            // a fraction, which cannot name a record.)
            if T.self != Bool.self, T.self != Double.self, T.self != Float.self, let number = Int64(name),
                String(number) == name,
                let identifier = try? engine.decodeField(type, from: .int64(number), at: .field(key))
            {
                return identifier
            }
            throw DecodingError.corrupted(
                "The record name '\(name)' cannot be read as \(type).", at: .field(key), underlyingError: error)
        }
        // A UUID reads from lowercase text too, but writes uppercase.
        if T.self == UUID.self {
            let written = try reinterpret(identifier, as: UUID.self).uuidString
            guard written == name else { throw renamed(name, as: written, forKey: key) }
        }
        return identifier
    }
}

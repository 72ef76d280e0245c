import Foundation

/// One field of a record dictionary: `{"type": "STRING", "value": "Hello"}`.
///
/// An encrypted field is written `{"type": "STRING", "value": "Hello", "isEncrypted": true}`, and
/// read in that form or in the one Apple's own containers return, `{"type": "ENCRYPTED_STRING",
/// "value": "Hello"}`: the value has the plain type's JSON either way.
enum WireField {
    /// The field types of CloudKit Web Services, and the names they have in JSON.
    enum FieldType: String {
        case string = "STRING"
        case int64 = "INT64"
        case double = "DOUBLE"
        case bytes = "BYTES"
        case timestamp = "TIMESTAMP"
        case reference = "REFERENCE"
        case location = "LOCATION"
        case asset = "ASSETID"

        /// The type of `name`; `ASSET`, which some responses use, is read as `ASSETID`.
        init?(name: String) {
            if name == "ASSET" {
                self = .asset
            } else {
                self.init(rawValue: name)
            }
        }

        /// Whether CloudKit can keep a field of this type, or a list of it, encrypted: assets it
        /// keeps encrypted already, and references it never encrypts, since the server reads them.
        var canBeEncrypted: Bool { self != .asset && self != .reference }

        init?(of value: RecordValue) {
            switch value {
            case .string: self = .string
            case .int64: self = .int64
            case .double: self = .double
            case .bytes: self = .bytes
            case .date: self = .timestamp
            case .reference: self = .reference
            case .location: self = .location
            case .asset: self = .asset
            case .list: return nil
            }
        }
    }

    /// What ends a list type's name: `INT64_LIST`. Static text, so that the reader's shortcut
    /// compares its bytes; ``listSuffix`` is the same as a `String`.
    static let listSuffixText: StaticString = "_LIST"
    static let listSuffix = listSuffixText.description

    /// The prefix of a field type that the server reports encrypted: `ENCRYPTED_BYTES`.
    static let encryptedPrefixText: StaticString = "ENCRYPTED_"
    static let encryptedPrefix = encryptedPrefixText.description

    // MARK: Writing

    /// The field object of `value`; an `encrypted` one is marked `"isEncrypted": true`.
    ///
    /// `typeHint` is the field's type when its value does not tell it: an empty list is written
    /// with that list type, rather than as a `STRING_LIST`.
    static func object(
        for value: RecordValue, typeHint: String? = nil, encrypted: Bool = false,
        at path: @autoclosure () -> [any CodingKey]
    ) throws -> WireJSON {
        guard encrypted else { return try object(for: value, typeHint: typeHint, at: path) }
        // An empty list takes its type from the hint, which may name a list of references.
        guard canBeEncrypted(value), !value.isEmptyList || typeHint.map(canBeEncrypted(typeName:)) ?? true else {
            throw unencryptable(value.payload, at: path())
        }
        guard case .object(var object) = try object(for: value, typeHint: typeHint, at: path) else { return .null }
        object["isEncrypted"] = .bool(true)
        return .object(object)
    }

    /// The error for an encrypted field of a type CloudKit does not encrypt.
    private static func unencryptable(_ value: Any, at path: [any CodingKey]) -> EncodingError {
        .invalid(
            value, at: path,
            "The field is named in encryptedFields, but CloudKit encrypts neither assets, which it keeps encrypted "
                + "already, nor references, which the server must read.")
    }

    /// Whether `name` is a list type this package reads, such as `INT64_LIST`.
    static func isListType(_ name: String) -> Bool {
        name.hasSuffix(listSuffix) && FieldType(name: String(name.dropLast(listSuffix.count))) != nil
    }

    /// Whether CloudKit can keep a field of the type named `name` encrypted: neither an asset nor
    /// a reference, nor a list of them.
    static func canBeEncrypted(typeName name: String) -> Bool {
        let element = name.hasSuffix(listSuffix) ? String(name.dropLast(listSuffix.count)) : name
        return FieldType(name: element)?.canBeEncrypted ?? true
    }

    /// Whether CloudKit can keep the value encrypted: anything but an asset or a reference, or a
    /// list of them.
    static func canBeEncrypted(_ value: RecordValue) -> Bool {
        switch value {
        case .asset, .reference: false
        case .list(let elements): elements.first.map(canBeEncrypted) ?? true
        default: true
        }
    }

    /// The path is built only for an error: writing a record builds none.
    private static func object(
        for value: RecordValue, typeHint: String?, at path: () -> [any CodingKey]
    ) throws -> WireJSON {
        func valuePath() -> [any CodingKey] { path() + [AnyCodingKey(stringValue: "value")] }
        var typeName: String
        let json: WireJSON
        if case .list(let elements) = value {
            // An empty list has no element to take a type from: it takes the type the record knows
            // for the field, else a list of strings, which CloudKit accepts for a new field and
            // which decodes into an empty collection of any type.
            let elementType = elements.first.flatMap(FieldType.init(of:)) ?? .string
            typeName = elementType.listName
            if elements.isEmpty, let typeHint, isListType(typeHint) { typeName = typeHint }
            json = .array(
                try elements.enumerated().map { index, element in
                    guard FieldType(of: element) == elementType else {
                        throw EncodingError.invalid(
                            element, at: valuePath() + [AnyCodingKey(index: index)],
                            "A list holds values of one type, never lists, but this element is "
                                + "\(element.kindDescription) in a list of \(elementType.rawValue).")
                    }
                    return try scalar(element, at: valuePath() + [AnyCodingKey(index: index)])
                })
        } else {
            typeName = FieldType(of: value)?.rawValue ?? FieldType.string.rawValue
            json = try scalar(value, at: valuePath())
        }
        return .object(["type": .string(typeName), "value": json])
    }

    /// The JSON of a value that is not a list. The path is built only for an error. (The caller
    /// has already refused a list inside a list; the case below only keeps the switch whole.)
    private static func scalar(_ value: RecordValue, at path: @autoclosure () -> [any CodingKey]) throws -> WireJSON {
        switch value {
        case .string(let string): return .string(string)
        case .int64(let number): return .int64(number)
        case .double(let number): return try finite(number, at: path())
        case .bytes(let data): return .string(data.base64EncodedString())
        case .date(let date): return try milliseconds(date, at: path())
        case .asset(let asset): return try self.asset(asset, at: path())
        case .reference(let reference): return self.reference(reference)
        case .location(let location): return try self.location(location, at: path())
        case .list:
            throw EncodingError.invalid(value, at: path(), "A list cannot hold lists.")
        }
    }

    static func finite(_ number: Double, at path: @autoclosure () -> [any CodingKey]) throws -> WireJSON {
        guard number.isFinite else {
            throw EncodingError.invalid(number, at: path(), "Unable to encode Double.\(number) directly in JSON.")
        }
        return .double(number)
    }

    /// Whether a field's value is of a common kind, which the fast writers write straight from the
    /// value as ``object(for:typeHint:encrypted:at:)`` would build it, and whose JSON is always
    /// built without error: a string, an integer, a finite double, bytes, a date within the
    /// milliseconds an `Int64` counts, a reference, or a non-empty list of one of these, of one
    /// type. (An empty list takes its type from the record's hint, and an encrypted field is
    /// marked: neither is decided by the value alone.)
    static func isCommon(_ value: RecordValue) -> Bool {
        guard case .list(let elements) = value else { return isCommonScalar(value) }
        // One pass that asks of each element only what its kind needs.
        switch elements.first {
        case .string: return elements.allSatisfy { if case .string = $0 { true } else { false } }
        case .int64: return elements.allSatisfy { if case .int64 = $0 { true } else { false } }
        case .double:
            return elements.allSatisfy { if case .double(let number) = $0 { number.isFinite } else { false } }
        case .date:
            return elements.allSatisfy { if case .date(let date) = $0 { milliseconds(of: date) != nil } else { false } }
        case .bytes: return elements.allSatisfy { if case .bytes = $0 { true } else { false } }
        case .reference: return elements.allSatisfy { if case .reference = $0 { true } else { false } }
        case .asset, .location, .list, nil: return false
        }
    }

    private static func isCommonScalar(_ value: RecordValue) -> Bool {
        switch value {
        case .string, .int64, .bytes, .reference: true
        case .double(let number): number.isFinite
        case .date(let date): milliseconds(of: date) != nil
        case .asset, .location, .list: false
        }
    }

    /// The date as a field holds it: whole milliseconds since 1970, rounded to the nearest; `nil`
    /// beyond the milliseconds an `Int64` counts.
    static func milliseconds(of date: Date) -> Int64? {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded())
    }

    /// Whole milliseconds since 1970, rounded to the nearest.
    static func milliseconds(_ date: Date, at path: @autoclosure () -> [any CodingKey]) throws -> WireJSON {
        guard let milliseconds = milliseconds(of: date) else {
            throw EncodingError.invalid(
                date, at: path(),
                "The date \(date.timeIntervalSince1970) seconds from 1970 is beyond the milliseconds that an Int64 "
                    + "timestamp counts.")
        }
        return .int64(milliseconds)
    }

    private static func asset(_ asset: RecordAsset, at path: @autoclosure () -> [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [:]
        object.set("fileChecksum", asset.fileChecksum.map(WireJSON.string))
        if let size = asset.size {
            guard size >= 0 else {
                throw EncodingError.invalid(
                    size, at: path() + [AnyCodingKey(stringValue: "size")],
                    "An asset's size of \(size) bytes is not valid.")
            }
            object["size"] = .int64(Int64(size))
        }
        object.set("referenceChecksum", asset.referenceChecksum.map(WireJSON.string))
        object.set("wrappingKey", asset.wrappingKey.map(WireJSON.string))
        object.set("receipt", asset.receipt.map(WireJSON.string))
        object.set("downloadURL", asset.downloadURL.map(WireJSON.string))
        return .object(object)
    }

    static func reference(_ reference: RecordReference) -> WireJSON {
        var object: [String: WireJSON] = [
            "recordName": .string(reference.recordName),
            "action": .string(reference.action.rawValue),
        ]
        object.set("zoneID", reference.zoneID.map { zoneID($0) })
        return .object(object)
    }

    static func zoneID(_ zoneID: RecordZoneID) -> WireJSON {
        var object: [String: WireJSON] = ["zoneName": .string(zoneID.zoneName)]
        object.set("ownerRecordName", zoneID.ownerRecordName.map(WireJSON.string))
        return .object(object)
    }

    static func location(_ location: RecordLocation, at path: [any CodingKey]) throws -> WireJSON {
        func number(_ key: String, _ value: Double?) throws -> WireJSON? {
            try value.map { try finite($0, at: path + [AnyCodingKey(stringValue: key)]) }
        }
        var object: [String: WireJSON] = [:]
        object.set("latitude", try number("latitude", location.latitude))
        object.set("longitude", try number("longitude", location.longitude))
        object.set("altitude", try number("altitude", location.altitude))
        object.set("horizontalAccuracy", try number("horizontalAccuracy", location.horizontalAccuracy))
        object.set("verticalAccuracy", try number("verticalAccuracy", location.verticalAccuracy))
        object.set("speed", try number("speed", location.speed))
        object.set("course", try number("course", location.course))
        object.set(
            "timestamp",
            try location.timestamp.map { try milliseconds($0, at: path + [AnyCodingKey(stringValue: "timestamp")]) })
        return .object(object)
    }

    // MARK: Reading

    /// What a field object holds.
    enum Content {
        /// A value, its type's name without `ENCRYPTED_` when the field has a type, and whether
        /// the server keeps it encrypted.
        case value(RecordValue, typeName: String?, isEncrypted: Bool)
        /// No value: the field's `value` is `null` or missing, which is how the server sends a
        /// field the record does not have, and how a save clears one. The type is its plain name,
        /// when the field has one.
        case cleared(typeName: String?, isEncrypted: Bool)
    }

    /// The content of a field object: its value read by its `type`, or by the kind of its value
    /// when the field has no type.
    static func content(of field: WireReader) throws -> Content {
        // Most fields take the shortcut, which reads what this route would read, faster.
        if let content = try commonContent(of: field) { return content }
        return try generalContent(of: field)
    }

    /// The content of any field object, each member looked up by its key: the one description of
    /// what a field may be, and of the error for each thing that is wrong with it.
    static func generalContent(of field: WireReader) throws -> Content {
        var isEncrypted = try field.optionalMember("isEncrypted")?.bool() ?? false
        var typeName = try field.optionalMember("type")?.string()
        if let name = typeName, name.hasPrefix(encryptedPrefix) {
            typeName = String(name.dropFirst(encryptedPrefix.count))
            isEncrypted = true
        }
        guard let value = try field.optionalMember("value") else {
            return .cleared(typeName: typeName, isEncrypted: isEncrypted && typeName.map(canBeEncrypted) ?? true)
        }
        guard let typeName else {
            let read = try inferred(from: value)
            return .value(read, typeName: nil, isEncrypted: isEncrypted && canBeEncrypted(read))
        }
        let read: RecordValue
        if typeName.hasSuffix(listSuffix),
            let elementType = FieldType(name: String(typeName.dropLast(listSuffix.count)))
        {
            read = .list(try value.mapElements { try scalar(elementType, from: $0) })
        } else if let type = FieldType(name: typeName) {
            read = try scalar(type, from: value)
        } else {
            let typeReader = try field.member("type")
            throw typeReader.corrupted("Unknown field type '\(try typeReader.string())'.")
        }
        // Assets are encrypted already and references never are: a flag on them (or on an empty
        // list of them) changes nothing the record can say, and writing it back would be refused.
        return .value(read, typeName: typeName, isEncrypted: isEncrypted && canBeEncrypted(typeName: typeName))
    }

    /// The object of a field that a save clears: `{"value": null}`, with its type when known.
    ///
    /// - Throws: `EncodingError.invalidValue` for an encrypted field whose type CloudKit does not
    ///   encrypt.
    static func clearedObject(
        typeName: String?, encrypted: Bool, at path: @autoclosure () -> [any CodingKey]
    ) throws -> WireJSON {
        if encrypted, let typeName, !canBeEncrypted(typeName: typeName) {
            throw unencryptable(Optional<Any>.none as Any, at: path())
        }
        var object: [String: WireJSON] = ["value": .null]
        object.set("type", typeName.map(WireJSON.string))
        if encrypted { object["isEncrypted"] = .bool(true) }
        return .object(object)
    }

    /// A value of `type`. Numbers may come as JSON strings, as the server sends them to a request
    /// with `numbersAsStrings`; they read exactly as the numbers they spell.
    static func scalar(_ type: FieldType, from reader: WireReader) throws -> RecordValue {
        switch type {
        case .string:
            return .string(try reader.string())
        case .int64:
            return .int64(try reader.int64(acceptingText: true))
        case .double:
            return .double(try reader.double(acceptingText: true))
        case .bytes:
            let text = try reader.string()
            guard let data = Data(base64Encoded: text) else { throw reader.corrupted("The value is not valid Base64.") }
            return .bytes(data)
        case .timestamp:
            return .date(try reader.timestamp())
        case .reference:
            return .reference(try reference(from: reader))
        case .location:
            return .location(try location(from: reader))
        case .asset:
            return .asset(try asset(from: reader))
        }
    }

    /// The value of a field without a type, by the kind of JSON it is.
    private static func inferred(from reader: WireReader) throws -> RecordValue {
        guard case .array = reader.kind else { return try inferredScalar(from: reader) }
        let elements = try reader.elements()
        var values = try elements.map(inferredScalar)
        // JSON writes a whole double as an integer, so integers among doubles are doubles, when a
        // double holds them exactly: `[1, 2.5]` is a DOUBLE_LIST.
        if values.contains(where: { if case .double = $0 { true } else { false } }) {
            for index in values.indices {
                if case .integer(let integer) = elements[index].kind, let number = Double(exactly: integer) {
                    values[index] = .double(number)
                }
            }
        }
        if let first = values.first, let index = values.firstIndex(where: { !$0.isSameKind(as: first) }) {
            throw elements[index].corrupted(
                "A list holds values of one type, but this element is \(values[index].kindDescription) and the "
                    + "first is \(first.kindDescription).")
        }
        return .list(values)
    }

    private static func inferredScalar(from reader: WireReader) throws -> RecordValue {
        switch reader.kind {
        case .string(let string):
            return .string(string)
        case .integer(let number):
            return .int64(number)
        case .double(let number):
            return .double(number)
        case .bool(let bool):
            return .int64(bool ? 1 : 0)
        case .object:
            if try reader.contains("recordName") { return .reference(try reference(from: reader)) }
            if try reader.contains("latitude"), try reader.contains("longitude") {
                return .location(try location(from: reader))
            }
            if try reader.contains("fileChecksum") || reader.contains("downloadURL") || reader.contains("receipt") {
                return .asset(try asset(from: reader))
            }
            throw reader.corrupted(
                "The field has no type, and an object without recordName, latitude and longitude, or fileChecksum, "
                    + "downloadURL or receipt is not a reference, a location or an asset.")
        case .array:
            throw reader.corrupted("A list cannot hold lists.")
        case .null:
            throw reader.corrupted("The field has no type and its value is null.")
        }
    }

    static func reference(from reader: WireReader) throws -> RecordReference {
        let action: RecordReference.Action
        if let actionReader = try reader.optionalMember("action") {
            let name = try actionReader.string()
            guard let known = RecordReference.Action(rawValue: name) else {
                throw actionReader.corrupted(
                    "Unknown reference action '\(name)': expected NONE, DELETE_SELF or VALIDATE.")
            }
            action = known
        } else {
            action = .none
        }
        return RecordReference(
            recordName: try reader.member("recordName").string(),
            action: action,
            zoneID: try reader.optionalMember("zoneID").map { try zoneID(from: $0) })
    }

    static func zoneID(from reader: WireReader) throws -> RecordZoneID {
        RecordZoneID(
            zoneName: try reader.member("zoneName").string(),
            ownerRecordName: try reader.optionalMember("ownerRecordName")?.string())
    }

    static func location(from reader: WireReader) throws -> RecordLocation {
        RecordLocation(
            latitude: try reader.member("latitude").double(),
            longitude: try reader.member("longitude").double(),
            altitude: try reader.optionalMember("altitude")?.double(),
            horizontalAccuracy: try reader.optionalMember("horizontalAccuracy")?.double(),
            verticalAccuracy: try reader.optionalMember("verticalAccuracy")?.double(),
            speed: try reader.optionalMember("speed")?.double(),
            course: try reader.optionalMember("course")?.double(),
            timestamp: try reader.optionalMember("timestamp")?.timestamp())
    }

    private static func asset(from reader: WireReader) throws -> RecordAsset {
        let size = try reader.optionalMember("size").map { sizeReader in
            let bytes = try sizeReader.int64()
            guard let size = Int(exactly: bytes), size >= 0 else {
                throw sizeReader.corrupted("An asset's size of \(bytes) bytes is not valid.")
            }
            return size
        }
        return RecordAsset(
            fileChecksum: try reader.optionalMember("fileChecksum")?.string(),
            size: size,
            referenceChecksum: try reader.optionalMember("referenceChecksum")?.string(),
            wrappingKey: try reader.optionalMember("wrappingKey")?.string(),
            receipt: try reader.optionalMember("receipt")?.string(),
            downloadURL: try reader.optionalMember("downloadURL")?.string())
    }
}

extension RecordValue {
    /// The name of the value's field type in CloudKit Web Services: `STRING`, `INT64`, `DOUBLE`,
    /// `BYTES`, `TIMESTAMP`, `REFERENCE`, `LOCATION` or `ASSETID`, and for a list its element
    /// type's name followed by `_LIST` (`STRING_LIST` for an empty list).
    public var typeName: String {
        guard case .list(let elements) = self else {
            return (WireField.FieldType(of: self) ?? .string).rawValue
        }
        let elementType = elements.first.flatMap(WireField.FieldType.init(of:)) ?? .string
        return elementType.listName
    }
}

extension WireField.FieldType {
    /// The name of a list of this type: `INT64_LIST`.
    var listName: String {
        switch self {
        case .string: "STRING_LIST"
        case .int64: "INT64_LIST"
        case .double: "DOUBLE_LIST"
        case .bytes: "BYTES_LIST"
        case .timestamp: "TIMESTAMP_LIST"
        case .reference: "REFERENCE_LIST"
        case .location: "LOCATION_LIST"
        case .asset: "ASSETID_LIST"
        }
    }
}

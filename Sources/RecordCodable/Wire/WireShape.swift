import Foundation

/// What a JSON value of CloudKit's format is expected to be, from where it is: a guess that lets
/// Foundation's JSON decoder read the value as its kind at once.
///
/// Foundation's decoder cannot say which kind a value is, so ``WireJSON``'s own reading tries
/// each kind in turn, and each wrong try costs an error. But most values are where CloudKit's
/// format puts them: a record's `fields` is an object of fields, a field's `value` is what its
/// `type` names, a `timestamp` is an integer. A shape says so, and the value is read as that kind
/// first (``WireJSON/read(_:as:)``). A shape is only ever a guess: a value that is not what its
/// shape says is read by trying each kind in turn, as any other value. So shapes decide how fast
/// a value is read, never what is read, and a shape that is wrong or missing costs time only.
///
/// For example, in `{"type": "INT64", "value": 3}` the `value` is read as an integer first, because
/// the `type` says so; in `{"type": "INT64", "value": "3"}` (a number sent as text) that read
/// fails, and the value is read as what it is, a string.
///
/// Shapes hold no references, so that the tables of them kept for the life of the process are
/// plain values.
enum WireShape: Sendable {
    /// Nothing is known: each kind is tried in turn, a string first.
    case unknown
    case string
    /// An integral number: an `INT64` or a `TIMESTAMP`.
    case integer
    /// Any number: a `DOUBLE`, a location's coordinates.
    case number
    case bool
    /// An array of strings: a list of `STRING` or `BYTES`, or a body's `desiredKeys`.
    case strings
    /// An array of integers: a list of `INT64` or `TIMESTAMP`.
    case integers
    /// An array of numbers: a list of `DOUBLE`.
    case numbers
    /// An object of one of the kinds CloudKit's format has.
    case object(WireObject)
    /// An array of objects of one kind: a list of references, a page's records.
    case objects(WireObject)
    /// An object whose every member is a record field: a record's `fields`.
    case fields
    /// A record field, whose `type` names what its `value` is.
    case field

    /// The shape of a member `key` of an object of this shape.
    func member(_ key: String) -> WireShape {
        switch self {
        case .object(let object): object.member(key)
        case .fields: .field
        case .field where key == "type": .string
        case .field where key == "isEncrypted": .bool
        default: .unknown
        }
    }

    /// The shape of the `value` of a field of type `typeName`: `"INT64"` an integer,
    /// `"ENCRYPTED_BYTES"` a string, `"STRING_LIST"` an array of strings; unknown for a type this
    /// package does not know.
    static func value(ofType typeName: String) -> WireShape {
        valueShapes[typeName] ?? .unknown
    }

    /// The shape of the value of every field type, by its name in every spelling: plain, encrypted,
    /// and as a list. A table, because a name looked up costs less than a name taken apart, for
    /// every field of every record.
    private static let valueShapes: [String: WireShape] = {
        let types: [(name: String, type: WireField.FieldType)] =
            [WireField.FieldType.string, .int64, .double, .bytes, .timestamp, .reference, .location, .asset].map {
                ($0.rawValue, $0)
            } + [("ASSET", .asset)]
        var shapes: [String: WireShape] = [:]
        for (name, type) in types {
            for prefix in ["", WireField.encryptedPrefix] {
                shapes[prefix + name] = value(of: type)
                shapes[prefix + name + WireField.listSuffix] = list(of: type)
            }
        }
        return shapes
    }()

    private static func value(of type: WireField.FieldType) -> WireShape {
        switch type {
        case .string, .bytes: .string
        case .int64, .timestamp: .integer
        case .double: .number
        case .reference: .object(.reference)
        case .location: .object(.location)
        case .asset: .object(.asset)
        }
    }

    private static func list(of type: WireField.FieldType) -> WireShape {
        switch type {
        case .string, .bytes: .strings
        case .int64, .timestamp: .integers
        case .double: .numbers
        case .reference: .objects(.reference)
        case .location: .objects(.location)
        case .asset: .objects(.asset)
        }
    }
}

/// The kinds of object CloudKit's format has, whose members have known shapes.
enum WireObject: Sendable {
    /// A document: a record, or a request or response body, which may hold records.
    case document
    /// A record dictionary.
    case record
    /// An operation of a `records/modify` request.
    case operation
    /// Who changed a record and when: its `created` and `modified`.
    case stamp
    case zoneID
    case reference
    case location
    case asset

    /// The shape of the member `key` of an object of this kind; unknown for a member it does not
    /// have.
    func member(_ key: String) -> WireShape {
        switch (self, key) {
        case (.document, "records"): .objects(.record)
        case (.document, "operations"): .objects(.operation)
        case (.document, "atomic"): .bool
        case (.document, "desiredKeys"), (.operation, "desiredKeys"): .strings
        case (.document, "syncToken"), (.document, "continuationMarker"), (.operation, "operationType"): .string
        case (.document, _): WireObject.record.member(key)
        case (.operation, "record"): .object(.record)
        case (.record, "fields"): .fields
        case (.record, "created"), (.record, "modified"): .object(.stamp)
        case (.record, "zoneID"), (.reference, "zoneID"): .object(.zoneID)
        case (.record, "deleted"): .bool
        case (.record, "parent"), (.record, "share"): .object(.reference)
        case (.record, "recordName"), (.record, "recordType"), (.record, "recordChangeTag"), (.record, "shortGUID"):
            .string
        case (.stamp, "timestamp"), (.location, "timestamp"), (.asset, "size"): .integer
        case (.stamp, "userRecordName"), (.stamp, "deviceID"): .string
        case (.zoneID, "zoneName"), (.zoneID, "ownerRecordName"), (.zoneID, "zoneType"): .string
        case (.reference, "recordName"), (.reference, "action"): .string
        case (.location, "latitude"), (.location, "longitude"), (.location, "altitude"),
            (.location, "horizontalAccuracy"), (.location, "verticalAccuracy"), (.location, "speed"),
            (.location, "course"):
            .number
        case (.asset, "fileChecksum"), (.asset, "referenceChecksum"), (.asset, "wrappingKey"), (.asset, "receipt"),
            (.asset, "downloadURL"):
            .string
        default: .unknown
        }
    }
}

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
indirect enum WireShape: Sendable {
    /// Nothing is known: each kind is tried in turn, a string first.
    case unknown
    case string
    /// An integral number: an `INT64` or a `TIMESTAMP`.
    case integer
    /// Any number: a `DOUBLE`, a location's coordinates.
    case number
    case bool
    /// An array whose elements all have one shape: a list.
    case array(WireShape)
    /// An object whose members, by key, have these shapes; any other member is unknown.
    case object([String: WireShape])
    /// An object whose every member is a record field: a record's `fields`.
    case fields
    /// A record field, whose `type` names what its `value` is.
    case field

    /// A member of a document: a record, or a request or response body, which may hold records.
    static let document = object(recordMembers.merging(bodyMembers) { record, _ in record })

    /// A record dictionary.
    static let record = object(recordMembers)

    private static let recordMembers: [String: WireShape] = [
        "recordName": .string, "recordType": .string, "recordChangeTag": .string, "fields": .fields,
        "created": stamp, "modified": stamp, "zoneID": zoneID, "deleted": .bool, "parent": reference,
        "share": reference, "shortGUID": .string,
    ]

    /// The members of the request and response bodies that are not a record's.
    private static let bodyMembers: [String: WireShape] = [
        "records": .array(record),
        "operations": .array(object(["operationType": .string, "record": record, "desiredKeys": .array(.string)])),
        "atomic": .bool, "desiredKeys": .array(.string), "syncToken": .string, "continuationMarker": .string,
    ]

    /// Who changed a record and when: `created` and `modified`.
    private static let stamp = object(["timestamp": .integer, "userRecordName": .string, "deviceID": .string])

    private static let zoneID = object(["zoneName": .string, "ownerRecordName": .string, "zoneType": .string])

    private static let reference = object(["recordName": .string, "action": .string, "zoneID": zoneID])

    private static let location = object([
        "latitude": .number, "longitude": .number, "altitude": .number, "horizontalAccuracy": .number,
        "verticalAccuracy": .number, "speed": .number, "course": .number, "timestamp": .integer,
    ])

    private static let asset = object([
        "fileChecksum": .string, "size": .integer, "referenceChecksum": .string, "wrappingKey": .string,
        "receipt": .string, "downloadURL": .string,
    ])

    /// The shape of a member of an object of this shape.
    func member(_ key: String) -> WireShape {
        switch self {
        case .object(let members): members[key] ?? .unknown
        case .fields: .field
        case .field where key == "isEncrypted": .bool
        case .field where key == "type": .string
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
        let types: [(name: String, type: FieldType)] =
            [FieldType.string, .int64, .double, .bytes, .timestamp, .reference, .location, .asset].map {
                ($0.rawValue, $0)
            } + [("ASSET", .asset)]
        var shapes: [String: WireShape] = [:]
        for (name, type) in types {
            for prefix in ["", WireField.encryptedPrefix] {
                shapes[prefix + name] = value(of: type)
                shapes[prefix + name + WireField.listSuffix] = .array(value(of: type))
            }
        }
        return shapes
    }()

    private typealias FieldType = WireField.FieldType

    private static func value(of type: FieldType) -> WireShape {
        switch type {
        case .string, .bytes: .string
        case .int64, .timestamp: .integer
        case .double: .number
        case .reference: reference
        case .location: location
        case .asset: asset
        }
    }
}

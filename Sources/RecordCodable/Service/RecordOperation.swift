import Foundation

/// One operation of a ``RecordsModifyRequest``: what to do with one record.
///
/// A saved record is written with the keys a request may carry and no others: its name (left
/// out when it is empty, so that the server names the record), type, change tag, fields — each
/// field in ``Record/encryptedFields`` marked `"isEncrypted": true` — and ``Record/parent``. The
/// system fields the server sets itself (`created`, `modified`, `deleted`) and the record's zone
/// are never sent: the zone is the request's ``RecordsModifyRequest/zoneID``, which a request
/// takes from its records when it is not given.
public struct RecordOperation: Hashable, Sendable, Codable, WireCodable {
    /// What an operation does with its record.
    public enum OperationType: String, Hashable, Sendable, Codable, CaseIterable {
        /// Creates the record; fails if a record of that name exists.
        case create
        /// Updates the fields the record carries; fails if the record's change tag is not the
        /// server's, or if it has none.
        case update
        /// Updates the fields the record carries, whatever the server's change tag.
        case forceUpdate
        /// Replaces the whole record: fields it does not carry are cleared. Fails if the change
        /// tag is not the server's, or if the record has none.
        case replace
        /// Replaces the whole record, whatever the server's change tag.
        case forceReplace
        /// Deletes the record; fails if its change tag is not the server's, or if it has none.
        case delete
        /// Deletes the record, whatever the server's change tag.
        case forceDelete

        /// `update` for a record with a change tag, which the server has seen, or made as an
        /// update (see `Record.isUpdate`); `create` otherwise.
        static func saving(_ record: Record) -> OperationType {
            record.metadata?.changeTag == nil && !record.isUpdate ? .create : .update
        }

        var isDelete: Bool { self == .delete || self == .forceDelete }

        /// Whether the operation may make the record anew, which needs its type.
        var createsRecord: Bool { self == .create || self == .replace || self == .forceReplace }
    }

    /// What the operation does.
    public var operationType: OperationType

    /// The record to create, update, replace or delete.
    ///
    /// A delete sends only the record's name, and for ``OperationType/delete`` its change tag.
    public var record: Record

    /// The fields the response includes for this record, or `nil` for all of them.
    public var desiredKeys: [String]?

    /// Creates an operation.
    ///
    /// - Parameters:
    ///   - operationType: What the operation does.
    ///   - record: The record to create, update, replace or delete.
    ///   - desiredKeys: The fields the response includes for this record.
    public init(_ operationType: OperationType, record: Record, desiredKeys: [String]? = nil) {
        self.operationType = operationType
        self.record = record
        self.desiredKeys = desiredKeys
    }

    /// An operation that saves `record`: an update when it carries a change tag from the server or
    /// was made as an update (by ``RecordEncoder/encode(_:updating:)`` or ``Record/update(to:)``),
    /// a create otherwise.
    ///
    /// An update made from an original without a change tag — one built by hand, or kept without
    /// its metadata — is sent as an update without one, which the server refuses rather than
    /// making a record of the changed fields alone: fetch the record to update it, or send it
    /// with ``OperationType/forceUpdate`` to update it whatever its version.
    public init(saving record: Record) {
        self.init(.saving(record), record: record)
    }

    /// An operation that deletes a record, which is all a delete needs to know.
    ///
    /// - Parameters:
    ///   - recordName: The name of the record to delete.
    ///   - recordType: The record's type, which the server does not need but a reader of the
    ///     request may.
    ///   - changeTag: The change tag of the version to delete: the server refuses the delete when
    ///     the record has changed since. Without one, the record is deleted whatever its version
    ///     (``OperationType/forceDelete``).
    public init(deleting recordName: String, recordType: String = "", changeTag: String? = nil) {
        let metadata = changeTag.map { RecordMetadata(changeTag: $0) }
        self.init(
            changeTag == nil ? .forceDelete : .delete,
            record: Record(recordType: recordType, recordName: recordName, metadata: metadata))
    }

    /// Writes the operation dictionary as CloudKit Web Services reads it.
    ///
    /// - Throws: `EncodingError.invalidValue` for a record without a ``Record/recordType`` that the
    ///   operation creates or replaces, for a record without a name that the operation does not
    ///   create, and for any value that the record's JSON cannot carry. A record without a change
    ///   tag (in its ``Record/metadata``) is written as it is, for any operation: the server
    ///   refuses an ``OperationType/update``, ``OperationType/replace`` or
    ///   ``OperationType/delete`` without one, in its answer for that record.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads an operation dictionary.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var object: [String: WireJSON] = [
            "operationType": .string(operationType.rawValue),
            "record": .object(try recordObject(at: path)),
        ]
        object.set("desiredKeys", desiredKeys.map { .array($0.map(WireJSON.string)) })
        return .object(object)
    }

    /// Writes the operation as ``wireJSON(at:)`` builds it, its keys in their sorted order
    /// (`desiredKeys`, `operationType`, `record`), with no dictionary of its own, and a saved
    /// record written straight too (``JSONBytesWriter/write(_:as:at:)``).
    func write(to writer: inout JSONBytesWriter, at path: @autoclosure () -> [any CodingKey]) throws {
        try refuseMisapplied(at: path())
        writer.beginObject()
        if let desiredKeys {
            writer.writeKey("desiredKeys", first: true)
            writer.write(strings: desiredKeys)
        }
        writer.writeKey("operationType", first: desiredKeys == nil)
        writer.write(operationType.rawValue)
        writer.writeKey("record", first: false)
        if operationType.isDelete {
            try writer.write(.object(deletedRecordObject), at: path() + [AnyCodingKey(stringValue: "record")])
        } else {
            try writer.write(
                record, as: .saved(typeRequired: operationType.createsRecord),
                at: path() + [AnyCodingKey(stringValue: "record")])
        }
        writer.endObject(empty: false)
    }

    /// The members of the operation's `record` object, after refusing an operation the server
    /// would misapply.
    ///
    /// - Parameter path: The coding path of the operation, built only for an error.
    private func recordObject(at path: @autoclosure () -> [any CodingKey]) throws -> [String: WireJSON] {
        try refuseMisapplied(at: path())
        guard operationType.isDelete else {
            return try WireRecord.object(
                for: record, at: path() + [AnyCodingKey(stringValue: "record")],
                as: .saved(typeRequired: operationType.createsRecord))
        }
        return deletedRecordObject
    }

    /// Refuses an operation the server would misapply: one that is not a create of a record
    /// without a name, and a replace of a record read in part.
    ///
    /// - Parameter path: The coding path of the operation, built only for an error.
    private func refuseMisapplied(at path: @autoclosure () -> [any CodingKey]) throws {
        // Only a create lets the server name the record; any other operation needs its name.
        if record.recordName.isEmpty && operationType != .create {
            throw EncodingError.invalid(
                record, at: path() + [AnyCodingKey(stringValue: "record"), AnyCodingKey(stringValue: "recordName")],
                "A record without a name can only be created, for the server to name it; \(operationType.rawValue) "
                    + "needs the name of the record it changes.")
        }
        // A replace clears the fields it does not carry: never those of a record read in part.
        if operationType.createsRecord && operationType != .create && !record.unreadFields.isEmpty {
            let names = record.unreadFields.sorted().joined(separator: ", ")
            throw EncodingError.invalid(
                record, at: path() + [AnyCodingKey(stringValue: "record")],
                "Record '\(record.recordName)' was read without its fields \(names), which a \(operationType.rawValue) "
                    + "would clear on the server: save it with an update, which leaves them as they are.")
        }
    }

    /// The `record` object of a delete: the record's name, with the change tag the server checks
    /// for `delete`.
    private var deletedRecordObject: [String: WireJSON] {
        var named: [String: WireJSON] = ["recordName": .string(record.recordName)]
        if operationType == .delete {
            named.set("recordChangeTag", record.metadata?.changeTag.map(WireJSON.string))
        }
        return named
    }

    init(wire reader: WireReader) throws {
        let typeReader = try reader.member("operationType")
        let name = try typeReader.string()
        guard let operationType = OperationType(rawValue: name) else {
            throw typeReader.corrupted("Unknown operation type '\(name)'.")
        }
        self.operationType = operationType
        record = try WireRecord.record(from: reader.member("record"), as: .saved(typeRequired: false))
        desiredKeys = try reader.optionalMember("desiredKeys")?.mapElements { try $0.string() }
    }
}

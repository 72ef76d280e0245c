import Foundation

/// The body of a CloudKit Web Services `assets/upload` request: ask for the addresses to upload
/// asset files to.
///
/// Uploading an asset takes three requests: this one, which returns an upload URL for each asset
/// field (``AssetsUploadResponse``); a `POST` of the file's bytes to that URL, which returns an
/// ``AssetUploadResult``; and a `records/modify` that saves the record with the result's
/// ``AssetUploadResult/asset`` as the field's value.
///
/// ```swift
/// let request = AssetsUploadRequest(tokens: [
///     .init(recordType: "Artist", fieldName: "image", recordName: "4c016e24-c397-4c9d-81d6-dee3e3a48bb0")
/// ])
/// let body = try JSONEncoder().encode(request)
/// // {"tokens":[{"fieldName":"image","recordName":"4c016e24-…","recordType":"Artist"}]}
/// ```
public struct AssetsUploadRequest: Hashable, Sendable, Codable, WireCodable {
    /// One asset field to upload a file for.
    public struct Token: Hashable, Sendable {
        /// The type of the record that will hold the asset.
        public var recordType: String

        /// The name of the asset field (or asset list field).
        public var fieldName: String

        /// The name of the record that will hold the asset, or `nil` to let the server choose
        /// one.
        public var recordName: String?

        /// Creates a token request.
        ///
        /// - Parameters:
        ///   - recordType: The type of the record that will hold the asset.
        ///   - fieldName: The name of the asset field.
        ///   - recordName: The name of the record, or `nil` to let the server choose one.
        public init(recordType: String, fieldName: String, recordName: String? = nil) {
            self.recordType = recordType
            self.fieldName = fieldName
            self.recordName = recordName
        }
    }

    /// The asset fields to upload files for, one upload URL each.
    public var tokens: [Token]

    /// The zone of the records, or `nil` for the default zone.
    public var zoneID: RecordZoneID?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - tokens: The asset fields to upload files for.
    ///   - zoneID: The zone of the records, or `nil` for the default zone.
    public init(tokens: [Token], zoneID: RecordZoneID? = nil) {
        self.tokens = tokens
        self.zoneID = zoneID
    }

    /// Writes the request body as CloudKit Web Services reads it.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads a request body.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) -> WireJSON {
        var object: [String: WireJSON] = [
            "tokens": .array(
                tokens.map { token in
                    var entry: [String: WireJSON] = [
                        "recordType": .string(token.recordType), "fieldName": .string(token.fieldName),
                    ]
                    entry.set("recordName", token.recordName.map(WireJSON.string))
                    return .object(entry)
                })
        ]
        object.set("zoneID", zoneID.map { WireField.zoneID($0) })
        return .object(object)
    }

    init(wire reader: WireReader) throws {
        tokens = try reader.member("tokens").mapElements { entry in
            Token(
                recordType: try entry.member("recordType").string(),
                fieldName: try entry.member("fieldName").string(),
                recordName: try entry.optionalMember("recordName")?.string())
        }
        zoneID = try reader.optionalMember("zoneID").map { try WireField.zoneID(from: $0) }
    }
}

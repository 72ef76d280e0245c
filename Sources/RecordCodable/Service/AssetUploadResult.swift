import Foundation

/// The server's answer to an asset file's upload: what a record save cites to attach the file.
///
/// After `POST`ing a file's bytes to the `url` of an ``AssetsUploadResponse/Token``, the server
/// answers:
///
/// ```json
/// {"singleFile": {"fileChecksum": "…", "size": 1024, "receipt": "…",
///                 "wrappingKey": "…", "referenceChecksum": "…"}}
/// ```
///
/// Those keys, unchanged, are the value of the record's `ASSETID` field in the save that
/// follows. ``asset`` holds them as a ``RecordAsset``:
///
/// ```swift
/// let upload = try JSONDecoder().decode(AssetUploadResult.self, from: uploadAnswer)
/// record["image"] = .asset(upload.asset)
/// let save = RecordsModifyRequest(savingRecords: [record])
/// ```
public struct AssetUploadResult: Hashable, Sendable, Codable, WireCodable {
    /// The server's checksum of the file's content.
    public var fileChecksum: String?

    /// The file's size in bytes.
    public var size: Int?

    /// The receipt of the upload, which the save cites.
    public var receipt: String?

    /// The key that encrypts the file, in the private database.
    public var wrappingKey: String?

    /// The checksum of the wrapping key, in the private database.
    public var referenceChecksum: String?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - fileChecksum: The server's checksum of the file's content.
    ///   - size: The file's size in bytes.
    ///   - receipt: The receipt of the upload.
    ///   - wrappingKey: The key that encrypts the file.
    ///   - referenceChecksum: The checksum of the wrapping key.
    public init(
        fileChecksum: String? = nil,
        size: Int? = nil,
        receipt: String? = nil,
        wrappingKey: String? = nil,
        referenceChecksum: String? = nil
    ) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.receipt = receipt
        self.wrappingKey = wrappingKey
        self.referenceChecksum = referenceChecksum
    }

    /// The value of the record's asset field in the save that attaches the file: these keys, as
    /// the save sends them.
    public var asset: RecordAsset {
        RecordAsset(
            fileChecksum: fileChecksum, size: size, referenceChecksum: referenceChecksum, wrappingKey: wrappingKey,
            receipt: receipt)
    }

    /// Writes the answer as the server sends it.
    ///
    /// - Throws: `EncodingError.invalidValue` for a negative ``size``.
    public func encode(to encoder: any Encoder) throws {
        try WireCoding.encode(self, to: encoder)
    }

    /// Reads the server's answer to an upload.
    public init(from decoder: any Decoder) throws {
        self = try WireCoding.decode(Self.self, from: decoder)
    }

    func wireJSON(at path: [any CodingKey]) throws -> WireJSON {
        var file: [String: WireJSON] = [:]
        file.set("fileChecksum", fileChecksum.map(WireJSON.string))
        if let size {
            guard size >= 0 else {
                throw EncodingError.invalid(
                    size, at: path + [AnyCodingKey(stringValue: "singleFile"), AnyCodingKey(stringValue: "size")],
                    "An asset's size of \(size) bytes is not valid.")
            }
            file["size"] = .int64(Int64(size))
        }
        file.set("receipt", receipt.map(WireJSON.string))
        file.set("wrappingKey", wrappingKey.map(WireJSON.string))
        file.set("referenceChecksum", referenceChecksum.map(WireJSON.string))
        return .object(["singleFile": .object(file)])
    }

    init(wire reader: WireReader) throws {
        let file = try reader.member("singleFile")
        fileChecksum = try file.optionalMember("fileChecksum")?.string()
        size = try file.optionalMember("size").map { sizeReader in
            let bytes = try sizeReader.int64()
            guard let size = Int(exactly: bytes), size >= 0 else {
                throw sizeReader.corrupted("An asset's size of \(bytes) bytes is not valid.")
            }
            return size
        }
        receipt = try file.optionalMember("receipt")?.string()
        wrappingKey = try file.optionalMember("wrappingKey")?.string()
        referenceChecksum = try file.optionalMember("referenceChecksum")?.string()
    }
}

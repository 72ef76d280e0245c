import Foundation
import RecordCodable

// Assets: the tokens (assets/upload), each file's bytes posted to its token's URL, and the
// records saved with what the uploads returned.

extension CloudKitDatabase {
    /// The largest asset file the server takes: 50 MB (Apple's CloudKit Web Services Reference,
    /// "Data Size Limits"), counted here as 50 × 1,048,576 bytes, so that no file the server
    /// takes is refused.
    public static let maximumAssetSize = 50 * 1_048_576

    /// Asks for the URLs to upload asset files to (`assets/upload`): one for each token.
    ///
    /// A request for more than 200 tokens (the server's limit) is sent as several, and their
    /// answers joined in order. Nothing is stored by this call, so it is sent again as a read
    /// is.
    ///
    /// - Parameter request: The asset fields to upload files for.
    /// - Returns: One upload URL for each token, in order.
    /// - Throws: ``CloudKitError`` when the server refuses the request, or no answer comes after
    ///   the retries.
    public func requestAssetUploads(_ request: AssetsUploadRequest) async throws -> AssetsUploadResponse {
        var tokens: [AssetsUploadResponse.Token] = []
        for part in request.tokens.chunked(by: Self.maximumOperationsPerRequest) {
            let partRequest = AssetsUploadRequest(tokens: Array(part), zoneID: request.zoneID)
            tokens += try await read(partRequest, operation: "assets/upload", as: AssetsUploadResponse.self).tokens
        }
        return AssetsUploadResponse(tokens: tokens)
    }

    /// Uploads a file's bytes to the URL of an upload token, through the same transport, and
    /// returns what the record's asset field then carries (its
    /// `AssetUploadResult/asset`: the checksum, size and receipt of the `ASSETID` value).
    ///
    /// The URL carries its own authorisation: the request is not signed. An upload that gets no
    /// answer is sent again, as the retry policy allows: a second upload only leaves the first
    /// unused.
    ///
    /// - Parameters:
    ///   - data: The file's bytes: at most 50 MB, the server's limit for an asset file
    ///   (``maximumAssetSize``).
    ///   - url: The token's `url`.
    /// - Throws: ``CloudKitError`` (operation `asset upload`) when the file is larger than the
    ///   server takes or the URL is not valid (nothing is sent then), the server refuses the
    ///   upload, or no answer comes after the retries.
    public func uploadAsset(_ data: Data, to url: String) async throws -> AssetUploadResult {
        guard data.count <= Self.maximumAssetSize else {
            throw CloudKitError(
                operation: "asset upload",
                reason: .invalidRequest(
                    "The file of \(data.count) bytes is larger than the \(Self.maximumAssetSize) bytes (50 MB) "
                        + "CloudKit takes for an asset."),
                attempts: 0)
        }
        guard let target = URL(string: url), target.scheme != nil else {
            throw CloudKitError(
                operation: "asset upload", reason: .invalidRequest("The upload URL '\(url)' is not valid."),
                attempts: 0)
        }
        let exchange = Exchange(
            operation: "asset upload", body: data, resendsWhenUnanswered: true, uploadURL: target)
        return try await exchange.answer(AssetUploadResult.self, from: self)
    }

    /// Uploads the files of the records' assets that the server has not received, and returns
    /// the records with each such asset replaced by what its upload returned.
    ///
    /// An asset the server has not received has a local `RecordAsset/fileURL` and neither a
    /// receipt nor a checksum, as `RecordEncoder` makes them for a `RecordAssetValue` or a
    /// file URL. The client asks for one token for each (an asset list's elements each take
    /// one), reads each file, uploads its bytes, and puts the upload's
    /// `AssetUploadResult/asset` in its place. A record without a name takes the one the server
    /// chose for its tokens. Records without such assets come back as they are.
    ///
    /// - Parameters:
    ///   - records: The records to save next.
    ///   - zoneID: The zone the records will be saved to, or `nil` for the default zone.
    /// - Throws: ``CloudKitError``: a file that cannot be read, a token answer that does not
    ///   match the tokens asked for, or a failed request.
    public func uploadAssets(of records: [Record], zoneID: RecordZoneID? = nil) async throws -> [Record] {
        let files = records.indices.flatMap { index in AssetFile.all(in: records[index], at: index) }
        guard !files.isEmpty else { return records }
        let request = AssetsUploadRequest(
            tokens: files.map { file in
                let record = records[file.record]
                return AssetsUploadRequest.Token(
                    recordType: record.recordType, fieldName: file.field,
                    recordName: record.recordName.isEmpty ? nil : record.recordName)
            },
            zoneID: zoneID)
        let tokens = try await requestAssetUploads(request).tokens
        let mismatch = CloudKitError(
            operation: "assets/upload",
            reason: .unreadableAnswer(status: 200, TokenMismatch(asked: files.count, answered: tokens.count)))
        guard tokens.count == files.count else { throw mismatch }
        var uploaded = records
        for (file, token) in zip(files, tokens) {
            // A record without a name takes the one the server chose for its first token.
            if uploaded[file.record].recordName.isEmpty, let chosen = token.recordName {
                uploaded[file.record].recordName = chosen
            }
            let named = token.recordName.map { $0 == uploaded[file.record].recordName } ?? true
            guard token.fieldName == file.field, named else { throw mismatch }
        }
        for (file, token) in zip(files, tokens) {
            let data: Data
            do {
                data = try Data(contentsOf: file.url)
            } catch {
                throw CloudKitError(
                    operation: "asset upload", recordName: records[file.record].recordName,
                    reason: .invalidRequest(
                        "The file \(file.url.path) of field '\(file.field)' cannot be read: "
                            + error.localizedDescription),
                    attempts: 0)
            }
            let result = try await uploadAsset(data, to: token.url)
            uploaded[file.record].fields[file.field] = file.replacing(
                in: uploaded[file.record].fields[file.field], with: result.asset)
        }
        return uploaded
    }

    /// Saves records whose assets may be local files, end to end: the files are uploaded
    /// (``uploadAssets(of:zoneID:)``), then the records saved with what the uploads returned
    /// (``modifyRecords(_:)``), each with a `create`, or an `update` when it carries a change
    /// tag.
    ///
    /// ```swift
    /// var record = Record(recordType: "Photo", recordName: "P1")
    /// record["image"] = .asset(RecordAsset(fileURL: imageFile))
    /// let answer = try await database.saveRecords([record])
    /// ```
    ///
    /// - Parameters:
    ///   - records: The records to save.
    ///   - zoneID: The zone of the records, or `nil` for the zone they came from, else the
    ///     default zone.
    ///   - atomic: Whether the whole request fails when one operation fails.
    /// - Returns: One entry for each record, in order.
    /// - Throws: ``CloudKitError`` for a failed upload or save.
    public func saveRecords(_ records: [Record], zoneID: RecordZoneID? = nil, atomic: Bool? = nil) async throws
        -> RecordsModifyResponse
    {
        try await modifyUploadingAssets(RecordsModifyRequest(savingRecords: records, zoneID: zoneID, atomic: atomic))
    }

    /// Uploads the assets of a modify request's records, then sends it.
    func modifyUploadingAssets(_ request: RecordsModifyRequest) async throws -> RecordsModifyResponse {
        let zoneID = ModifyPlan(request).zoneID
        // Most saves carry no file to upload: they go as they are, their records not copied.
        guard request.operations.contains(where: { AssetFile.anyIn($0.record) }) else {
            return try await modifyRecords(request)
        }
        let records = try await uploadAssets(of: request.operations.map(\.record), zoneID: zoneID)
        var sent = request
        for index in sent.operations.indices { sent.operations[index].record = records[index] }
        return try await modifyRecords(sent)
    }
}

/// An answer to a token request whose tokens are not those asked for, one for one, in order.
struct TokenMismatch: Error, CustomStringConvertible {
    let asked: Int
    let answered: Int
    var description: String {
        "The server answered \(answered) upload tokens for the \(asked) asked for, or not in the order asked."
    }
}

import Foundation

/// A file stored beside a record rather than inside it.
///
/// Large content — images, documents, or a ``RecordAssetValue`` too big for a field — belongs in
/// an asset: the record holds only a small reference to it, so the file does not count against the
/// record's size limit.
///
/// An asset made on this device has a local ``fileURL``. An asset that came from CloudKit has the
/// server's keys instead: ``fileChecksum``, ``size``, ``downloadURL`` and the rest. A `URL`
/// property that holds a file URL is stored as an asset:
///
/// ```swift
/// struct Person: Codable {
///     var name: String
///     var avatar: URL      // URL(fileURLWithPath: "/tmp/avatar.png") becomes an asset
/// }
/// ```
public struct RecordAsset: Hashable, Sendable, Codable {
    /// The local file that holds the asset's content, if it is on this device.
    ///
    /// CloudKit's wire format has no place for a local path, so the record's JSON form leaves it
    /// out; the asset's own `Codable` form, used inside nested values, keeps it.
    public var fileURL: URL?

    /// The server's checksum of the file's content.
    public var fileChecksum: String?

    /// The file's size in bytes, as the server reports it.
    public var size: Int?

    /// The server's checksum of the asset's reference.
    public var referenceChecksum: String?

    /// The key the server uses to encrypt the file.
    public var wrappingKey: String?

    /// The receipt the server returns when the file is uploaded, which a record save then cites.
    public var receipt: String?

    /// The address to download the file from. CloudKit returns a template in which `${f}` stands
    /// for the file name to download as.
    public var downloadURL: String?

    /// Creates an asset for a local file.
    ///
    /// - Parameter fileURL: The file that holds the asset's content.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Creates an asset from any of its keys; the server's keys are the ones CloudKit returns.
    ///
    /// - Parameters:
    ///   - fileURL: The local file that holds the asset's content.
    ///   - fileChecksum: The server's checksum of the file's content.
    ///   - size: The file's size in bytes.
    ///   - referenceChecksum: The server's checksum of the asset's reference.
    ///   - wrappingKey: The key the server uses to encrypt the file.
    ///   - receipt: The receipt of an upload.
    ///   - downloadURL: The address to download the file from.
    public init(
        fileURL: URL? = nil,
        fileChecksum: String? = nil,
        size: Int? = nil,
        referenceChecksum: String? = nil,
        wrappingKey: String? = nil,
        receipt: String? = nil,
        downloadURL: String? = nil
    ) {
        self.fileURL = fileURL
        self.fileChecksum = fileChecksum
        self.size = size
        self.referenceChecksum = referenceChecksum
        self.wrappingKey = wrappingKey
        self.receipt = receipt
        self.downloadURL = downloadURL
    }

    /// The address to download the file from, as the file named `fileName`: the
    /// ``downloadURL`` with CloudKit's `${f}` placeholder filled in with the name, percent-encoded
    /// for a path. `nil` when the asset has no download address or the result is not a valid URL.
    ///
    /// The server serves the same file whatever the name; the name is the one the download
    /// suggests, which a `URLSession` download task or a browser saves the file under.
    ///
    /// ```swift
    /// let url = asset.downloadURL(fileName: "IMG_0042.HEIC")
    /// // https://cvws.icloud-content.com/B/AY6c…/IMG_0042.HEIC?o=Ai7a…
    /// ```
    public func downloadURL(fileName: String) -> URL? {
        guard let downloadURL else { return nil }
        // A name that cannot be encoded (never the case for valid Unicode) leaves the placeholder
        // to a name that can.
        let encoded = fileName.addingPercentEncoding(withAllowedCharacters: Self.fileNameCharacters) ?? "file"
        return URL(string: downloadURL.replacingOccurrences(of: "${f}", with: encoded))
    }

    /// The characters a file name keeps as they are in a download address: a path's, without
    /// the `/` that would make the name a path, the `;` a path's parameters begin with, nor `?`.
    private static let fileNameCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;?"))

    /// Whether the server can resolve the asset: it has the receipt of an upload, or the checksum
    /// of a file the server holds. An asset with only a local file must be uploaded first.
    var isKnownToServer: Bool { receipt != nil || fileChecksum != nil }

    /// The asset's cost against a record's size limit: the UTF-8 bytes of its checksum, else of
    /// its file URL or download URL.
    var encodedSize: Int {
        if let fileChecksum { return fileChecksum.utf8.count }
        if let fileURL { return fileURL.absoluteString.utf8.count }
        return downloadURL?.utf8.count ?? 0
    }
}

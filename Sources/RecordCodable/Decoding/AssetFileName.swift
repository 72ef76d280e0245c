import Foundation

/// What a `URL` property read from a server asset names the file it downloads: the name that
/// fills CloudKit's `${f}` placeholder in the asset's ``RecordAsset/downloadURL``.
///
/// The server answers every name with the same file; the name is the one the download suggests,
/// which a download task or a browser saves it under. By default it is the field's name, so a
/// Photos original downloads as `resOriginalRes`. Choose another with
/// ``RecordDecoder/assetFileName``:
///
/// ```swift
/// var decoder = RecordDecoder()
/// decoder.assetFileName = .custom { codingPath, asset in
///     "\(asset.fileChecksum ?? "file").jpg"
/// }
/// ```
///
/// To keep the placeholder, read the field as a ``RecordAsset``: its ``RecordAsset/downloadURL``
/// is the server's template, unchanged, and ``RecordAsset/downloadURL(fileName:)`` fills it in
/// later — with a name that another field holds, say.
public enum AssetFileName: Sendable {
    /// The field's name (for an asset in a list, the list's field): the default.
    case fieldName
    /// The name the closure gives, from the coding path of the value and the asset. It is
    /// percent-encoded before it fills the placeholder.
    case custom(@Sendable (_ codingPath: [any CodingKey], _ asset: RecordAsset) -> String)
}

/// A value stored as an asset — a file beside the record — instead of inside it.
///
/// A record store limits a record's size (CloudKit: 1 MB), but not its assets'. Conform a large
/// value's type to `RecordAssetValue` and ``RecordEncoder`` writes the value's JSON to a file in
/// its ``RecordEncoder/assetDirectory`` and stores a ``RecordAsset`` pointing to it; only that
/// reference counts against the limit. ``RecordDecoder`` reads the file back.
///
/// ```swift
/// struct Transcript: RecordAssetValue {
///     var lines: [String]
/// }
///
/// struct Episode: Codable {
///     var id: String
///     var title: String
///     var transcript: Transcript     // stored as an asset
/// }
/// ```
///
/// The file's name is the SHA-256 digest of its content, so encoding the same value twice
/// writes one file, and equal values share it.
public protocol RecordAssetValue: Codable {}

import Foundation

/// Where ``RecordAssetValue``s go: each to a file of its own, beside the record, which holds an
/// asset that points to it.
extension RecordEncodingEngine {
    /// Writes a ``RecordAssetValue``'s JSON to a file named by its digest, unless the file is
    /// already there, and returns an asset that points to it.
    func writeAsset(_ value: some RecordAssetValue, at path: CodingPath) throws -> EncodedValue {
        let data = try encodeJSON(value, at: path)
        let directory = options.assetDirectory
        let file = directory.appendingPathComponent(SHA256.hexDigest(of: data) + ".json", isDirectory: false)
        do {
            if !FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try data.write(to: file, options: .atomic)
            }
        } catch {
            throw EncodingError.invalid(
                value, at: path, "Cannot write the asset file \(file.path): \(error.localizedDescription)",
                underlyingError: error)
        }
        return EncodedValue(.asset(RecordAsset(fileURL: file)))
    }
}

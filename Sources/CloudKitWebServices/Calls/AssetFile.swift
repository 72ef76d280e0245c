import Foundation
import RecordCodable

/// An asset of a record that is a local file the server has not received: where it is, and
/// where its value goes back.
struct AssetFile {
    /// The record's position among those uploaded.
    let record: Int
    /// The field that holds the asset.
    let field: String
    /// The asset's position in the field's list, or `nil` for a field that is one asset.
    let element: Int?
    /// The file.
    let url: URL

    /// The assets of `record` that are local files, field by field in name order.
    static func all(in record: Record, at position: Int) -> [AssetFile] {
        // Most records hold no file to upload: they are passed without sorting their fields.
        guard anyIn(record) else { return [] }
        return record.fields.keys.sorted().flatMap { field -> [AssetFile] in
            switch record.fields[field] {
            case .asset(let asset):
                return asset.localFile.map { [AssetFile(record: position, field: field, element: nil, url: $0)] } ?? []
            case .list(let elements):
                return elements.indices.compactMap { index in
                    guard case .asset(let asset) = elements[index], let url = asset.localFile else { return nil }
                    return AssetFile(record: position, field: field, element: index, url: url)
                }
            default:
                return []
            }
        }
    }

    /// Whether `record` holds an asset that is a local file, in a field or a field's list.
    static func anyIn(_ record: Record) -> Bool {
        var holdsOne = false
        record.forEachField { _, value in
            guard !holdsOne else { return }
            holdsOne =
                switch value {
                case .asset(let asset): asset.localFile != nil
                case .list(let elements): elements.contains { $0.isLocalFileAsset }
                default: false
                }
        }
        return holdsOne
    }

    /// The field's value with this asset replaced by `uploaded`: the whole value for a field
    /// that is one asset, the element at ``element`` for a list (the value unchanged when it is
    /// no longer a list that long).
    func replacing(in value: RecordValue?, with uploaded: RecordAsset) -> RecordValue? {
        guard let element else { return .asset(uploaded) }
        guard case .list(var elements) = value, elements.indices.contains(element) else { return value }
        elements[element] = .asset(uploaded)
        return .list(elements)
    }
}

extension RecordAsset {
    /// The local file of an asset the server has not received (no receipt, no checksum), or `nil`.
    var localFile: URL? {
        receipt == nil && fileChecksum == nil ? fileURL : nil
    }
}

extension RecordValue {
    /// Whether the value is an asset that is a local file the server has not received.
    fileprivate var isLocalFileAsset: Bool {
        if case .asset(let asset) = self { asset.localFile != nil } else { false }
    }
}

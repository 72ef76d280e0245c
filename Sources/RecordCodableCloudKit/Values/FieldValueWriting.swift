#if canImport(CloudKit)
    import CloudKit
    import CoreLocation
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    /// A field's ``RecordValue`` as the object a `CKRecord` holds.
    ///
    /// | `RecordValue` | object |
    /// |---|---|
    /// | `.string` | `NSString` |
    /// | `.int64` | `NSNumber(value: Int64)` |
    /// | `.double` | `NSNumber(value: Double)` |
    /// | `.bytes` | `NSData` |
    /// | `.date` | `NSDate` |
    /// | `.asset` | `CKAsset(fileURL:)`: an asset with no local file is an error |
    /// | `.reference` | `CKRecord.Reference`, its zone the holder's when it names none: `validate` is an error |
    /// | `.location` | `CLLocation`, with Core Location's sentinels for what is missing |
    /// | `.list` | `NSArray` of one kind of element, never a list: anything else is an error |
    enum FieldValueWriting {
        static func object(
            for value: RecordValue, holderZone: CKRecordZone.ID, at path: [any CodingKey]
        ) throws -> any CKRecordValue {
            switch value {
            case .string(let string): return NSString(string: string)
            case .int64(let number): return NSNumber(value: number)
            case .double(let number): return NSNumber(value: number)
            case .bytes(let data): return NSData(data: data)
            case .date(let date): return NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
            case .asset(let asset): return try ckAsset(asset, at: path)
            case .reference(let reference):
                return try ZoneConversion.ckReference(reference, holderZone: holderZone, at: path)
            case .location(let location): return LocationConversion.clLocation(location)
            case .list(let elements): return try list(elements, holderZone: holderZone, at: path)
            }
        }

        /// CloudKit uploads an asset from a local file; it has no way to carry a download URL or the server's
        /// checksum of a file it does not have.
        private static func ckAsset(_ asset: RecordAsset, at path: [any CodingKey]) throws -> CKAsset {
            guard let fileURL = asset.fileURL else {
                throw BridgeError.encoding(
                    asset, at: path,
                    "A CKAsset is made from a local file, and this asset has none: download its file first (its "
                        + "downloadURL), then make the asset with RecordAsset(fileURL:).")
            }
            guard fileURL.isFileURL else {
                throw BridgeError.encoding(asset, at: path, "A CKAsset's URL must be a file URL, not \(fileURL).")
            }
            return CKAsset(fileURL: fileURL)
        }

        private static func list(
            _ elements: [RecordValue], holderZone: CKRecordZone.ID, at path: [any CodingKey]
        ) throws -> NSArray {
            var objects: [Any] = []
            objects.reserveCapacity(elements.count)
            let firstKind = elements.first.map(ValueKind.init)
            for (index, element) in elements.enumerated() {
                let elementPath = path + [AnyCodingKey(index: index)]
                let kind = ValueKind(element)
                if kind == .list {
                    throw BridgeError.encoding(
                        element, at: elementPath, "A CloudKit list cannot hold a list.")
                }
                if let firstKind, kind != firstKind {
                    throw BridgeError.encoding(
                        element, at: elementPath,
                        "A CloudKit list holds one kind of value, and this one is \(kind) where the first is \(firstKind)."
                    )
                }
                objects.append(try object(for: element, holderZone: holderZone, at: elementPath))
            }
            return NSArray(array: objects)
        }
    }

    /// The kinds of value a field holds, to tell a list's elements apart and to name them in errors.
    enum ValueKind: String, CustomStringConvertible {
        case string, int64, double, bytes, date, asset, reference, location, list

        init(_ value: RecordValue) {
            switch value {
            case .string: self = .string
            case .int64: self = .int64
            case .double: self = .double
            case .bytes: self = .bytes
            case .date: self = .date
            case .asset: self = .asset
            case .reference: self = .reference
            case .location: self = .location
            case .list: self = .list
            }
        }

        var description: String { rawValue }
    }

    extension RecordValue {
        /// Whether the value is one CloudKit never encrypts: an asset, a reference, or a list of them.
        var isNeverEncrypted: Bool {
            switch self {
            case .asset, .reference: true
            case .list(let elements): elements.contains { $0.isNeverEncrypted }
            default: false
            }
        }
    }
#endif

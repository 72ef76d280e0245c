#if canImport(CloudKit)
    import CloudKit
    import CoreLocation
#elseif CloudKitShim && os(Linux)
    import CloudKitAPIShim
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation
    import RecordCodable

    /// The ``RecordValue`` of an object a `CKRecord` holds.
    ///
    /// A number becomes a value by its `NSNumber` type: a `float` or `double` is `.double`; every integer type
    /// is `.int64`, and so is a Boolean (`0` or `1`: Foundation stores `Bool` as a `char`); an unsigned number
    /// above `Int64.max` cannot be held. An `NSArray` must hold one kind of element and no array. Anything a
    /// record cannot hold is a `DecodingError` at the field's path.
    enum FieldValueReading {
        static func value(of object: Any, holderZone: CKRecordZone.ID, at path: [any CodingKey]) throws -> RecordValue {
            if let string = object as? NSString { return .string(string as String) }
            if let number = object as? NSNumber { return try value(of: number, at: path) }
            if let data = object as? NSData { return .bytes(data as Data) }
            if let date = object as? NSDate { return .date(date as Date) }
            if let asset = object as? CKAsset {
                // The server record of a conflict has assets without a local file: an asset with no keys.
                return .asset(asset.fileURL.map { RecordAsset(fileURL: $0) } ?? RecordAsset())
            }
            if let reference = object as? CKRecord.Reference {
                return .reference(try ZoneConversion.recordReference(reference, holderZone: holderZone, at: path))
            }
            if let location = object as? CLLocation { return .location(LocationConversion.recordLocation(location)) }
            if let array = object as? NSArray { return try list(array, holderZone: holderZone, at: path) }
            throw BridgeError.decoding(at: path, "A record cannot hold a value of type \(type(of: object)).")
        }

        private static func value(of number: NSNumber, at path: [any CodingKey]) throws -> RecordValue {
            switch UInt8(truncatingIfNeeded: number.objCType.pointee) {
            case UInt8(ascii: "f"), UInt8(ascii: "d"):
                return .double(number.doubleValue)
            case UInt8(ascii: "c"), UInt8(ascii: "C"), UInt8(ascii: "B"), UInt8(ascii: "s"), UInt8(ascii: "S"),
                UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "l"), UInt8(ascii: "q"):
                return .int64(number.int64Value)
            case UInt8(ascii: "L"), UInt8(ascii: "Q"):
                guard let exact = Int64(exactly: number.uint64Value) else {
                    throw BridgeError.decoding(at: path, "Number \(number.uint64Value) does not fit in Int64.")
                }
                return .int64(exact)
            default:
                let type = String(cString: number.objCType)
                throw BridgeError.decoding(at: path, "A record cannot hold a number of Objective-C type '\(type)'.")
            }
        }

        private static func list(_ array: NSArray, holderZone: CKRecordZone.ID, at path: [any CodingKey]) throws
            -> RecordValue
        {
            var elements: [RecordValue] = []
            elements.reserveCapacity(array.count)
            var firstKind: ValueKind?
            for index in 0..<array.count {
                let elementPath = path + [AnyCodingKey(index: index)]
                let object = array.object(at: index)
                if object is NSArray {
                    throw BridgeError.decoding(at: elementPath, "A record's list cannot hold a list.")
                }
                let element = try value(of: object, holderZone: holderZone, at: elementPath)
                let kind = ValueKind(element)
                if let firstKind, kind != firstKind {
                    throw BridgeError.decoding(
                        at: elementPath,
                        "A record's list holds one kind of value, and this one is \(kind) where the first is \(firstKind)."
                    )
                }
                firstKind = kind
                elements.append(element)
            }
            return .list(elements)
        }
    }
#endif

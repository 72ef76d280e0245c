#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import Foundation

    /// The errors the bridge throws, built only when thrown.
    enum BridgeError {
        /// What CloudKit would refuse, or raise an exception for, on the way to a `CKRecord`.
        @inline(never)
        static func encoding(_ value: Any, at path: [any CodingKey], _ description: String) -> EncodingError {
            EncodingError.invalidValue(value, EncodingError.Context(codingPath: path, debugDescription: description))
        }

        /// What a `Record` cannot hold, on the way from a `CKRecord`.
        @inline(never)
        static func decoding(at path: [any CodingKey], _ description: String) -> DecodingError {
            DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: description))
        }
    }
#endif

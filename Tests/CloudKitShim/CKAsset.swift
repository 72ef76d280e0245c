#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    // CKAsset.h: `@interface CKAsset : NSObject <CKRecordValue>`.
    /// A file stored beside a record.
    public class CKAsset: NSObject, __CKRecordObjCValue {
        // CKAsset.h: `@property (nullable, readonly, copy) NSURL *fileURL`. CloudKit gives `nil` for the server
        // record of a `serverRecordChanged` error.
        /// The local file that holds the asset's content, if there is one.
        public let fileURL: URL?

        // CKAsset.h: `- (instancetype)initWithFileURL:(NSURL *)fileURL`.
        /// Creates an asset for a local file.
        public convenience init(fileURL: URL) {
            self.init(optionalFileURL: fileURL)
        }

        init(optionalFileURL: URL?) {
            self.fileURL = optionalFileURL
        }
    }
#endif

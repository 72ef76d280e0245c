#if CloudKitShim && !canImport(CloudKit)
    import Foundation

    // Not CloudKit's API: what the server and the device's fetch do, which the tests need to make records as
    // they arrive from iCloud. The bridge never calls these; their names start with `shim` so that no reader
    // takes them for Apple's.

    extension CKRecord {
        /// Plays a save on the server: assigns a change tag, dates and users, and forgets the changed keys,
        /// as a record that a fetch returns has none.
        public func shimServerSave(
            changeTag: String, created: Date, creator: CKRecord.ID, modified: Date, modifier: CKRecord.ID,
            share: CKRecord.Reference? = nil
        ) {
            recordChangeTag = changeTag
            creationDate = created
            creatorUserRecordID = creator
            modificationDate = modified
            lastModifiedUserRecordID = modifier
            self.share = share
            store.changed = []
            store.encryptedChanged = []
        }
    }

    extension CKAsset {
        /// An asset with no local file, as the server record of a `serverRecordChanged` error holds.
        public static func shimWithoutLocalFile() -> CKAsset {
            CKAsset(optionalFileURL: nil)
        }
    }
#endif

#if canImport(CloudKit) || (CloudKitShim && os(Linux))
    import RecordCodable

    /// The checks of a field's key that stand in for CloudKit's exceptions.
    ///
    /// `CKRecord.setObject(_:forKey:)` raises an Objective-C exception, which Swift cannot catch, for a key
    /// that is not one or more ASCII letters, digits and underscores starting with a letter; Apple's
    /// documentation also tells to avoid the names of `CKRecord`'s properties, which are refused here.
    enum FieldKeyCheck {
        /// The names of `CKRecord`'s properties.
        static let reserved: Set<String> = [
            "recordType", "recordID", "recordChangeTag", "creatorUserRecordID", "creationDate",
            "lastModifiedUserRecordID", "modificationDate", "parent", "share", "encryptedValues",
        ]

        /// Why `key` cannot name a `CKRecord`'s field, or `nil` when it can.
        static func problem(with key: String) -> String? {
            if !FieldName.isValid(key) { return FieldName.problem(with: key) }
            if reserved.contains(key) { return "'\(key)' is the name of a CKRecord property, which CloudKit reserves" }
            return nil
        }
    }
#endif

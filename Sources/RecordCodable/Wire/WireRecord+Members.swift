import Foundation

extension WireRecord {
    /// The members of a record dictionary that the record is read from, each found by its key.
    ///
    /// A record reads eleven of its keys; looking each up is a pass over the object's members per
    /// key. When every key of the object is plain text (``WireReader/forEachPlainMember(_:)``),
    /// one pass finds them all, each the first of its key as a lookup would find it; otherwise each
    /// is looked up by key. Either way a member reads the same, with the same errors: this decides
    /// only how a member is found.
    struct Members {
        /// The record dictionary.
        let reader: WireReader
        /// The place of each key's first member, by ``Key``, when one pass found them.
        private var found: Found?

        /// The keys a record reads, in the order of their names' bytes.
        enum Key: Int, CaseIterable {
            case created, deleted, fields, modified, parent, recordChangeTag, recordName, recordType, share, shortGUID
            case zoneID

            /// The key as it is written.
            var name: StaticString {
                switch self {
                case .created: "created"
                case .deleted: "deleted"
                case .fields: "fields"
                case .modified: "modified"
                case .parent: "parent"
                case .recordChangeTag: "recordChangeTag"
                case .recordName: "recordName"
                case .recordType: "recordType"
                case .share: "share"
                case .shortGUID: "shortGUID"
                case .zoneID: "zoneID"
                }
            }

            /// The key whose name is exactly `bytes`, if any.
            static func named(_ bytes: Span<UInt8>) -> Key? {
                // By length first, so that at most three names are compared byte by byte.
                switch bytes.count {
                case 5: return bytes.isText("share") ? .share : nil
                case 6:
                    return bytes.isText("fields")
                        ? .fields
                        : bytes.isText("parent")
                            ? .parent
                            : bytes.isText("zoneID") ? .zoneID : nil
                case 7: return bytes.isText("created") ? .created : bytes.isText("deleted") ? .deleted : nil
                case 8: return bytes.isText("modified") ? .modified : nil
                case 9: return bytes.isText("shortGUID") ? .shortGUID : nil
                case 10:
                    return bytes.isText("recordName") ? .recordName : bytes.isText("recordType") ? .recordType : nil
                case 15: return bytes.isText("recordChangeTag") ? .recordChangeTag : nil
                default: return nil
                }
            }
        }

        /// The first member of each key, found in one pass: a fixed set of places, so that
        /// finding them allocates nothing.
        private struct Found {
            var created, deleted, fields, modified, parent, recordChangeTag, recordName, recordType, share,
                shortGUID, zoneID: WireReader.Member?

            subscript(key: Key) -> WireReader.Member? {
                get {
                    switch key {
                    case .created: created
                    case .deleted: deleted
                    case .fields: fields
                    case .modified: modified
                    case .parent: parent
                    case .recordChangeTag: recordChangeTag
                    case .recordName: recordName
                    case .recordType: recordType
                    case .share: share
                    case .shortGUID: shortGUID
                    case .zoneID: zoneID
                    }
                }
                set {
                    switch key {
                    case .created: created = newValue
                    case .deleted: deleted = newValue
                    case .fields: fields = newValue
                    case .modified: modified = newValue
                    case .parent: parent = newValue
                    case .recordChangeTag: recordChangeTag = newValue
                    case .recordName: recordName = newValue
                    case .recordType: recordType = newValue
                    case .share: share = newValue
                    case .shortGUID: shortGUID = newValue
                    case .zoneID: zoneID = newValue
                    }
                }
            }
        }

        /// The members of the record dictionary `reader` holds.
        init(of reader: WireReader) {
            self.reader = reader
            var found = Found()
            let keysArePlain = reader.forEachPlainMember { bytes, member in
                // The first of a key given twice is the one read, as a lookup finds it.
                if let key = Key.named(bytes), found[key] == nil { found[key] = member }
            }
            self.found = keysArePlain ? found : nil
        }

        /// The member `key`; `keyNotFound` when the object has none, a mismatch when the record
        /// is not an object.
        func member(_ key: Key) throws -> WireReader {
            guard let found else { return try reader.member("\(key.name)") }
            guard let member = found[key] else { return try reader.member("\(key.name)") }
            return reader.reader(of: member)
        }

        /// The member `key`, or `nil` when it is missing or `null`.
        func optionalMember(_ key: Key) throws -> WireReader? {
            guard let found else { return try reader.optionalMember("\(key.name)") }
            guard let member = found[key], !reader.isNull(member) else { return nil }
            return reader.reader(of: member)
        }
    }
}

import Foundation

/// Where a record stands, as the index keeps it: its status, and whether the local change is a
/// deletion — which hides the record from reads, whether it waits to be sent or is in conflict.
struct RecordState: Hashable {
    var status: SyncStatus
    var isDeletion: Bool
    /// Whether the store keeps the server's version beside the local one.
    var hasServerVersion: Bool
    /// Whether a request has carried the record (see ``RecordEntry/wasOffered``).
    var wasOffered = false

    /// Whether the server may have the record: a version of its is known, or a request carried it.
    var mayBeOnServer: Bool { hasServerVersion || wasOffered }

    /// Whether the record is there for the app to read.
    var isVisible: Bool { !isDeletion }
}

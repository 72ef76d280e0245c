import RecordCodable

/// A record as the last `records/modify` request that carried it sent it: kept by the store's
/// engine, in memory only, until the answer to that request is applied.
///
/// The operation's record tells that request's answer from the answer to an older request that
/// carried the record too (it was sent again before the first answer came): only the last
/// request's success confirms the local version, and only while a request is out may the server's
/// version have changed without the store knowing.
struct SentVersion {
    /// The record of the operation that sent it, as the request holds it.
    var operation: Record
    /// The whole local version it sent: an update's operation holds only what changed.
    var version: EncodedRecord
    /// The zone the request went to, where the record goes again until the answer comes.
    var zoneID: RecordZoneID

    /// Whether `operation` is the operation that sent this version, as the server sees it: the
    /// same change tag, and the same fields set and cleared on the wire. So a request read back
    /// from JSON, which loses what JSON does not carry (the records' zones), is still the same
    /// request.
    func wasSent(by operation: Record) -> Bool {
        if operation == self.operation { return true }
        guard operation.recordName == self.operation.recordName,
            operation.metadata?.changeTag == self.operation.metadata?.changeTag,
            operation.clearedFields == self.operation.clearedFields
        else { return false }
        return (try? self.operation.update(to: operation))?.isEmptyUpdate == true
    }
}

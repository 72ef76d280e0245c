import RecordCodable

/// What a records-modify request allows: whether it may be split, and which refused
/// operations may be sent again.
struct ModifyPlan {
    static let operation = "records/modify"

    /// The zone the request saves to, or `nil` for the default zone.
    let zoneID: RecordZoneID?
    /// Whether the request is to be applied all or nothing: `atomic` when given, else true in a
    /// custom zone (the server's default). The server applies atomicity in custom zones only,
    /// but a request that asks for it is never split.
    let isAtomic: Bool

    init(_ request: RecordsModifyRequest) {
        zoneID = request.zoneID ?? request.operations.lazy.compactMap { $0.record.metadata?.zoneID }.first
        let inDefaultZone = (zoneID?.zoneName ?? "_defaultZone") == "_defaultZone"
        isAtomic = request.atomic ?? !inDefaultZone
    }

    /// Whether the request may be applied in parts.
    var maySplit: Bool { !isAtomic }

    /// The positions of the entries to send again: those the server refused for now; in an
    /// atomic request, all of them, when the server refused some for now and the rest only
    /// because of those (`ATOMIC_ERROR`).
    func retryable(_ entries: [RecordResult]) -> [Int] {
        let refusedForNow = entries.indices.filter { entries[$0].error?.isRetryable == true }
        guard isAtomic, !refusedForNow.isEmpty else { return refusedForNow }
        let onlyForNow = entries.allSatisfy { entry in
            guard let error = entry.error else { return true }
            return error.isRetryable || error.serverErrorCode == .atomicError
        }
        return onlyForNow ? Array(entries.indices) : []
    }

    /// Whether operations may be sent again after an attempt got no answer: creates and updates
    /// (whose second application is recognised, see `settleLostAnswer`) and forced saves, which
    /// the server applies the same way twice; never deletes.
    static func resendsWhenUnanswered(_ operations: [RecordOperation]) -> Bool {
        operations.allSatisfy { operation in
            switch operation.operationType {
            case .create, .update, .forceUpdate, .replace, .forceReplace: true
            case .delete, .forceDelete: false
            }
        }
    }
}

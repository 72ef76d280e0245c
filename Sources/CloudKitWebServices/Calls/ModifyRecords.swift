import Foundation
import RecordCodable

// records/modify: split at the server's limit, refused records sent again when the server said
// it did nothing, and a lost answer settled by looking the records up.

extension CloudKitDatabase {
    /// Creates, updates, replaces and deletes records (`records/modify`).
    ///
    /// - A request of more than 200 operations (the server's limit, see
    ///   `maximumOperationsPerRequest`) is sent as requests of 200, in order, and their answers
    ///   joined, when it may be applied in parts: when it is not atomic (`atomic: false`, or
    ///   `atomic: nil` in the default zone, where the server does not apply atomicity). An
    ///   atomic one is refused before anything
    ///   is sent: in parts it would not be atomic. So is one the server answers `LIMIT_EXCEEDED`
    ///   (too much data), which is split in half and sent again when it may be.
    /// - The records the server refused for now (`THROTTLED`, `TRY_AGAIN_LATER`, `ZONE_BUSY`, or
    ///   with a `retryAfter`) are sent again, alone, after the delay the server asked for, as the
    ///   ``retryPolicy`` allows; in an atomic request, the whole request, when every other
    ///   failure is an `ATOMIC_ERROR`.
    /// - When an attempt gets no answer (the connection failed after the request left), a
    ///   request that only creates or updates records is sent again. A create the first attempt
    ///   applied then comes back `EXISTS`, an update `CONFLICT`: the client looks those records
    ///   up, and returns the server's record as saved when it holds what was sent (the same
    ///   type and fields; an asset by its checksum). Otherwise the refusal is returned: another
    ///   writer got there first. A request with deletes is not sent again after a lost answer.
    ///
    /// A request without operations is not sent: its answer has no records.
    ///
    /// Every other refusal of a record is returned in its place, for the caller to act on
    /// (`RecordServerError/isConflict`, `RecordServerError/recoverySuggestion`).
    ///
    /// - Parameter request: The operations.
    /// - Returns: One entry for each operation, in order, and the zone's new sync token.
    /// - Throws: ``CloudKitError``: ``CloudKitError/Reason/invalidRequest(_:)`` for an atomic
    ///   request too large, or a body that cannot be written; the server's refusal of a whole
    ///   request; or no answer. The error's ``CloudKitError/completed`` holds the results of the
    ///   operations answered before: the parts of a split request, the records an attempt
    ///   settled before a retry of the others failed.
    public func modifyRecords(_ request: RecordsModifyRequest) async throws -> RecordsModifyResponse {
        // A request without operations changes nothing, and the server refuses it.
        guard !request.operations.isEmpty else { return RecordsModifyResponse(records: []) }
        let limit = Self.maximumOperationsPerRequest
        let plan = ModifyPlan(request)
        guard request.operations.count > limit else { return try await modifyPart(request, plan: plan) }
        guard plan.maySplit else {
            throw CloudKitError(
                operation: ModifyPlan.operation,
                reason: .invalidRequest(
                    "An atomic request of \(request.operations.count) operations is more than the "
                        + "\(limit) CloudKit takes in one request, and sent in parts it would not be atomic: "
                        + "send at most \(limit), or set atomic to false."),
                attempts: 0)
        }
        var joined = RecordsModifyResponse(records: [])
        for part in request.operations.chunked(by: limit) {
            var partRequest = request
            partRequest.operations = Array(part)
            joined = try await joining(joined) { try await modifyPart(partRequest, plan: plan) }
        }
        return joined
    }

    /// Sends a request of at most 200 operations, split in half while the server finds it too
    /// large and it may be split.
    private func modifyPart(_ request: RecordsModifyRequest, plan: ModifyPlan) async throws
        -> RecordsModifyResponse
    {
        do {
            return try await modifyRetryingRefused(request, plan: plan)
        } catch let error as CloudKitError
            where error.serverError?.serverErrorCode == .limitExceeded && plan.maySplit
            && request.operations.count > 1
        {
            let half = request.operations.count / 2
            var first = request
            first.operations = Array(request.operations[..<half])
            var second = request
            second.operations = Array(request.operations[half...])
            let answered = try await modifyPart(first, plan: plan)
            return try await joining(answered) { try await modifyPart(second, plan: plan) }
        }
    }

    /// `answered` followed by the answer of `next`; when `next` throws, its error carries
    /// `answered`'s results as completed.
    private func joining(
        _ answered: RecordsModifyResponse, _ next: () async throws -> RecordsModifyResponse
    ) async throws -> RecordsModifyResponse {
        do {
            let answer = try await next()
            return RecordsModifyResponse(
                records: answered.records + answer.records, syncToken: answer.syncToken ?? answered.syncToken)
        } catch var error as CloudKitError {
            error.completed = answered.records + error.completed
            throw error
        }
    }

    /// Sends a request, then again the operations the server refused for now, as the retry
    /// policy allows, and returns the answers in the order of the operations.
    private func modifyRetryingRefused(_ request: RecordsModifyRequest, plan: ModifyPlan) async throws
        -> RecordsModifyResponse
    {
        var answers = [RecordResult?](repeating: nil, count: request.operations.count)
        var pending = Array(request.operations.indices)
        var syncToken: String?
        var retries = 0
        do {
            while true {
                var sent = request
                sent.operations = pending.map { request.operations[$0] }
                let exchange = try Exchange(
                    operation: ModifyPlan.operation, encoding: sent,
                    recordName: sent.operations.count == 1 ? sent.operations.first?.record.recordName : nil,
                    resendsWhenUnanswered: ModifyPlan.resendsWhenUnanswered(sent.operations))
                let (answer, resent) = try await exchange.reply(RecordsModifyResponse.self, from: self)
                syncToken = answer.syncToken ?? syncToken
                guard answer.records.count == sent.operations.count else {
                    // Without one answer per operation, answers cannot be matched to operations:
                    // the first answer is returned as it came, and a later one is an error.
                    guard retries > 0 else { return answer }
                    throw exchange.failure(
                        .unreadableAnswer(
                            status: 200,
                            AnswerMismatch(operations: sent.operations.count, answers: answer.records.count)),
                        attempts: 1)
                }
                var entries = answer.records
                if resent { entries = try await settleLostAnswer(entries, operations: sent.operations, plan: plan) }
                for (entry, index) in zip(entries, pending) { answers[index] = entry }
                let refused = plan.retryable(entries)
                guard !refused.isEmpty,
                    let delay = retryPolicy.delay(
                        beforeRetry: retries,
                        serverDelay: refused.compactMap { entries[$0].error?.requestedDelay() }.max())
                else { break }
                try await retryPolicy.sleep(delay)
                retries += 1
                pending = refused.map { pending[$0] }
            }
        } catch var error as CloudKitError {
            // The operations answered for good before a retry of the others failed are applied
            // (or refused) on the server: the error carries their results, as a split request's
            // error carries its parts'.
            let unsettled = Set(pending)
            error.completed = answers.indices.filter { !unsettled.contains($0) }.compactMap { answers[$0] }
            throw error
        }
        return RecordsModifyResponse(records: answers.compactMap { $0 }, syncToken: syncToken)
    }

    /// The answers of a request that was sent again after an attempt got no answer: each create
    /// refused `EXISTS` and each update refused as a conflict is looked up, and counted saved
    /// when the server's record holds what was sent.
    private func settleLostAnswer(
        _ entries: [RecordResult], operations: [RecordOperation], plan: ModifyPlan
    ) async throws -> [RecordResult] {
        let doubtful = entries.indices.filter { index in
            guard let code = entries[index].error?.serverErrorCode else { return false }
            switch operations[index].operationType {
            case .create: return code == .exists
            case .update: return code == .conflict || code == .serverRecordChanged
            default: return false
            }
        }
        guard !doubtful.isEmpty else { return entries }
        let lookup = RecordsLookupRequest(
            records: doubtful.map { RecordsLookupRequest.LookupRecord(recordName: operations[$0].record.recordName) },
            zoneID: plan.zoneID)
        // By name, not by position: an answer short of an entry, or in another order, must not
        // count one record saved with another's.
        var found: [String: Record] = [:]
        for entry in try await lookupRecords(lookup).records {
            if let record = entry.record, found[record.recordName] == nil { found[record.recordName] = record }
        }
        var settled = entries
        for index in doubtful {
            if let record = found[operations[index].record.recordName], record.holds(operations[index].record) {
                settled[index] = .success(record)
            }
        }
        return settled
    }
}

/// An answer with a different number of entries than the request had operations.
struct AnswerMismatch: Error, CustomStringConvertible {
    let operations: Int
    let answers: Int
    var description: String { "The server answered \(answers) records for \(operations) operations." }
}

extension Record {
    /// Whether this record, as the server has it, holds what `sent` saved: the same type, every
    /// field sent with the same value (an asset by its checksum, which is all the server returns
    /// of an upload), and none of the fields sent cleared.
    func holds(_ sent: Record) -> Bool {
        guard recordType == sent.recordType else { return false }
        for (name, value) in sent.fields {
            guard let held = fields[name], held.sameContent(as: value) else { return false }
        }
        return sent.clearedFields.allSatisfy { fields[$0] == nil }
    }
}

extension RecordValue {
    /// Whether two values are the same content: assets by their checksum, lists element by
    /// element, anything else by equality.
    func sameContent(as other: RecordValue) -> Bool {
        switch (self, other) {
        case (.asset(let held), .asset(let sent)):
            guard let heldChecksum = held.fileChecksum, let sentChecksum = sent.fileChecksum else {
                return held == sent
            }
            return heldChecksum == sentChecksum
        case (.list(let held), .list(let sent)):
            return held.count == sent.count && zip(held, sent).allSatisfy { $0.sameContent(as: $1) }
        default:
            return self == other
        }
    }
}

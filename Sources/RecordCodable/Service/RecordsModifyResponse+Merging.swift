import Foundation

// A records/modify answer to an update echoes only what the request changed (or what its
// desiredKeys named): its change tag, timestamps and those fields. These merges give the record
// as the server now has it from what the caller already holds, without fetching it again.

extension Record {
    /// This record after a save that the server answered with `answer`: its fields with the
    /// answer's in their place, and the answer's change tag and timestamps.
    ///
    /// The server answers an update with the record's new change tag and timestamps and only the
    /// fields the update carried (or those its `desiredKeys` named), so the answer alone does
    /// not decode into a model that needs the others. Merge it into the record you hold — the
    /// original as fetched, or the whole record you sent — and keep the result as the current
    /// version, to edit and save again:
    ///
    /// ```swift
    /// let answer = try RecordJSONDecoder().decode(RecordsModifyResponse.self, from: body)
    /// let current = fetched.merging(answer: try answer.records[0].get())
    /// let asset = try RecordDecoder().decode(PhotoAsset.self, from: current)
    /// ```
    ///
    /// Merging an update made by ``update(to:)`` or ``RecordEncoder/encode(_:updating:)`` into
    /// its original applies it the same way: `original.merging(answer: update)` is the original
    /// with the update's fields, without those it clears.
    ///
    /// - Parameter answer: The server's record for this one: its entry in a
    ///   ``RecordsModifyResponse``, or any record of the same name.
    /// - Returns: This record's fields, without the fields this record clears (an update's
    ///   ``clearedFields``) and those the answer sends without a value, with each field the answer
    ///   carries in place; the answer's metadata, with this record's where the answer says
    ///   nothing (a creation time it leaves out, say); the answer's name and type where this
    ///   record has none. Nothing is left to clear.
    public func merging(answer: Record) -> Record {
        var merged = self
        for name in clearedFields { merged.fields[name] = nil }
        for (name, value) in answer.fields { merged.fields[name] = value }
        for name in answer.clearedFields { merged.fields[name] = nil }
        merged.clearedFields = []
        merged.isUpdate = false
        if merged.recordName.isEmpty { merged.recordName = answer.recordName }
        if merged.recordType.isEmpty { merged.recordType = answer.recordType }
        merged.encryptedFields = encryptedFields.union(answer.encryptedFields).filter { merged.fields[$0] != nil }
        merged.fieldTypeHints = fieldTypeHints.merging(answer.fieldTypeHints) { _, answered in answered }
            .filter { merged.fields[$0.key]?.isEmptyList == true }
        if let parent = answer.parent { merged.parent = parent }
        merged.metadata = Self.mergedMetadata(metadata, answer: answer.metadata)
        return merged
    }

    /// The answer's metadata, with what it leaves out taken from `held`.
    private static func mergedMetadata(_ held: RecordMetadata?, answer: RecordMetadata?) -> RecordMetadata? {
        guard var merged = answer else { return held }
        guard let held else { return merged }
        if merged.changeTag == nil { merged.changeTag = held.changeTag }
        if merged.created == nil { merged.created = held.created }
        if merged.modified == nil { merged.modified = held.modified }
        if merged.zoneID == nil { merged.zoneID = held.zoneID }
        if merged.share == nil { merged.share = held.share }
        if merged.shortGUID == nil { merged.shortGUID = held.shortGUID }
        return merged
    }
}

extension RecordsModifyResponse {
    /// The records as the server has them after `request`, which it answered with this response:
    /// each answer merged into what was sent, so that partial answers give whole records.
    ///
    /// Each entry is matched with its operation by record name (by position for a record the
    /// server named). A saved record is ``Record/merging(answer:)`` of the answer into:
    /// - for an `update` or `forceUpdate`, its original from `originals` (by name) with the sent
    ///   record applied, or the sent record alone when `originals` lacks it — then only the
    ///   fields sent are known;
    /// - for a `create`, `replace` or `forceReplace`, the sent record, which is the whole record.
    ///
    /// The answers to deletes, failures and unreadable entries are returned as they came, and so
    /// is an answer no operation matches. The zone of a merged record that has none is the
    /// request's.
    ///
    /// ```swift
    /// let request = RecordsModifyRequest(savingRecords: [try fetched.update(to: edited)])
    /// let answer = try RecordJSONDecoder().decode(RecordsModifyResponse.self, from: body)
    /// let current = answer.records(savedBy: request, originals: [fetched]).compactMap(\.record)
    /// ```
    ///
    /// - Parameters:
    ///   - request: The request this response answers.
    ///   - originals: The records as they were before the request, for the updates.
    /// - Returns: One entry per entry of ``records``, in its order.
    public func records(savedBy request: RecordsModifyRequest, originals: some Sequence<Record> = [Record]())
        -> [RecordResult]
    {
        let originals = Dictionary(originals.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        let operations = Dictionary(
            request.operations.filter { !$0.record.recordName.isEmpty }.map { ($0.record.recordName, $0) },
            uniquingKeysWith: { first, _ in first })
        return records.enumerated().map { index, entry in
            guard case .success(let answer) = entry else { return entry }
            let operation =
                operations[answer.recordName]
                ?? (request.operations.indices.contains(index) && request.operations[index].record.recordName.isEmpty
                    ? request.operations[index] : nil)
            guard let operation, !operation.operationType.isDelete else { return entry }
            var held = operation.record
            if operation.operationType == .update || operation.operationType == .forceUpdate,
                let original = originals[answer.recordName]
            {
                held = original.merging(answer: operation.record)
            }
            var merged = held.merging(answer: answer)
            if merged.metadata?.zoneID == nil, let zoneID = request.zoneID {
                var metadata = merged.metadata ?? RecordMetadata()
                metadata.zoneID = zoneID
                merged.metadata = metadata
            }
            return .success(merged)
        }
    }
}

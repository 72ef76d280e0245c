import Foundation

extension RecordEncoder {
    /// Encodes a model and every model it links to, each as its own record.
    ///
    /// The model's own record comes first, then one record for each ``LinkedRecord`` it holds,
    /// and for each model those hold, to any depth. A model held more than once — the same record
    /// type and name — is encoded once, and links that loop back are followed once, so a graph with
    /// cycles ends. Send all of them in one `records/modify` request:
    ///
    /// ```swift
    /// let records = try RecordEncoder().encodeGraph(post)
    /// let body = try JSONEncoder().encode(RecordsModifyRequest(savingRecords: records))
    /// ```
    ///
    /// - Parameter value: The model. Its `encode(to:)` must use a keyed container.
    /// - Returns: The model's record, then the record of every model it links to.
    /// - Throws: What ``encode(_:)`` throws, for the model or for any model it links to.
    public func encodeGraph<T: Encodable>(_ value: T) throws -> [Record] {
        try Self.rejectRecord(value)
        let graph = GraphEncoding()
        let root = try encodeRecord(value, graph: graph, fallbackName: nil)
        graph.markEncoded(root)
        var records = [root]
        while let next = graph.next() {
            records.append(try encodeLinked(next.model, name: next.name, graph: graph))
        }
        return records
    }

    /// The record of a model found through a link, named as its references name it.
    private func encodeLinked(_ model: some LinkedRecord, name: String, graph: GraphEncoding) throws -> Record {
        try encodeRecord(model, graph: graph, fallbackName: name)
    }
}

extension RecordEncodingEngine {
    /// The reference to a linked model, with the action of the property being encoded and the
    /// encoder's zone. In a graph, the model is collected to be encoded as its own record.
    func reference(to model: some LinkedRecord) -> RecordReference {
        let recordType = ModelTypes.info(of: type(of: model)).recordType
        let name = recordName(of: model)
        graph?.add(model, recordType: recordType, name: name)
        return RecordReference(recordName: name, action: linkAction, zoneID: options.zoneID)
    }

    /// The name of a linked model's record: its identifier, else its `Identifiable` id, else a
    /// new UUID. Only the identifier is encoded, so nothing else about the model can fail here.
    private func recordName<M: LinkedRecord>(of model: M) -> String {
        let probe = RecordEncodingEngine(
            options: options, typeInfo: ModelEncodingInfo.of(M.self), graph: nil, encodesIdentifierOnly: true)
        defer {
            probe.abandon()
            // The probe's spare value encoder refers back to it: letting go of that ends the cycle.
            probe.detachSpareValueEncoder()
        }
        // Whatever else the model's encode(to:) does, the name counts once it is written.
        _ = try? model.encode(to: probe)
        if let name = probe.encodedRecordName {
            return name
        }
        if let identifiable = model as? any Identifiable {
            return Self.text(of: identifiable)
        }
        return UUID().uuidString
    }

    private static func text<I: Identifiable>(of identifiable: I) -> String {
        // An optional id that is nil names nothing: each such model is a record of its own.
        let id = Mirror(reflecting: identifiable.id)
        if id.displayStyle == .optional, id.children.isEmpty { return UUID().uuidString }
        return switch identifiable.id as Any {
        case let text as String: text
        case let uuid as UUID: uuid.uuidString
        case let id: String(describing: id)
        }
    }
}

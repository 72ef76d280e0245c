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
        try encodeGraph(value, named: nil)
    }

    /// ``encodeGraph(_:)`` for a caller that names the model's record itself (RecordStore's
    /// key-value view, whose records are named by their keys): `name` is the record's name when
    /// the model gives none, so that metadata the model holds is never taken for another record's.
    package func encodeGraph<T: Encodable>(_ value: T, named name: String?) throws -> [Record] {
        try Self.rejectRecord(value)
        let graph = GraphEncoding()
        let root = try encodeRecord(value, graph: graph, fallbackName: name)
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
    func reference(to model: some LinkedRecord, at path: CodingPath) throws -> RecordReference {
        let recordType = ModelTypes.info(of: type(of: model)).recordType
        let name = try recordName(of: model, at: path)
        graph?.add(model, recordType: recordType, name: name)
        return RecordReference(recordName: name, action: linkAction, zoneID: options.zoneID)
    }

    /// The name of a linked model's record: its identifier, else its `Identifiable` id; a new
    /// UUID for an identifier or id that is `nil`, a model not created yet.
    ///
    /// Only the identifier is encoded, so nothing else about the model can fail here. A name
    /// CloudKit would refuse is an error at the field, and so is a model with no identity at all:
    /// a reference must name the same record every time, or it names none the server has.
    private func recordName<M: LinkedRecord>(of model: M, at path: CodingPath) throws -> String {
        let probe = RecordEncodingEngine(
            options: options, typeInfo: ModelEncodingInfo.of(M.self), graph: nil, encodesIdentifierOnly: true)
        defer {
            probe.abandon()
            // The probe's spare value encoder refers back to it: letting go of that ends the cycle.
            probe.detachSpareValueEncoder()
        }
        do {
            try model.encode(to: probe)
        } catch let error as EncodingError where probe.refusedRecordName {
            // The identifier's own error, at its path inside the field.
            throw error.prefixingPath(with: path.keys)
        } catch {
            // Whatever else the model's encode(to:) does, the name counts once it is written.
        }
        if let name = probe.encodedRecordName {
            return name
        }
        if let identifiable = model as? any Identifiable {
            let name = Self.text(of: identifiable)
            if let problem = RecordName.problem(with: name) {
                throw EncodingError.invalid(
                    model, at: path, "The id of the linked \(M.self) cannot name its record: \(problem).")
            }
            return name
        }
        if probe.wroteIdentifier { return UUID().uuidString }
        throw EncodingError.invalid(
            model, at: path,
            "The linked \(M.self) has no identity, so its references would name a new record each time it is "
                + "encoded. Give it "
                + (options.identifierKey.map { "an identifier under the key '\($0)', or " } ?? "")
                + "an id by making it Identifiable.")
    }

    /// The id of an `Identifiable` model as a record name: text, a UUID's text, an integer's
    /// digits, any other id its description; a new UUID for an optional id that is `nil`, which
    /// names nothing: each such model is a record of its own.
    private static func text<I: Identifiable>(of identifiable: I) -> String {
        var id: Any = identifiable.id
        // An optional id names the record as the value it holds does: `5`, not `Optional(5)`.
        while case let optional = Mirror(reflecting: id), optional.displayStyle == .optional {
            guard let wrapped = optional.children.first?.value else { return UUID().uuidString }
            id = wrapped
        }
        return switch id {
        case let text as String: text
        case let uuid as UUID: uuid.uuidString
        case let id: String(describing: id)
        }
    }
}

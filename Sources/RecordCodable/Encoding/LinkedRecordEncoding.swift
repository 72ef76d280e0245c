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

    /// Encodes one record. Linked models are written as references, and collected in `graph`
    /// when there is one. A model without an identifier is named `fallbackName`, else a new UUID.
    func encodeRecord<T: Encodable>(_ value: T, graph: GraphEncoding?, fallbackName: String?) throws -> Record {
        // Only a plain record's engine is kept for the next one (see `SpareEngines`).
        let isPlain = graph == nil && fallbackName == nil
        var engine =
            (isPlain ? SpareEngines.take(for: T.self, options: self) : nil)
            ?? RecordEncodingEngine(
                options: self, typeInfo: ModelEncodingInfo.of(T.self), graph: graph, fallbackName: fallbackName)
        defer {
            if isPlain {
                SpareEngines.keep(&engine, for: T.self)
            } else {
                // The spare value encoder refers back to the engine: letting go of that ends the cycle.
                engine.detachSpareValueEncoder()
            }
        }
        do {
            try engine.rejectSingleValue(value)
            try value.encode(to: engine)
            return try engine.finish(encoding: value)
        } catch {
            engine.abandon()
            throw error
        }
    }
}

/// The records of a graph being encoded, and the linked models still to encode: each once, by
/// record type and name.
final class GraphEncoding {
    struct Key: Hashable {
        var recordType: String
        var recordName: String
    }

    private var seen: Set<Key> = []
    private var queue: [(model: any LinkedRecord, key: Key)] = []
    private var nextIndex = 0
    private var first: Key?

    /// Remembers a linked model to encode, unless a model of its type and name was met before.
    func add(_ model: any LinkedRecord, recordType: String, name: String) {
        let key = Key(recordType: recordType, recordName: name)
        if seen.insert(key).inserted {
            queue.append((model, key))
        }
    }

    /// Marks the graph's first record as encoded, so that links back to it add nothing more.
    func markEncoded(_ record: Record) {
        let key = Key(recordType: record.recordType, recordName: record.recordName)
        first = key
        seen.insert(key)
    }

    /// The next linked model to encode.
    func next() -> (model: any LinkedRecord, name: String)? {
        while nextIndex < queue.count {
            let (model, key) = queue[nextIndex]
            nextIndex += 1
            // The first record may have been met through a link before its own name was known.
            if key != first { return (model, key.recordName) }
        }
        return nil
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

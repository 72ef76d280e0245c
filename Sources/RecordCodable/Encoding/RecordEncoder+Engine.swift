/// How one call of the encoder runs: one engine for one record.
extension RecordEncoder {
    /// Encodes one record. Linked models are written as references, and collected in `graph`
    /// when there is one. A model without an identifier is named `fallbackName`, else a new UUID.
    func encodeRecord<T: Encodable>(_ value: T, graph: GraphEncoding?, fallbackName: String?) throws -> Record {
        // Only a plain record's engine is kept for the next one (see `SpareEngines`), and none
        // without the encoder's caches.
        let keepsEngine = graph == nil && fallbackName == nil && usesEncodingCaches
        var engine =
            (keepsEngine ? SpareEngines.take(for: T.self, options: self) : nil)
            ?? RecordEncodingEngine(
                options: self, typeInfo: ModelEncodingInfo.of(T.self), graph: graph, fallbackName: fallbackName)
        defer {
            if keepsEngine {
                SpareEngines.keep(&engine, for: T.self)
            } else {
                // The spare value encoder refers back to the engine: letting go of that ends the cycle.
                engine.detachSpareValueEncoder()
            }
        }
        do {
            try engine.checkModelType(of: value)
            try value.encode(to: engine)
            return try engine.finish(encoding: value)
        } catch {
            engine.abandon()
            throw error
        }
    }
}

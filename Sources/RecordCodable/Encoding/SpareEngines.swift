/// Engines kept from one record to the next, one per model type, so that encoding a record
/// allocates no engine and no value encoder, and looks up nothing about its type.
///
/// Rules:
/// - Only an engine of a plain ``RecordEncoder/encode(_:)`` is kept: one that encodes a graph, a
///   linked model or an identifier alone is made for that one record.
/// - A kept engine holds nothing of the record it wrote: its draft is cleared when it is kept.
/// - An engine is kept only when nothing but the caller refers to it, once its record is finished
///   or failed: a model that kept its encoder or a container keeps the engine, which is then never
///   reused. Its spare value encoder lets go of its reference back to the engine while the engine
///   is kept, and takes it again when the engine is reused.
/// - An engine is reused only by an encoder with the very same options (copies of one encoder
///   share them), and only by one caller at a time: taking it out of the store and putting it back
///   happen under the store's lock.
/// - One engine a type, for at most ``capacity`` types (see ``KeptPerType``): a type encoded by
///   encoders of different options, or on many threads at once, simply gets new engines when the
///   kept one is taken or does not fit. With more types than that in turn, a record finds its
///   type's engine about as often as `capacity` is to the number of types, and otherwise makes
///   one. (Each value type given to a `KeyValueStore` is a model type of its own.)
enum SpareEngines {
    /// How many model types keep an engine at once. A record of a type without one makes an
    /// engine, which costs a few allocations and a lookup of what the encoder knows of the type.
    static let capacity = 32

    private static let store = KeptPerType<RecordEncodingEngine>(capacity: capacity)

    /// The kept engine for `T`, if it fits `options`, ready for a new record.
    static func take<T>(for type: T.Type, options: RecordEncoder) -> RecordEncodingEngine? {
        let engine = store.take(for: ObjectIdentifier(type)) { $0.options.sharesOptions(with: options) }
        engine?.resume()
        return engine
    }

    /// Keeps `engine` for the next record of `T`, unless anything else refers to it.
    static func keep<T>(_ engine: inout RecordEncodingEngine, for type: T.Type) {
        engine.detachSpareValueEncoder()
        guard isKnownUniquelyReferenced(&engine) else { return }
        engine.clearForNextRecord()
        store.keep(engine, for: ObjectIdentifier(type))
    }
}

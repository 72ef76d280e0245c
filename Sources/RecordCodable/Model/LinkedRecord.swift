/// A model that is stored as its own record whenever another model holds it.
///
/// A plain nested value is stored inside its holder, as JSON bytes. A `LinkedRecord` is stored
/// apart, as a record of its own, and the holder keeps a ``RecordReference`` to it — the way
/// CloudKit relates records:
///
/// ```swift
/// struct Author: Codable, LinkedRecord {
///     var id: String
///     var name: String
/// }
///
/// struct Post: Codable {
///     var id: String
///     var title: String
///     var author: Author          // a reference to the author's record
///     var comments: [Comment]     // a list of references
/// }
///
/// let records = try RecordEncoder().encodeGraph(post)   // the post's record, then the author's, …
/// let post = try RecordDecoder().decode(Post.self, from: records[0], linkedRecords: records)
/// ```
///
/// A linked model needs an identity, which names its record: the value under the encoder's
/// ``RecordEncoder/identifierKey``, or else its `id` when it is `Identifiable`. It must be a struct
/// or class with keyed coding, as synthesized conformances are.
///
/// ``RecordEncoder/encodeGraph(_:)`` returns a model's record and the records of every model it
/// links to, to any depth, each once. ``RecordEncoder/encode(_:)`` writes the references alone.
/// ``RecordDecoder/decode(_:from:linkedRecords:)-(_,_,Sequence<Record>)`` rebuilds the whole model from its record and the
/// records it links to. See <doc:Relationships>.
public protocol LinkedRecord: Codable {}

/// Property wrappers that choose the action of a linked property's references.
///
/// A linked property's references have the action ``RecordReference/Action/none`` unless the
/// property is wrapped in one of these:
///
/// ```swift
/// struct Post: Codable, LinkedRecord {
///     var id: String
///     var title: String
/// }
///
/// struct Comment: Codable, LinkedRecord {
///     var id: String
///     var text: String
///     @Link.DeleteSelf var post: Post   // deleting the post deletes this comment
/// }
/// ```
///
/// The action belongs to the record that holds the reference: ``RecordReference/Action/deleteSelf``
/// deletes the holder when the linked record is deleted. The wrappers change nothing else: in JSON,
/// or for a value that is not linked, they encode and decode as the value they wrap.
public enum Link {
    /// The holder's record is deleted when the linked record is: ``RecordReference/Action/deleteSelf``.
    ///
    /// Use it in owned records, for the link to their owner. CloudKit allows at most 750 such
    /// references to one record.
    @propertyWrapper
    public struct DeleteSelf<Value: Codable>: Codable {
        /// The linked model, or the models, or `nil`.
        public var wrappedValue: Value

        /// Wraps a linked property.
        public init(wrappedValue: Value) {
            self.wrappedValue = wrappedValue
        }

        /// Encodes the wrapped value, with references of the action `deleteSelf`.
        public func encode(to encoder: any Encoder) throws {
            try LinkActionScope.encode(wrappedValue, to: encoder, action: .deleteSelf)
        }

        /// Decodes the wrapped value.
        public init(from decoder: any Decoder) throws {
            wrappedValue = try decoder.singleValueContainer().decode(Value.self)
        }
    }

    /// The server checks that the linked record exists when the holder is saved:
    /// ``RecordReference/Action/validate``.
    @propertyWrapper
    public struct Validate<Value: Codable>: Codable {
        /// The linked model, or the models, or `nil`.
        public var wrappedValue: Value

        /// Wraps a linked property.
        public init(wrappedValue: Value) {
            self.wrappedValue = wrappedValue
        }

        /// Encodes the wrapped value, with references of the action `validate`.
        public func encode(to encoder: any Encoder) throws {
            try LinkActionScope.encode(wrappedValue, to: encoder, action: .validate)
        }

        /// Decodes the wrapped value.
        public init(from decoder: any Decoder) throws {
            wrappedValue = try decoder.singleValueContainer().decode(Value.self)
        }
    }
}

extension Link.DeleteSelf: LinkWrapper {}
extension Link.Validate: LinkWrapper {}

/// Marks the ``Link`` wrappers, whose action applies only while a record's encoder encodes them.
protocol LinkWrapper {}

extension Link.DeleteSelf: Equatable where Value: Equatable {}
extension Link.DeleteSelf: Hashable where Value: Hashable {}
extension Link.DeleteSelf: Sendable where Value: Sendable {}
extension Link.Validate: Equatable where Value: Equatable {}
extension Link.Validate: Hashable where Value: Hashable {}
extension Link.Validate: Sendable where Value: Sendable {}

/// Encodes a wrapped value with the references it leads to taking `action`, when the encoder is a
/// record's; any other encoder sees the value alone.
enum LinkActionScope {
    static func encode<Value: Encodable>(_ value: Value, to encoder: any Encoder, action: RecordReference.Action)
        throws
    {
        guard let propertyEncoder = encoder as? any RecordPropertyEncoder else {
            var container = encoder.singleValueContainer()
            try container.encode(value)
            return
        }
        try propertyEncoder.encode(value, linkAction: action)
    }
}

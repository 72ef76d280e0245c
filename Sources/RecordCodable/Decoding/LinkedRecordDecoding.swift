import Foundation

extension RecordDecoder {
    /// Decodes a model from its record and the records of the models it links to.
    ///
    /// Each reference that a ``LinkedRecord`` property holds is looked up by name among
    /// `linkedRecords` — as `records/lookup` or `records/query` return them — and decoded as its
    /// own model, to any depth. A record that several references name is decoded once, and the
    /// value shared: a class is the same instance everywhere.
    ///
    /// ```swift
    /// let response = try JSONDecoder().decode(RecordsQueryResponse.self, from: body)
    /// let records = response.records.compactMap(\.record)
    /// let post = try RecordDecoder().decode(Post.self, from: records[0], linkedRecords: records)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The model's type.
    ///   - record: The model's own record.
    ///   - linkedRecords: The records its references may name. Others are ignored, and it may
    ///     hold `record` itself.
    /// - Returns: The model, with every linked model in place.
    /// - Throws: `DecodingError`, with the coding path of the reference: `valueNotFound` when a
    ///   non-optional property's record is not given (an optional one is `nil`); `typeMismatch`
    ///   when the record it names has another record type; `dataCorrupted` when links loop back to
    ///   a record being decoded, which `init(from:)` cannot build. And any error that decoding a
    ///   model throws.
    public func decode<T: Decodable>(_ type: T.Type, from record: Record, linkedRecords: some Sequence<Record>) throws
        -> T
    {
        try decode(type, from: record, in: GraphDecoding(records: LinkedRecordSet(linkedRecords)))
    }

    /// Decodes a model from its record and a set of records that many models link to.
    ///
    /// The same as ``decode(_:from:linkedRecords:)-(_,_,Sequence<Record>)``, except that the
    /// records are grouped by name once, when the set is made, rather than for every model: so a
    /// page of a thousand records, each decoded with the whole page as its linked records, costs a
    /// thousand decodings, not a million steps of grouping.
    ///
    /// ```swift
    /// let records = response.records.compactMap(\.record)
    /// let linked = LinkedRecordSet(records)
    /// let notes = try records.filter { $0.recordType == "Note" }.map {
    ///     try RecordDecoder().decode(Note.self, from: $0, linkedRecords: linked)
    /// }
    /// ```
    ///
    /// Each model is decoded on its own, as with the other method: a linked model that two models
    /// share is decoded for each of them, so that no two models share an instance of a class.
    public func decode<T: Decodable>(_ type: T.Type, from record: Record, linkedRecords: LinkedRecordSet) throws -> T {
        try decode(type, from: record, in: GraphDecoding(records: linkedRecords))
    }

    /// For a store that gathers the records its models link to once for many models: decodes a
    /// model from its record and `linkedRecords`, of which a record equal to the model's own is
    /// not one. A link back to the model then reads as a record not given, as it does when the
    /// records were gathered for that model alone, without its own.
    package func decode<T: Decodable>(
        _ type: T.Type, from record: Record, linkedRecordsExceptItsOwn linkedRecords: LinkedRecordSet
    ) throws -> T {
        try decode(type, from: record, in: GraphDecoding(records: linkedRecords, excluding: record))
    }

    /// For a store that gathers the records its models link to only for models that read them:
    /// the model of `record`, decoded from it alone, or `nil` when the model reads a linked
    /// record (a ``LinkedRecord`` property, or an optional one, whose field holds a reference).
    /// Then it must be decoded again, with the records it links to.
    ///
    /// Once a model of `type` has read a linked record, the type is noted, and `nil` comes at once
    /// for the next record of it (see ``readsLinkedRecords(_:)``): a type that reads links most
    /// often reads them from every record.
    ///
    /// - Throws: The `DecodingError` of a model that does not decode and read no linked record:
    ///   the error it has with its linked records too, since it decodes the same without them.
    package func decodeUnlessItReadsALink<T: Decodable>(_ type: T.Type, from record: Record) throws -> T? {
        let graph = GraphDecoding(records: LinkedRecordSet.empty)
        do {
            let model = try decode(type, from: record, in: graph)
            if !graph.readsALinkedRecord { return model }
        } catch {
            // A model that read a linked record may fail for want of it: decoded again with it.
            guard graph.readsALinkedRecord else { throw error }
        }
        LinkReadingTypes.note(type)
        return nil
    }

    /// Whether a model of `type` has read a linked record, decoded by
    /// ``decodeUnlessItReadsALink(_:from:)``: then the next model of it likely reads one too.
    package static func readsLinkedRecords<T>(_ type: T.Type) -> Bool {
        LinkReadingTypes.contains(type)
    }

    /// Decodes a model from its record and the linked records that `graph` holds, which is left
    /// with what the decoding found (see ``GraphDecoding/unreadLinks``).
    func decode<T: Decodable>(_ type: T.Type, from record: Record, in graph: GraphDecoding) throws -> T {
        try checkRecordType(of: record, against: type)
        graph.begin(GraphDecoding.Link(of: record))
        let engine = RecordDecodingEngine(record: record, options: self, graph: graph)
        defer { engine.finish() }
        // The type asked for, which may be a subclass of T.
        return try type.init(from: engine)
    }
}

/// Records that models link to, grouped by name once, for decoding many models that link into
/// them with ``RecordDecoder/decode(_:from:linkedRecords:)-(_,_,LinkedRecordSet)``.
///
/// A set is a value: make it once, and share it between decoders and tasks.
public struct LinkedRecordSet: Sendable {
    /// The records of each name, in the order given.
    let byName: [String: [Record]]

    /// A set of `records`. Of records with the same name and type, a model reads the last.
    public init(_ records: some Sequence<Record>) {
        byName = Dictionary(grouping: records, by: \.recordName)
    }

    /// A set of records already grouped by name, each group in the order given: for a store that
    /// gathers them by name.
    package init(grouped byName: [String: [Record]]) {
        self.byName = byName
    }

    /// How many records the set holds.
    package var count: Int { byName.values.reduce(0) { $0 + $1.count } }

    /// A set of no records, made once.
    static let empty = LinkedRecordSet([])
}

/// The model types of which a model has read a linked record, as
/// ``RecordDecoder/decodeUnlessItReadsALink(_:from:)`` found: their records are decoded with
/// the records they link to from the start. A type is noted once and never forgotten.
enum LinkReadingTypes {
    private static let types = LockedDictionary<ObjectIdentifier, Bool>()

    static func note<T>(_ type: T.Type) { types[ObjectIdentifier(type)] = true }
    static func contains<T>(_ type: T.Type) -> Bool { types[ObjectIdentifier(type)] ?? false }
}

/// The records a graph is decoded from, the models already decoded from them, and the records
/// being decoded now, whose links back would be cycles.
///
/// A reference names a record but not its type, and a store may keep records of two types under
/// one name: so the records are kept by name, and the one of the type the property expects is the
/// one read. Models are kept by type and name.
final class GraphDecoding {
    /// A linked record, as a model of one type reads it.
    struct Link: Hashable {
        var recordType: String
        var name: String
    }

    private let records: LinkedRecordSet
    /// A record of `records` that the graph leaves out: the model's own, for a store that gathers
    /// one set of records for many models (see `RecordDecoder.decode(_:from:linkedRecordsExceptItsOwn:)`).
    private let excluded: Record?
    /// For a store that finds records by name when a model reads them, rather than gathering
    /// them all first: the records of a name, beside those of `records`. Of two records of one
    /// name and type, the one in `records` is read.
    private let lookup: ((_ name: String) -> [Record])?
    /// The records of each name looked up so far, with those of `records`.
    private var lookedUp: [String: [Record]] = [:]
    private var decoded: [Link: Any] = [:]
    private var inProgress: Set<Link> = []
    /// For each record decoded, by name, the fields whose links its optional linked properties
    /// read as `nil`, as the records they name were not given. An update made from such a model
    /// cannot tell an untouched link from a removed one (see `RecordUpdate`).
    var unreadLinks: [String: Set<String>] = [:]

    init(
        records: LinkedRecordSet, excluding excluded: Record? = nil,
        lookingUp lookup: ((_ name: String) -> [Record])? = nil
    ) {
        self.records = records
        self.excluded = excluded
        self.lookup = lookup
    }

    /// Whether a model decoded in this graph looked a linked record up, found or not: what
    /// `RecordDecoder.decodeUnlessItReadsALink(_:from:)` asks. Set by
    /// ``record(named:ofType:)``, through which every linked record is looked up.
    private(set) var readsALinkedRecord = false

    /// The record named `name` that a model of `recordType` reads: the last one given of that
    /// type, else of none (the server leaves the type out of some answers). Else the last one
    /// given of another type, which the model cannot read; `nil` when none has the name.
    func record(named name: String, ofType recordType: String) -> Record? {
        readsALinkedRecord = true
        var named = records(named: name)
        if let excluded, excluded.recordName == name { named.removeAll { $0 == excluded } }
        return named.last { $0.recordType == recordType } ?? named.last { $0.recordType.isEmpty } ?? named.last
    }

    /// The records named `name`: those given, and those the lookup finds of other types.
    private func records(named name: String) -> [Record] {
        let given = records.byName[name] ?? []
        guard let lookup else { return given }
        if let known = lookedUp[name] { return known }
        var named = given
        for record in lookup(name) where !given.contains(where: { $0.recordType == record.recordType }) {
            named.append(record)
        }
        lookedUp[name] = named
        return named
    }

    /// Whether the graph has a record named `name` that a model of `recordType` reads.
    func hasRecord(named name: String, ofType recordType: String) -> Bool {
        record(named: name, ofType: recordType).map { Self.reads($0, asType: recordType) } ?? false
    }

    /// Whether a model stored in records of `recordType` reads `record`.
    static func reads(_ record: Record, asType recordType: String) -> Bool {
        record.recordType == recordType || record.recordType.isEmpty
    }

    func decodedValue(of link: Link) -> Any? { decoded[link] }
    func isDecoding(_ link: Link) -> Bool { inProgress.contains(link) }
    func begin(_ link: Link) { inProgress.insert(link) }

    func end(_ link: Link, decoded value: Any) {
        inProgress.remove(link)
        decoded[link] = value
    }

    func abandon(_ link: Link) { inProgress.remove(link) }

    /// How many linked records may be decoded inside one another. Each level is a model's own
    /// `init(from:)` calling into the decoder, which takes stack: about 1.5 KB a level in an
    /// optimised build, and ten times that in a debug build with AddressSanitizer, where about 40
    /// levels fill a secondary thread's 512 KB stack. Deeper chains are an error, not a crash.
    static let maximumDepth = 24

    /// How many linked records are being decoded inside one another now.
    var depth: Int { inProgress.count }
}

extension RecordDecodingEngine {
    /// The linked model that `reference` names, decoded from its record in the graph.
    func decodeLinked<T: Decodable>(_ type: T.Type, from reference: RecordReference, at path: CodingPath) throws -> T {
        let name = reference.recordName
        let expectedType = ModelTypes.info(of: T.self).recordType
        guard let graph, let record = graph.record(named: name, ofType: expectedType) else {
            throw DecodingError.valueNotFound(
                type, at: path,
                "The reference names the record '\(name)', which was not given: pass the records that \(type) "
                    + "links to as linkedRecords, or decode the property as a RecordReference.")
        }
        guard GraphDecoding.reads(record, asType: expectedType) else {
            throw DecodingError.typeMismatch(
                type,
                DecodingError.Context(
                    codingPath: path.keys,
                    debugDescription: "The reference names the record '\(name)' of type '\(record.recordType)', "
                        + "but \(type) is stored in records of type '\(expectedType)'."))
        }
        let link = GraphDecoding.Link(recordType: expectedType, name: name)
        if let value = graph.decodedValue(of: link) as? T { return value }
        guard !graph.isDecoding(link) else {
            throw DecodingError.corrupted(
                "The reference names the record '\(name)', which is being decoded: the links form a cycle, "
                    + "which init(from:) cannot build. Decode one side of the cycle as a RecordReference.",
                at: path)
        }
        guard graph.depth <= GraphDecoding.maximumDepth else {
            throw DecodingError.corrupted(
                "The reference names the record '\(name)', more than \(GraphDecoding.maximumDepth) links deep. "
                    + "Decode deeper links as RecordReference, and decode their records on their own.",
                at: path)
        }
        graph.begin(link)
        let engine = RecordDecodingEngine(record: record, options: options, graph: graph)
        defer { engine.finish() }
        do {
            let value = try type.init(from: engine)
            graph.end(link, decoded: value)
            return value
        } catch let error as DecodingError {
            graph.abandon(link)
            throw error.prefixingPath(with: path.keys)
        } catch {
            graph.abandon(link)
            throw error
        }
    }

    /// Whether `value` names a linked record of `type` (a linked model, or an optional one) that
    /// is not in the graph, so that an optional linked property reads it as `nil`. A record of
    /// another type under the name is not it: a store may keep records of two types under one
    /// name, and one of them may be gone.
    func isMissingLinkedRecord<T>(_ value: RecordValue, of type: T.Type) -> Bool {
        guard case .reference(let reference) = value else { return false }
        guard let graph else { return true }
        return !graph.hasRecord(named: reference.recordName, ofType: ModelTypes.info(of: type).recordType)
    }

    /// Notes that the optional linked property at `path` read its field, a reference to a record
    /// that was not given, as `nil`: see ``GraphDecoding/unreadLinks``.
    func noteUnreadLink(at path: CodingPath) {
        guard let graph, let key = path.keys.first else { return }
        graph.unreadLinks[record.recordName, default: []].insert(fieldName(forKey: key.stringValue))
    }
}

enum LinkedRecordDecoding {
    /// Whether `type` is an optional linked model.
    static func isOptionalLinked<T>(_ type: T.Type) -> Bool {
        guard let optional = type as? any OptionalValue.Type else { return false }
        return optional.wrappedType is any LinkedRecord.Type
    }

    /// `nil`, as the optional type `T`.
    ///
    /// Kept apart from the common route, because a function that makes an optional of `T` asks the
    /// runtime for that optional's metadata on every call.
    @inline(never)
    static func none<T>(of type: T.Type) throws -> T {
        guard let optional = T.self as? any OptionalValue.Type, let none = optional.nilValue as Any as? T else {
            throw NotTheSameType()
        }
        return none
    }
}

extension GraphDecoding.Link {
    /// The link to `record`: its type and name.
    init(of record: Record) {
        self.init(recordType: record.recordType, name: record.recordName)
    }
}

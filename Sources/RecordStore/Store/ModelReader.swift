import Foundation
import RecordCodable

/// Decodes models from stored records, with the records of the models they link to.
///
/// A `LinkedRecord` property is a reference in its holder's record, which names the linked
/// record but not its type; the reader follows the references from record to record, finds each
/// one by name in its zone, and hands them all to the decoder. Records found once are kept for
/// the next model, so that a thousand notes of one folder read the folder once; and the models'
/// own records are not decoded again when models link to one another, as in a chain.
struct ModelReader {
    let decoder: RecordDecoder
    /// The visible records named `name` in `zone`, of any type; of those whose keys `decoded`
    /// holds, the record it holds, rather than one decoded again.
    let recordsNamed: (_ name: String, _ zone: String, _ decoded: [RecordKey: Record]) throws -> [Record]
    private var found: [NameInZone: [Record]] = [:]
    /// The records of the models being read, by key: decoded once, as models, and found again as
    /// the records that other models link to.
    private var roots: [RecordKey: Record] = [:]

    init(
        decoder: RecordDecoder,
        recordsNamed: @escaping (_ name: String, _ zone: String, _ decoded: [RecordKey: Record]) throws -> [Record]
    ) {
        self.decoder = decoder
        self.recordsNamed = recordsNamed
    }

    /// Notes the records of `roots`, the models' own, read as the reader reads a record it
    /// finds by name: the local versions of their keys.
    private mutating func know(_ roots: [(record: Record, zone: String)]) {
        for root in roots { self.roots[Self.key(of: root)] = root.record }
    }

    /// The records that each of `roots`, each with its zone, links to, in the order of `roots`.
    ///
    /// The roots of one zone share one set of records when one set serves them all, gathered in
    /// one walk; else each root gets its own.
    mutating func linkedRecords(ofAll roots: [(record: Record, zone: String)]) throws -> [LinkedRecords] {
        var linked = [LinkedRecords](repeating: .own([]), count: roots.count)
        // When no root holds a reference, none links to a record: nothing to walk, and no root
        // to find again (a query's results, most often).
        guard roots.contains(where: { $0.record.holdsReferences }) else { return linked }
        know(roots)
        let placesByZone = Dictionary(grouping: roots.indices) { roots[$0].zone }
        for (_, places) in placesByZone.sorted(by: { $0.key < $1.key }) {
            if let shared = try sharedLinkedRecords(of: places.map { roots[$0] }) {
                for place in places { linked[place] = shared }
            } else {
                for place in places {
                    linked[place] = .own(try linkedRecords(of: roots[place].record, zone: roots[place].zone))
                }
            }
        }
        return linked
    }

    /// The records that `roots` link to, directly or through others, gathered in one walk for
    /// them all, so that records that many roots reach are gathered once (a chain of records
    /// linked one to the next would otherwise be walked again from each of them).
    ///
    /// One set serves every root as its own would, once the root's own record is left out of it
    /// (see `RecordDecoder.decode(_:from:linkedRecordsExceptItsOwn:)`): each name a root's links
    /// reach brings every record of that name in the zone looked in, to either. `nil` when the
    /// walk looks one name up in two zones, which links across zones do: a model finds a linked
    /// record by name alone, so from a set shared with other models it might read another zone's
    /// record, or read one where the zone its link names has none. (Records gathered for one
    /// model alone have that limit too, but only where its own links reach one name in two
    /// zones.) When the roots link to no record, each has none of its own, and is decoded without
    /// a graph of linked records.
    private mutating func sharedLinkedRecords(of roots: [(record: Record, zone: String)]) throws -> LinkedRecords? {
        let walk = try records(reachedFrom: roots)
        if walk.byName.isEmpty { return .own([]) }
        return walk.reachesANameInTwoZones ? nil : .shared(LinkedRecordSet(grouped: walk.byName))
    }

    /// The records that `root`, a record of `zone`, links to, directly or through others.
    mutating func linkedRecords(of root: Record, zone: String) throws -> [Record] {
        know([(root, zone)])
        return try records(reachedFrom: [(root, zone)]).byName.values.flatMap { $0 }.filter { $0 != root }
    }

    /// The records that `roots` link to, directly or through others, by name: each reference
    /// names a record in its own zone, or else in its holder's, and brings every record of that
    /// name there, of any type, in the order found. And whether the walk looked one name up in
    /// two zones (then the records of that name are those of both zones).
    ///
    /// Grouped by name as they are found, the records make a ``LinkedRecordSet`` without being
    /// grouped again: a chain of 2,000 records would otherwise be copied into a list, and the
    /// list into 2,000 groups of one.
    private mutating func records(
        reachedFrom roots: [(record: Record, zone: String)]
    ) throws -> (byName: [String: [Record]], reachesANameInTwoZones: Bool) {
        var byName: [String: [Record]] = [:]
        var zonesByName: [String: String] = [:]
        var reachesANameInTwoZones = false
        var visited: Set<NameInZone> = []
        var waiting = roots.flatMap { root in root.record.references.map { ($0, root.zone) } }
        while let (reference, holderZone) = waiting.popLast() {
            let target = NameInZone(zone: reference.zoneID?.zoneName ?? holderZone, name: reference.recordName)
            guard visited.insert(target).inserted else { continue }
            if let zone = zonesByName.updateValue(target.zone, forKey: target.name), zone != target.zone {
                reachesANameInTwoZones = true
            }
            let named = try records(named: target)
            if named.isEmpty { continue }
            byName[target.name, default: []].append(contentsOf: named)
            for record in named { waiting += record.references.map { ($0, target.zone) } }
        }
        return (byName, reachesANameInTwoZones)
    }

    /// The visible records named as `target` says, looked up once per reader.
    private mutating func records(named target: NameInZone) throws -> [Record] {
        if let known = found[target] { return known }
        let records = try recordsNamed(target.name, target.zone, roots)
        found[target] = records
        return records
    }

    /// The models of `roots`, each a record and its zone, decoded by `decoder`, each with the
    /// records it links to.
    ///
    /// - Throws: The `DecodingError` of the first record that does not decode, its message
    ///   naming the record.
    static func models<Model: Decodable>(
        _ type: Model.Type, from roots: [(record: Record, zone: String)], linkedRecords: [LinkedRecords],
        decoder: RecordDecoder
    ) throws -> [Model] {
        // A loop rather than a map of results: the store's generic code is not specialised for
        // the app's model, and each wrapped result would cost the model another copy.
        var models: [Model] = []
        models.reserveCapacity(roots.count)
        for (root, linked) in zip(roots, linkedRecords) {
            do {
                models.append(try model(type, from: root.record, linkedRecords: linked, decoder: decoder))
            } catch let error as DecodingError {
                throw UnreadableModel(key: key(of: root), error: error).errorNamingTheRecord
            }
        }
        return models
    }

    /// The model of each of `roots`, or the record that does not decode and why.
    static func results<Model: Decodable>(
        _ type: Model.Type, from roots: [(record: Record, zone: String)], linkedRecords: [LinkedRecords],
        decoder: RecordDecoder
    ) throws -> [ModelResult<Model>] {
        try zip(roots, linkedRecords).map { root, linked in
            do {
                return .success(try model(type, from: root.record, linkedRecords: linked, decoder: decoder))
            } catch let error as DecodingError {
                return .unreadable(UnreadableModel(key: key(of: root), error: error))
            }
        }
    }

    /// The models of `count` records, each decoded from its record alone, which `root` gives
    /// with its key when its model is decoded (so that a record read from its JSON then is
    /// dropped once its model is built); `nil` as soon as one of them reads a linked record (see
    /// `RecordDecoder.decodeUnlessItReadsALink(_:from:)`), to be read again with the records
    /// they link to.
    ///
    /// - Throws: The `DecodingError` of the first record that does not decode, its message
    ///   naming the record; and what `root` throws.
    static func models<Model: Decodable>(
        _ type: Model.Type, alone count: Int, decoder: RecordDecoder,
        root: (_ place: Int) throws -> (key: RecordKey, record: Record)
    ) throws -> [Model]? {
        // A loop of its own, as in `models(_:from:linkedRecords:decoder:)`: not a map of
        // `results`, which would wrap each model and copy it again.
        var models: [Model] = []
        models.reserveCapacity(count)
        for place in 0..<count {
            let (key, record) = try root(place)
            do {
                guard let model = try decoder.decodeUnlessItReadsALink(type, from: record) else { return nil }
                models.append(model)
            } catch let error as DecodingError {
                throw UnreadableModel(key: key, error: error).errorNamingTheRecord
            }
        }
        return models
    }

    /// The model of each of `count` records, or the record that does not decode and why, as
    /// ``models(_:alone:decoder:root:)`` reads them; `nil` as soon as one reads a linked record.
    static func results<Model: Decodable>(
        _ type: Model.Type, alone count: Int, decoder: RecordDecoder,
        root: (_ place: Int) throws -> (key: RecordKey, record: Record)
    ) throws -> [ModelResult<Model>]? {
        var results: [ModelResult<Model>] = []
        results.reserveCapacity(count)
        for place in 0..<count {
            let (key, record) = try root(place)
            do {
                guard let model = try decoder.decodeUnlessItReadsALink(type, from: record) else { return nil }
                results.append(.success(model))
            } catch let error as DecodingError {
                results.append(.unreadable(UnreadableModel(key: key, error: error)))
            }
        }
        return results
    }

    /// The model of `record`, decoded with the records it links to.
    private static func model<Model: Decodable>(
        _ type: Model.Type, from record: Record, linkedRecords: LinkedRecords, decoder: RecordDecoder
    ) throws -> Model {
        switch linkedRecords {
        case .shared(let set):
            return try decoder.decode(type, from: record, linkedRecordsExceptItsOwn: set)
        case .own(let records) where records.isEmpty:
            // No linked record to look up: the decoder needs no graph, which costs a model a few
            // hundred nanoseconds.
            return try decoder.decode(type, from: record)
        case .own(let records):
            return try decoder.decode(type, from: record, linkedRecords: records)
        }
    }

    /// The key of `root`, a record and its zone.
    static func key(of root: (record: Record, zone: String)) -> RecordKey {
        RecordKey(zone: root.zone, recordType: root.record.recordType, recordName: root.record.recordName)
    }

    /// The records that one model links to, as ``linkedRecords(ofAll:)`` gathered them.
    enum LinkedRecords {
        /// A set that models of one zone share, of which the model's own record is to be left out.
        case shared(LinkedRecordSet)
        /// The model's own records, without its own record.
        case own([Record])
    }
}

extension Record {
    /// Whether the record's fields hold a reference, alone or in a list.
    var holdsReferences: Bool { !references.isEmpty }

    /// The references the record's fields hold, alone or in lists.
    var references: [RecordReference] {
        var references: [RecordReference] = []
        forEachField { _, value in
            switch value {
            case .reference(let reference):
                references.append(reference)
            case .list(let elements):
                for case .reference(let reference) in elements { references.append(reference) }
            default:
                break
            }
        }
        return references
    }
}

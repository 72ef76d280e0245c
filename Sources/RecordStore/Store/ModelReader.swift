import Foundation
import RecordCodable

/// Decodes models from stored records, with the records of the models they link to.
///
/// A `LinkedRecord` property is a reference in its holder's record, which names the linked
/// record but not its type; the reader follows the references from record to record, finds each
/// one by name in its zone, and hands them all to the decoder. Records found once are kept for
/// the next model, so that a thousand notes of one folder read the folder once.
struct ModelReader {
    let decoder: RecordDecoder
    /// The visible records named `name` in `zone`, of any type.
    let recordsNamed: (_ name: String, _ zone: String) throws -> [Record]
    private var found: [NameInZone: [Record]] = [:]

    init(decoder: RecordDecoder, recordsNamed: @escaping (_ name: String, _ zone: String) throws -> [Record]) {
        self.decoder = decoder
        self.recordsNamed = recordsNamed
    }

    /// The model of `record`, a record of `zone`, with every model it links to.
    mutating func model<Model: Decodable>(_ type: Model.Type, from record: Record, zone: String) throws -> Model {
        try decoder.decode(type, from: record, linkedRecords: linkedRecords(of: record, zone: zone))
    }

    /// The records that `root`, a record of `zone`, links to, directly or through others.
    mutating func linkedRecords(of root: Record, zone: String) throws -> [Record] {
        var linked: [Record] = []
        // The root's own name is looked up too: a record of another type may share it.
        var visited: Set<NameInZone> = []
        var waiting = root.references.map { ($0, zone) }
        while let (reference, holderZone) = waiting.popLast() {
            let target = NameInZone(zone: reference.zoneID?.zoneName ?? holderZone, name: reference.recordName)
            guard visited.insert(target).inserted else { continue }
            let records: [Record]
            if let known = found[target] {
                records = known
            } else {
                records = try recordsNamed(target.name, target.zone)
                found[target] = records
            }
            for record in records where record != root {
                linked.append(record)
                waiting += record.references.map { ($0, target.zone) }
            }
        }
        return linked
    }
}

extension Record {
    /// The references the record's fields hold, alone or in lists.
    var references: [RecordReference] {
        var references: [RecordReference] = []
        for value in fields.values {
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

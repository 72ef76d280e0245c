import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Random sequences of operations, run against a store and against a dictionary that does the
/// same: after every step, the store must hold what the dictionary holds.
@Suite("Stateful properties")
struct PropertyTests {
    struct Abandon: Error {}

    /// A store in memory that can be closed and opened again, with failing writes on demand.
    final class Subject {
        let faults = StoreFaults()
        private let directory: MemoryDirectory
        var store: RecordStore

        static func options(_ faults: StoreFaults) -> RecordStore.Options {
            var options = RecordStore.Options()
            options.faults = faults
            // Small, so that the runs compact often.
            options.compactionThreshold = 2048
            return options
        }

        init() throws {
            directory = MemoryDirectory(faults: faults)
            store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options(faults))
        }

        func reopen() throws {
            store.close()
            store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options(faults))
        }

        /// Cuts the power: whatever was not flushed is gone, and the store is opened again.
        func cutPower() throws {
            directory.loseUnflushedWrites()
            store = try RecordStore(storeDirectory: directory, url: nil, options: Self.options(faults))
        }
    }

    /// The server's answer to a request it carried out in full.
    static func successfulResponse(to request: RecordsModifyRequest, tag: String) -> RecordsModifyResponse {
        RecordsModifyResponse(
            records: request.operations.map { operation in
                var record = operation.record
                record.metadata = RecordMetadata(changeTag: tag, deleted: operation.operationType.isDeleting)
                return .success(record)
            })
    }

    @Test(
        "Saves, deletes, batches, abandoned batches, failed writes, compactions, reopenings, power cuts, requests, responses",
        arguments: 0..<10)
    func againstADictionary(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let subject = try Subject()
        var model: [String: String] = [:]
        var requests: [RecordsModifyRequest] = []
        let names = (0..<10).map { "N\($0)" }
        for step in 0..<120 {
            let name = names.randomElement(using: &random) ?? "N0"
            let title = String(repeating: "t", count: Int.random(in: 0..<200, using: &random))
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40:
                try subject.store.save(noteRecord(name, title: title))
                model[name] = title
            case 40..<55:
                try subject.store.deleteRecord(for: noteKey(name))
                model[name] = nil
            case 55..<70:
                var staged = model
                let abandon = Bool.random(using: &random)
                do {
                    try subject.store.write { batch in
                        for _ in 0..<Int.random(in: 1...5, using: &random) {
                            let name = names.randomElement(using: &random) ?? "N0"
                            if Bool.random(using: &random) {
                                try batch.save(noteRecord(name, title: "\(step)"))
                                staged[name] = "\(step)"
                            } else {
                                try batch.deleteRecord(for: noteKey(name))
                                staged[name] = nil
                            }
                        }
                        if abandon { throw Abandon() }
                    }
                    model = staged
                } catch is Abandon {}
            case 70..<80:
                subject.faults.failWrites(with: ENOSPC, afterBytes: Int.random(in: 0..<300, using: &random))
                do {
                    try subject.store.save(noteRecord(name, title: title))
                    model[name] = title
                } catch let error as RecordStoreError {
                    guard case .fileSystem(_, _, ENOSPC) = error else { throw error }
                }
                subject.faults.failWrites(with: nil)
            case 80..<83:
                try subject.reopen()
            case 83..<86:
                // Every write that returned was flushed: a power cut loses none of them.
                try subject.cutPower()
            case 86..<90:
                try subject.store.compact()
            case 90..<95:
                requests = try subject.store.modifyRequests()
            default:
                // The server saves or deletes all it was sent: what the app reads is unchanged.
                for request in requests {
                    try subject.store.apply(Self.successfulResponse(to: request, tag: "t\(step)"), for: request)
                }
                requests = []
            }
            #expect(try subject.store.titles() == model, "seed \(seed), step \(step)")
            #expect(try subject.store.records(ofType: "Note").count == model.count, "seed \(seed), step \(step)")
        }
        try subject.reopen()
        #expect(try subject.store.titles() == model, "seed \(seed), after the last reopening")
    }
}

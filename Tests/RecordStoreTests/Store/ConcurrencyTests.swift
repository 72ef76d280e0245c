import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// One store shared by many tasks at once. Run under the thread sanitizer (CI does), this shows
/// that the store shares no state between threads without its lock.
@Suite("Concurrency")
struct ConcurrencyTests {
    func hammer(_ store: RecordStore, tasks: Int, rounds: Int) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    let settings = store.keyValues(namespace: "task\(task)")
                    for round in 0..<rounds {
                        let id = "t\(task)-\(round)"
                        try store.park(
                            FiledNote(id: id, title: "\(round)", folder: Folder(id: "shared", name: "Shared")))
                        #expect(try store.retrieve(FiledNote.self, identifier: id)?.title == "\(round)")
                        try settings.set(round, forKey: "round")
                        if round % 3 == 0 { try store.delete(FiledNote.self, identifier: id) }
                        _ = try store.records(in: .pending)
                        if round % 5 == 0 { _ = try store.modifyRequests() }
                    }
                    #expect(try settings.value(forKey: "round", default: -1) == rounds - 1)
                }
            }
            try await group.waitForAll()
        }
        let expected = (0..<tasks).flatMap { task in
            (0..<rounds).filter { $0 % 3 != 0 }.map { "t\(task)-\($0)" }
        }
        let found = try store.retrieveAll(FiledNote.self).map(\.id).sorted()
        #expect(
            found == expected.sorted(),
            "missing \(Set(expected).subtracting(found).sorted()), extra \(Set(found).subtracting(expected).sorted())")
    }

    @Test("A model retrieved while commits move its link is a snapshot: never a link to a record deleted meanwhile")
    func retrieveIsASnapshot() async throws {
        let store = try RecordStore.inMemory()
        try store.park(FiledNote(id: "n", title: "0", folder: Folder(id: "f0", name: "0")))
        // Each commit moves the note to a new folder and deletes the old one.
        let writer = Task.detached {
            for round in 1...300 {
                try store.write { batch in
                    try batch.park(
                        FiledNote(id: "n", title: "\(round)", folder: Folder(id: "f\(round)", name: "\(round)")))
                    try batch.delete(Folder.self, identifier: "f\(round - 1)")
                }
            }
        }
        let reader = Task.detached {
            var reads = 0
            while reads < 2_000 {
                reads += 1
                let note = try #require(try store.retrieve(FiledNote.self, identifier: "n"))
                #expect(note.folder.name == note.title)
                if reads % 10 == 0 { _ = try store.retrieveAll(FiledNote.self) }
            }
        }
        try await writer.value
        try await reader.value
    }

    @Test("Many tasks write and read one store in memory")
    func inMemory() async throws {
        var options = RecordStore.Options()
        options.compactionThreshold = 8192
        try await hammer(try RecordStore.inMemory(options: options), tasks: 8, rounds: 40)
    }

    @Test("Many tasks write and read one store on disk")
    func onDisk() async throws {
        try await withStoreDirectoryAsync { directory in
            try await hammer(try RecordStore(directory: directory), tasks: 4, rounds: 8)
            let reopened = try RecordStore(directory: directory)
            #expect(try reopened.retrieveAll(FiledNote.self).count == 4 * 5)
        }
    }
}

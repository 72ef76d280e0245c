import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

@Suite("Records")
struct RecordsTests {
    @Test("A saved record reads back equal, after the store is reopened too")
    func saveAndReopen() throws {
        try withStoreDirectory { directory in
            var record = noteRecord("N1", title: "Groceries")
            record["count"] = .int64(3)
            record["when"] = .date(Date(timeIntervalSince1970: 1_700_000_000.123_456_7))
            record["file"] = .asset(RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/photo.jpg")))
            record["files"] = .list([
                .asset(RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/a.jpg"))),
                .asset(RecordAsset(fileChecksum: "abc", size: 3)),
                // Relative to a base, as a path without a leading "/" is to the working directory.
                .asset(RecordAsset(fileURL: URL(fileURLWithPath: "b.jpg", relativeTo: URL(fileURLWithPath: "/tmp/")))),
                .asset(RecordAsset(fileURL: URL(fileURLWithPath: "relative/c.jpg"))),
            ])
            record.encryptedFields = ["title"]
            do {
                let store = try RecordStore(directory: directory)
                try store.save(record)
                #expect(try store.record(for: noteKey("N1")) == record)
            }
            let reopened = try RecordStore(directory: directory)
            #expect(try reopened.record(for: noteKey("N1")) == record)
            #expect(try reopened.count == 1)
            #expect(reopened.openReport.discardedTail == nil)
        }
    }

    @Test("Records are keyed by zone, record type and record name")
    func keys() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("A", title: "default zone"))
        try store.save(noteRecord("A", title: "work zone"), inZone: "Work")
        try store.save(noteRecord("A", title: "zone from metadata", zone: "Home"))
        try store.save(Record(recordType: "Folder", recordName: "A", fields: ["title": .string("a folder")]))
        #expect(try store.record(for: noteKey("A"))?["title"] == .string("default zone"))
        #expect(try store.record(for: noteKey("A", zone: "Work"))?["title"] == .string("work zone"))
        #expect(try store.record(for: noteKey("A", zone: "Home"))?["title"] == .string("zone from metadata"))
        #expect(
            try store.record(for: RecordKey(recordType: "Folder", recordName: "A"))?["title"] == .string("a folder"))
        #expect(try store.records(ofType: "Note").count == 3)
        #expect(try store.records(ofType: "Note", inZone: "Work").map(\.recordName) == ["A"])
        #expect(try store.record(for: noteKey("B")) == nil)
    }

    @Test("The record's JSON is CloudKit's, as the store keeps it")
    func recordJSON() throws {
        let store = try RecordStore.inMemory()
        let record = noteRecord("N1", title: "Hello")
        try store.save(record)
        let json = try #require(try store.recordJSON(for: noteKey("N1")))
        #expect(try JSONDecoder().decode(Record.self, from: json) == record)
        #expect(try store.recordJSON(for: noteKey("missing")) == nil)
    }

    @Test("A record without a name cannot be stored")
    func unnamedRecord() throws {
        let store = try RecordStore.inMemory()
        expectStoreError(.unnamedRecord(recordType: "Note")) {
            try store.save(Record(recordType: "Note", recordName: ""))
        }
    }

    @Test("A value CloudKit's JSON cannot carry is an EncodingError at its field, and nothing is written")
    func unencodableValue() throws {
        let store = try RecordStore.inMemory()
        var record = noteRecord("N1")
        record["score"] = .double(.nan)
        let error = #expect(throws: EncodingError.self) {
            try store.write { batch in
                try batch.save(noteRecord("N0"))
                try batch.save(record)
            }
        }
        if case .invalidValue(_, let context) = error {
            #expect(context.codingPath.map(\.stringValue) == ["fields", "score", "value"])
        }
        #expect(try store.count == 0)
    }

    @Test("A batch commits all its changes, or none when its closure throws")
    func batches() throws {
        struct Abandon: Error {}
        let store = try RecordStore.inMemory()
        try store.write { batch in
            try batch.save(noteRecord("A"))
            try batch.save(noteRecord("B"))
            #expect(try batch.record(for: noteKey("A")) != nil)
            #expect(try store.record(for: noteKey("A")) == nil)
        }
        #expect(try store.titles() == ["A": "Title", "B": "Title"])
        #expect(throws: Abandon.self) {
            try store.write { batch in
                try batch.save(noteRecord("C"))
                try batch.deleteRecord(for: noteKey("A"))
                throw Abandon()
            }
        }
        #expect(try store.titles() == ["A": "Title", "B": "Title"])
        expectStoreError(.nestedWrite) {
            try store.write { _ in try store.save(noteRecord("D")) }
        }
    }

    @Test("A batch call that throws stages nothing: the closure may catch it and commit the rest")
    func batchCallThatThrows() throws {
        struct Scale: Codable, Hashable, LinkedRecord {
            var id: String
            var weight: Double
        }
        struct Weighed: Codable, Hashable {
            var id: String
            var title: String
            var scale: Scale
        }
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("kept", title: "before"))
        var failures = 0
        try store.write { batch in
            try batch.save(noteRecord("first"))
            // The model is saved before its linked model, which JSON cannot carry.
            do {
                try batch.park(Weighed(id: "W", title: "t", scale: Scale(id: "S", weight: .nan)))
            } catch { failures += 1 }
            // A record changed before, and changed again by the call that throws, is as before it.
            do {
                try batch.save(contentsOf: [
                    noteRecord("first", title: "again"), noteRecord("kept", title: "again"), noteRecord("new"),
                    Record(recordType: "Note", recordName: ""),
                ])
            } catch { failures += 1 }
            do {
                try batch.parkAll([
                    Weighed(id: "W1", title: "t", scale: Scale(id: "S1", weight: 1)),
                    Weighed(id: "W2", title: "t", scale: Scale(id: "S2", weight: .infinity)),
                ])
            } catch { failures += 1 }
            #expect(try batch.record(for: noteKey("first"))?["title"] == .string("Title"))
            try batch.save(noteRecord("last"))
            // The linked record of the first call that threw, staged again: read through its link.
            try batch.park(Weighed(id: "W3", title: "t", scale: Scale(id: "S", weight: 2)))
            #expect(try batch.retrieve(Weighed.self, identifier: "W3")?.scale.weight == 2)
        }
        #expect(failures == 3)
        #expect(try store.titles() == ["kept": "before", "first": "Title", "last": "Title", "W3": "t"])
        #expect(try store.keys().map(\.recordType) == ["Note", "Note", "Note", "Scale", "Weighed"])
    }

    @Test("A record made and deleted in one batch leaves nothing behind")
    func madeAndDeleted() throws {
        let store = try RecordStore.inMemory()
        let before = try store.journalSize
        try store.write { batch in
            try batch.save(noteRecord("A"))
            try batch.deleteRecord(for: noteKey("A"))
        }
        #expect(try store.count == 0)
        #expect(try store.journalSize == before)
    }

    @Test("Deleting a record never sent removes it at once")
    func deleteUnsent() throws {
        let store = try RecordStore.inMemory()
        try store.save(noteRecord("A"))
        try store.deleteRecord(for: noteKey("A"))
        #expect(try store.storedRecord(for: noteKey("A")) == nil)
        try store.deleteRecord(for: noteKey("never there"))
    }

    @Test("A closed store refuses calls, and frees the directory for another")
    func close() throws {
        try withStoreDirectory { directory in
            let store = try RecordStore(directory: directory)
            try store.save(noteRecord("A"))
            store.close()
            expectStoreError(.closed(path: directory.path)) { _ = try store.record(for: noteKey("A")) }
            let again = try RecordStore(directory: directory)
            #expect(try again.titles() == ["A": "Title"])
        }
    }
}

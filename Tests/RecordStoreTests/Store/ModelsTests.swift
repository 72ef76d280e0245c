import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

@Suite("Models")
struct ModelsTests {
    @Test("A parked model is retrieved by identifier, equal to itself, dates to the nanosecond")
    func parkAndRetrieve() throws {
        let store = try RecordStore.inMemory()
        let note = Note(
            id: "N1", title: "Groceries", tags: ["home"], edited: Date(timeIntervalSinceReferenceDate: 0.000_123_4))
        try store.park(note)
        #expect(try store.retrieve(Note.self, identifier: "N1") == note)
        #expect(try store.retrieve(Note.self, identifier: "N2") == nil)
        #expect(try store.records(in: .pending).map(\.key) == [noteKey("N1")])
    }

    @Test("Models of one type are retrieved all at once, by identifier, and deleted one or all")
    func allOfAType() throws {
        let store = try RecordStore.inMemory()
        try store.parkAll([Note(id: "b", title: "B"), Note(id: "a", title: "A")])
        try store.park(Folder(id: "a", name: "A folder of the same identifier"))
        #expect(try store.retrieveAll(Note.self).map(\.id) == ["a", "b"])
        #expect(try store.retrieveAll(Folder.self).map(\.name) == ["A folder of the same identifier"])
        try store.delete(Note(id: "a", title: "A"))
        #expect(try store.retrieveAll(Note.self).map(\.id) == ["b"])
        try store.delete(Note.self, identifier: "b")
        #expect(try store.retrieveAll(Note.self).isEmpty)
        try store.parkAll([Note(id: "c", title: "C"), Note(id: "d", title: "D")])
        try store.deleteAll(Note.self)
        #expect(try store.retrieveAll(Note.self).isEmpty)
        #expect(try store.retrieve(Folder.self, identifier: "a") != nil)
    }

    @Test("Linked models are parked as records of their own, and come back with their holder")
    func linkedModels() throws {
        let store = try RecordStore.inMemory()
        let inbox = Folder(id: "inbox", name: "Inbox")
        try store.parkAll([
            FiledNote(id: "n1", title: "One", folder: inbox), FiledNote(id: "n2", title: "Two", folder: inbox),
        ])
        #expect(try store.retrieve(Folder.self, identifier: "inbox") == inbox)
        #expect(try store.retrieve(FiledNote.self, identifier: "n1")?.folder == inbox)
        #expect(try store.retrieveAll(FiledNote.self).map(\.folder.name) == ["Inbox", "Inbox"])
        try store.delete(Folder.self, identifier: "inbox")
        let error = #expect(throws: DecodingError.self) { try store.retrieve(FiledNote.self, identifier: "n1") }
        #expect(error?.fullPath == "folder")
    }

    @Test("Models are retrieved by sync status")
    func byStatus() throws {
        let store = try RecordStore.inMemory()
        try store.parkAll([Note(id: "a", title: "A"), Note(id: "b", title: "B")])
        var fetched = try RecordEncoder().encode(Note(id: "c", title: "C"))
        fetched.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(fetched)])
        #expect(try store.retrieveAll(Note.self, status: .pending).map(\.id) == ["a", "b"])
        #expect(try store.retrieveAll(Note.self, status: .synced).map(\.id) == ["c"])
        try store.delete(Note.self, identifier: "c")
        #expect(try store.retrieveAll(Note.self, status: .deletedLocally).map(\.id) == ["c"])
        #expect(try store.retrieveAll(Note.self).map(\.id) == ["a", "b"])
    }

    @Test("Models are kept per zone")
    func zones() throws {
        let store = try RecordStore.inMemory()
        try store.park(Note(id: "N1", title: "Work"), inZone: "Work")
        try store.park(Note(id: "N1", title: "Home"))
        #expect(try store.retrieve(Note.self, identifier: "N1", inZone: "Work")?.title == "Work")
        #expect(try store.retrieve(Note.self, identifier: "N1")?.title == "Home")
        #expect(try store.retrieveAll(Note.self, inZone: "Work").map(\.title) == ["Work"])
        #expect(try store.retrieveAll(Note.self).map(\.title).sorted() == ["Home", "Work"])
    }

    @Test("A model that cannot be decoded is a DecodingError at its field")
    func decodingError() throws {
        struct Other: Codable, RecordRepresentable {
            static let recordType = "Note"
            var id: String
            var title: Int
        }
        let store = try RecordStore.inMemory()
        try store.park(Note(id: "N1", title: "Not a number"))
        let error = #expect(throws: DecodingError.self) {
            _ = try store.retrieve(Other.self, identifier: "N1")
        }
        #expect(error?.kind == "typeMismatch")
        #expect(error?.fullPath == "title")
    }

    @Test("A model without an identifier cannot be parked: it would be a new record every time")
    func modelWithoutIdentifier() throws {
        struct Unnamed: Codable { var id: String? }
        let store = try RecordStore.inMemory()
        expectStoreError(.unnamedRecord(recordType: "Unnamed")) { try store.park(Unnamed(id: nil)) }
    }

    @Test("retrieveAll sorts by record name, as text: integer identifiers in the order of their digits")
    func retrieveAllOrder() throws {
        struct Numbered: Codable { var id: Int }
        let store = try RecordStore.inMemory()
        try store.parkAll([9, 10, 2].map(Numbered.init))
        #expect(try store.retrieveAll(Numbered.self).map(\.id) == [10, 2, 9])
    }

    @Test("A model with no identifier property cannot be parked either, whatever the store's encoder")
    func modelWithNoIdentifierProperty() throws {
        struct Tag: Codable, Hashable { var title: String }
        var options = RecordStore.Options()
        var encoder = RecordEncoder()
        encoder.storesIdentifierAsField = true
        options.encoder = encoder
        for store in [try RecordStore.inMemory(), try RecordStore.inMemory(options: options)] {
            expectStoreError(.unnamedRecord(recordType: "Tag")) { try store.park(Tag(title: "x")) }
            expectStoreError(.unnamedRecord(recordType: "Tag")) { try store.parkAll([Tag(title: "y")]) }
            expectStoreError(.unnamedRecord(recordType: "Tag")) { try store.delete(Tag(title: "x")) }
            #expect(try store.keys().isEmpty)
        }
        // The encoder given to the store is the user's: it still names such a model with a new UUID.
        #expect(UUID(uuidString: try options.encoder.encode(Tag(title: "x")).recordName) != nil)
    }

    @Test("Parking a model whose record the server has keeps the fields the model does not know")
    func parkKeepsUnknownFields() throws {
        let store = try RecordStore.inMemory()
        var fetched = try RecordEncoder().encode(Note(id: "N1", title: "Old"))
        fetched["addedByANewerApp"] = .string("keep me")
        fetched.metadata = RecordMetadata(changeTag: "t1")
        try store.applyFetched([.success(fetched)])
        try store.park(Note(id: "N1", title: "New"))
        let stored = try #require(try store.storedRecord(for: noteKey("N1")))
        #expect(stored.status == .pending)
        #expect(stored.record["addedByANewerApp"] == .string("keep me"))
        #expect(stored.record["title"] == .string("New"))
        let request = try #require(try store.modifyRequests().first)
        #expect(request.operations.count == 1)
        #expect(request.operations.first?.operationType == .update)
        #expect(request.operations.first?.record.fields == ["title": .string("New")])
        #expect(request.operations.first?.record.clearedFields == [])
    }

    @Test(
        "Parking a model keeps what the server has of the models it links to, too: unknown fields stay, only changes go"
    )
    func parkKeepsUnknownFieldsOfLinkedModels() throws {
        let store = try RecordStore.inMemory()
        let encoder = RecordEncoder()
        var folder = try encoder.encode(Folder(id: "inbox", name: "Inbox"))
        folder["color"] = .string("blue")
        folder.metadata = RecordMetadata(changeTag: "f1")
        var note = try #require(
            try encoder.encodeGraph(FiledNote(id: "n1", title: "One", folder: Folder(id: "inbox", name: "Inbox")))
                .first)
        note["pinned"] = .int64(1)
        note.metadata = RecordMetadata(changeTag: "n1")
        try store.applyFetched([.success(folder), .success(note)])

        try store.park(FiledNote(id: "n1", title: "One", folder: Folder(id: "inbox", name: "Archive")))
        let storedFolder = try #require(
            try store.storedRecord(for: RecordKey(recordType: "Folder", recordName: "inbox")))
        #expect(storedFolder.status == .pending)
        #expect(storedFolder.record["color"] == .string("blue"))
        #expect(storedFolder.record["name"] == .string("Archive"))
        let storedNote = try #require(try store.storedRecord(for: RecordKey(recordType: "FiledNote", recordName: "n1")))
        #expect(storedNote.record["pinned"] == .int64(1))

        // Only the folder changed: one update, of its name alone, with its change tag.
        let operations = try store.modifyRequests().flatMap(\.operations)
        #expect(operations.map(\.record.recordName) == ["inbox"])
        #expect(operations.first?.operationType == .update)
        #expect(operations.first?.record.fields == ["name": .string("Archive")])
        #expect(operations.first?.record.clearedFields == [])
        #expect(operations.first?.record.metadata?.changeTag == "f1")
    }

    struct Comment: Codable, Hashable, LinkedRecord {
        var id: String
        var text: String
    }

    struct Post: Codable, Hashable {
        var id: String
        var comments: [Comment]
        var pinned: [Comment]?
    }

    struct Team: Codable, Hashable, LinkedRecord {
        var id: String
        var name: String
    }

    struct Author: Codable, Hashable, LinkedRecord {
        var id: String
        var team: Team
    }

    struct Article: Codable, Hashable {
        var id: String
        var author: Author
    }

    /// `store` with `model`'s records as the server has them.
    func fetch(_ model: some Encodable, into store: RecordStore) throws {
        let records = try RecordEncoder().encodeGraph(model).enumerated().map { index, record in
            var record = record
            record.metadata = RecordMetadata(changeTag: "t\(index)")
            return RecordResult.success(record)
        }
        try store.applyFetched(records)
    }

    @Test("A synced model parked with a link removed from a list, or changed two links down, is an update")
    func parkLinksInListsAndDeeper() throws {
        let store = try RecordStore.inMemory()
        let comments = [Comment(id: "c1", text: "a"), Comment(id: "c2", text: "b")]
        try fetch(Post(id: "P", comments: comments, pinned: comments), into: store)
        #expect(try store.retrieve(Post.self, identifier: "P")?.comments == comments)
        try store.park(Post(id: "P", comments: [comments[0]], pinned: nil))
        var operations = try store.modifyRequests().flatMap(\.operations)
        #expect(operations.map(\.record.recordName) == ["P"])
        #expect(operations.first?.record.clearedFields == ["pinned"])
        #expect(operations.first?.record.fields.keys.sorted() == ["comments"])

        let articles = try RecordStore.inMemory()
        try fetch(Article(id: "A", author: Author(id: "mei", team: Team(id: "t1", name: "One"))), into: articles)
        let moved = Article(id: "A", author: Author(id: "mei", team: Team(id: "t2", name: "Two")))
        try articles.park(moved)
        #expect(try articles.retrieve(Article.self, identifier: "A") == moved)
        operations = try articles.modifyRequests().flatMap(\.operations)
        #expect(Set(operations.map(\.record.recordName)) == ["mei", "t2"])
    }

    struct Tag: Codable, Hashable, LinkedRecord {
        var id: String
        var label: String
    }

    struct Tagged: Codable, Hashable {
        var id: String
        var folder: Folder
        var tag: Tag
    }

    @Test("Linked models are found by type as well as name: a note, its folder and its tag may share one")
    func sharedNames() throws {
        let store = try RecordStore.inMemory()
        let tagged = Tagged(id: "1", folder: Folder(id: "1", name: "Inbox"), tag: Tag(id: "1", label: "red"))
        try store.park(tagged)
        #expect(try store.retrieve(Tagged.self, identifier: "1") == tagged)
        #expect(try store.retrieveAll(Tagged.self) == [tagged])
        // A record of another type, named as a linked one, is not read in its place.
        let note = FiledNote(id: "5", title: "T", folder: Folder(id: "2", name: "Work"))
        try store.park(note)
        try store.park(Note(id: "2", title: "unrelated"))
        #expect(try store.retrieve(FiledNote.self, identifier: "5") == note)
        // The same through the decoder alone.
        let records = try RecordEncoder().encodeGraph(tagged)
        #expect(try RecordDecoder().decode(Tagged.self, from: records[0], linkedRecords: records.reversed()) == tagged)

        // Synced, then edited: an update of each record of the name, by its type.
        let synced = try RecordStore.inMemory()
        try fetch(tagged, into: synced)
        let edited = Tagged(id: "1", folder: Folder(id: "1", name: "Archive"), tag: Tag(id: "1", label: "red"))
        try synced.park(edited)
        #expect(try synced.retrieve(Tagged.self, identifier: "1") == edited)
        let operations = try synced.modifyRequests().flatMap(\.operations)
        #expect(operations.map(\.record.recordType) == ["Folder"])
        #expect(operations.first?.record.fields == ["name": .string("Archive")])
        let originals = records.map { record in
            var record = record
            record.metadata = RecordMetadata(changeTag: "t")
            return record
        }
        let updates = try RecordEncoder().encodeGraph(
            edited, updating: originals[0], linkedOriginals: Array(originals.dropFirst()))
        #expect(updates.map(\.fields) == [[:], ["name": .string("Archive")], [:]])
    }

    struct FiledDraft: Codable, Hashable {
        var id: String
        var title: String
        var folder: Folder?
        var tag: Tag?
    }

    @Test("A link removed, or left, where records of two types share its name: an update, never another record read")
    func sharedNamesRemovedLinks() throws {
        // The folder shares the root's name, then the tag's; each link is removed in turn.
        for removesFolder in [true, false] {
            let store = try RecordStore.inMemory()
            let draft = FiledDraft(
                id: "1", title: "T", folder: Folder(id: "1", name: "A"), tag: Tag(id: "1", label: "x"))
            try fetch(draft, into: store)
            var edited = draft
            if removesFolder { edited.folder = nil } else { edited.tag = nil }
            try store.park(edited)
            #expect(try store.retrieve(FiledDraft.self, identifier: "1") == edited)
            let operation = try #require(try store.modifyRequests().first?.operations.first)
            #expect(operation.record.clearedFields == [removesFolder ? "folder" : "tag"])
        }
        // A record of another type shares the name of a linked record the server does not have
        // yet: the link is left alone, and the edit parks.
        let store = try RecordStore.inMemory()
        let draft = FiledDraft(id: "N1", title: "T", folder: Folder(id: "F1", name: "A"), tag: nil)
        let records = try RecordEncoder().encodeGraph(draft)
        var note = records[0]
        note.metadata = RecordMetadata(changeTag: "t0")
        var tag = try RecordEncoder().encode(Tag(id: "F1", label: "x"))
        tag.metadata = RecordMetadata(changeTag: "t9")
        try store.applyFetched([.success(note), .success(tag)])
        try store.save(records[1])
        var edited = draft
        edited.title = "Edited"
        try store.park(edited)
        #expect(try store.retrieve(FiledDraft.self, identifier: "N1") == edited)
    }

    @Test("Deleting a model without an identifier is an error, as parking it is")
    func deleteWithoutIdentifier() throws {
        struct Unnamed: Codable { var id: String? }
        let store = try RecordStore.inMemory()
        expectStoreError(.unnamedRecord(recordType: "Unnamed")) { try store.delete(Unnamed(id: nil)) }
    }

    @Test("A batch sees the models it parked")
    func batchReads() throws {
        let store = try RecordStore.inMemory()
        try store.write { batch in
            try batch.park(FiledNote(id: "n1", title: "One", folder: Folder(id: "f", name: "F")))
            #expect(try batch.retrieve(FiledNote.self, identifier: "n1")?.folder.name == "F")
            #expect(try batch.retrieveAll(Folder.self).map(\.id) == ["f"])
            try batch.deleteAll(FiledNote.self)
            #expect(try batch.retrieveAll(FiledNote.self).isEmpty)
        }
        #expect(try store.retrieveAll(FiledNote.self).isEmpty)
        #expect(try store.retrieveAll(Folder.self).count == 1)
    }

    @Test("An optional link whose record is gone reads nil, also when a record of another type has its name")
    func goneLinkWithNamesake() throws {
        struct Tag: Codable, Hashable, LinkedRecord {
            var id: String
            var label: String
        }
        struct Note: Codable, Hashable {
            var id: String
            var title: String
            var folder: Folder?
            var folders: [Folder?]
        }
        let store = try RecordStore.inMemory()
        let work = Folder(id: "work", name: "Work")
        try store.park(Note(id: "N", title: "t", folder: work, folders: [work]))
        try store.park(Tag(id: "work", label: "work"))
        try store.delete(Folder.self, identifier: "work")
        let unfiled = Note(id: "N", title: "t", folder: nil, folders: [nil])
        #expect(try store.retrieve(Note.self, identifier: "N") == unfiled)
        #expect(try store.retrieveAll(Note.self) == [unfiled])
    }

    @Test("A model deleted locally reads as it was, with the models it linked to, deleted since or not")
    func deletedLocallyWithLinks() throws {
        let store = try RecordStore.inMemory()
        let note = FiledNote(id: "N", title: "t", folder: Folder(id: "F", name: "Folder"))
        let fetched = try RecordEncoder().encodeGraph(note).map { record -> RecordResult in
            var record = record
            record.metadata = RecordMetadata(changeTag: "t1")
            return .success(record)
        }
        try store.applyFetched(fetched)
        try store.delete(note)
        #expect(try store.retrieveAll(FiledNote.self, status: .deletedLocally) == [note])
        try store.delete(note.folder)
        #expect(try store.retrieveAll(FiledNote.self, status: .deletedLocally) == [note])
        #expect(try store.retrieveAll(FiledNote.self) == [])
    }

    @Test("A model that does not fit what the server sent is a DecodingError at its field")
    func modelThatDoesNotFitTheServer() throws {
        struct Note: Codable {
            var id: String
            var title: String?
        }
        let store = try RecordStore.inMemory()
        var record = serverCopy(of: noteRecord("N"), tag: "t1")
        record["title"] = .list([.string("a"), .string("b")])
        try store.applyFetched([.success(record)])
        let error = #expect(throws: DecodingError.self) { _ = try store.retrieveAll(Note.self) }
        #expect(error?.kind == "typeMismatch")
        #expect(error?.fullPath == "title")
    }

    /// A store of notes "a", "b" and "c", where "b"'s title is a list, as a newer version of the
    /// app might write it.
    func storeWithAnUnfitNote() throws -> RecordStore {
        let store = try RecordStore.inMemory()
        try store.parkAll([Note(id: "a", title: "A"), Note(id: "c", title: "C")])
        var unfit = noteRecord("b")
        unfit["title"] = .list([.string("B1"), .string("B2")])
        try store.save(unfit, inZone: "Work")
        return store
    }

    @Test("retrieveAll fails on a record that does not fit the model with an error that names the record")
    func retrieveAllNamesTheUnfitRecord() throws {
        let store = try storeWithAnUnfitNote()
        for retrieve in [{ try store.retrieveAll(Note.self) }, { try store.write { try $0.retrieveAll(Note.self) } }] {
            let error = #expect(throws: DecodingError.self) { _ = try retrieve() }
            #expect(error?.kind == "typeMismatch")
            #expect(error?.fullPath == "title")
            guard case .typeMismatch(_, let context) = error else { continue }
            #expect(
                context.debugDescription == "Record Work/Note/b: Expected to decode String but found a list instead.")
        }
    }

    @Test("retrieveEach reads every model that fits, and names each record that does not, with why")
    func retrieveEachReadsRecordByRecord() throws {
        let store = try storeWithAnUnfitNote()
        for results in [try store.retrieveEach(Note.self), try store.write { try $0.retrieveEach(Note.self) }] {
            // By zone, then name: "Work" sorts before "_defaultZone".
            #expect(results.map(\.model?.id) == [nil, "a", "c"])
            let unreadable = try #require(results.first?.unreadable)
            #expect(unreadable.key == RecordKey(zone: "Work", recordType: "Note", recordName: "b"))
            #expect(unreadable.error.kind == "typeMismatch")
            #expect(unreadable.error.fullPath == "title")
            #expect(
                unreadable.description
                    == "Record Work/Note/b does not decode: title: Expected to decode String but found a list instead.")
            #expect(throws: UnreadableModel.self) { try results.first?.get() }
        }
        let inDefaultZone = try store.retrieveEach(Note.self, inZone: RecordStore.defaultZone)
        #expect(try inDefaultZone.map { try $0.get().id } == ["a", "c"])
    }

    struct Step: Codable, Hashable {
        var id: String
        var next: RecordReference?
    }

    @Test("Models that link one to the next are read in one walk for them all, each with its links")
    func chainedModels() throws {
        let store = try RecordStore.inMemory()
        let steps = (0..<300).map {
            Step(id: "s\($0)", next: $0 < 299 ? RecordReference(recordName: "s\($0 + 1)") : nil)
        }
        try store.parkAll(steps)
        #expect(Set(try store.retrieveAll(Step.self)) == Set(steps))
        // Each step reaches every later one, so that a walk from each would gather 44,850 records:
        // the one walk gathers each step once.
        let gathered = try store.reading { batch in
            let roots = try steps.map { step in
                let key = RecordKey(recordType: "Step", recordName: step.id)
                return (record: try #require(try batch.record(for: key)), zone: RecordStore.defaultZone)
            }
            var reader = batch.modelReader()
            return try reader.linkedRecords(ofAll: roots)
        }
        guard case .shared(let linked) = gathered.first else {
            Issue.record("one set was expected")
            return
        }
        #expect(linked.count == 299)
        #expect(gathered.allSatisfy { if case .shared(let set) = $0 { set.count == 299 } else { false } })
    }

    final class Knot: Codable, LinkedRecord {
        var id: String
        var next: Knot?

        init(id: String, next: Knot? = nil) {
            self.id = id
            self.next = next
        }

        /// Knot k1, which links to k2, which links back to k1; set its `next` to `nil` when done.
        static func cycle() -> Knot {
            let first = Knot(id: "k1")
            first.next = Knot(id: "k2", next: first)
            return first
        }
    }

    @Test("Models that link to each other: a model's link back to itself reads as a record not given")
    func modelsLinkedInACycle() throws {
        let store = try RecordStore.inMemory()
        let first = Knot.cycle()
        defer { first.next = nil }
        try store.park(first)
        let knots = try store.retrieveAll(Knot.self)
        #expect(knots.map(\.id) == ["k1", "k2"])
        #expect(knots.map { $0.next?.id } == ["k2", "k1"])
        #expect(knots.map { $0.next?.next == nil } == [true, true])
        #expect(try store.retrieve(Knot.self, identifier: "k1")?.next?.id == "k2")
    }

    @Test("Models of two zones whose links name records of one name read each its own zone's, in one walk a zone")
    func linksOfOneNameInTwoZones() throws {
        let store = try RecordStore.inMemory()
        try store.park(FiledNote(id: "n1", title: "One", folder: Folder(id: "f", name: "Home")), inZone: "Home")
        try store.park(FiledNote(id: "n2", title: "Two", folder: Folder(id: "f", name: "Work")), inZone: "Work")
        try store.park(FiledNote(id: "n3", title: "Three", folder: Folder(id: "f", name: "Home")), inZone: "Home")
        #expect(try store.retrieveAll(FiledNote.self).map(\.folder.name) == ["Home", "Home", "Work"])
        #expect(try store.write { try $0.retrieveAll(FiledNote.self) }.map(\.folder.name) == ["Home", "Home", "Work"])
        // The models of each zone share one set of the records they link to.
        let gathered = try store.reading { batch in
            let roots = try ["Home": ["n1", "n3"], "Work": ["n2"]].flatMap { zone, names in
                try names.map { name in
                    let key = RecordKey(zone: zone, recordType: "FiledNote", recordName: name)
                    return (record: try #require(try batch.record(for: key)), zone: zone)
                }
            }
            var reader = batch.modelReader()
            return try reader.linkedRecords(ofAll: roots)
        }
        #expect(gathered.allSatisfy { if case .shared = $0 { true } else { false } })
    }

    @Test("A link whose record its own zone lacks reads as a record not given, though another zone has one")
    func linkMissingInItsZone() throws {
        let store = try RecordStore.inMemory()
        try store.park(Knot(id: "k1", next: Knot(id: "gone")), inZone: "A")
        try store.delete(Knot.self, identifier: "gone", inZone: "A")
        try store.park(Knot(id: "k3", next: Knot(id: "gone")), inZone: "B")
        // A reference naming another zone, which lacks the record, reads none either.
        let elsewhere = RecordReference(recordName: "gone", zoneID: RecordZoneID(zoneName: "C"))
        try store.save(
            Record(recordType: "Knot", recordName: "k4", fields: ["next": .reference(elsewhere)]), inZone: "B")
        #expect(try store.retrieve(Knot.self, identifier: "k1", inZone: "A")?.next == nil)
        for knots in [
            try store.retrieveAll(Knot.self), try store.write { try $0.retrieveAll(Knot.self) },
            try store.retrieveAll(Knot.self, status: .pending),
        ] {
            #expect(knots.map(\.id) == ["k1", "gone", "k3", "k4"])
            #expect(knots.map { $0.next?.id } == [nil, nil, "gone", nil])
        }
        // A link that may not be nil is an error, as when the model is read alone.
        try store.park(FiledNote(id: "n1", title: "One", folder: Folder(id: "f", name: "Home")), inZone: "A")
        try store.delete(Folder.self, identifier: "f", inZone: "A")
        try store.park(FiledNote(id: "n2", title: "Two", folder: Folder(id: "f", name: "Work")), inZone: "B")
        let error = #expect(throws: DecodingError.self) { try store.retrieveAll(FiledNote.self) }
        #expect(error?.kind == "valueNotFound")
        #expect(error?.fullPath == "folder")
    }

    @Test("A synced model whose links cross zones, or loop back to it, fails to park again rather than clear a link")
    func syncedModelReadOtherwiseWhenParked() throws {
        // k1 links to k2 in zone Z2, which has none, so the store reads the link as nil; its own
        // zone has a k2, which links back to k1.
        let store = try RecordStore.inMemory()
        let elsewhere = RecordReference(recordName: "k2", zoneID: RecordZoneID(zoneName: "Z2"))
        let records = [
            Record(recordType: "Knot", recordName: "k1", fields: ["next": .reference(elsewhere)]),
            Record(
                recordType: "Knot", recordName: "k2", fields: ["next": .reference(RecordReference(recordName: "k1"))]),
        ]
        try store.applyFetched(records.map { .success(serverCopy(of: $0, tag: "t1")) }, zone: "Z1")
        let k1 = try #require(try store.retrieve(Knot.self, identifier: "k1", inZone: "Z1"))
        #expect(k1.next == nil)
        #expect(throws: EncodingError.self) { try store.park(k1, inZone: "Z1") }
        #expect(try store.modifyRequests().isEmpty)
        // A cycle in one zone: read with the link back as nil, parked again an error.
        let first = Knot.cycle()
        defer { first.next = nil }
        try store.applyFetched(
            try RecordEncoder().encodeGraph(first).map { .success(serverCopy(of: $0, tag: "t1")) }, zone: "Z3")
        let retrieved = try #require(try store.retrieve(Knot.self, identifier: "k1", inZone: "Z3"))
        #expect(retrieved.next?.next == nil)
        #expect(throws: EncodingError.self) { try store.park(retrieved, inZone: "Z3") }
        #expect(try store.modifyRequests().isEmpty)
    }
}

import Foundation
import Testing

@testable import RecordCodable

/// Fetch, decode, edit, save: what the user did not change does not change on the server.
@Suite("The save cycle")
struct SaveCycleTests {
    enum Color: String, RecordEnum {
        case red, blue, unknown
        static var fallbackCase: Color { .unknown }
    }

    struct Style: Codable, Equatable {
        var font: String
        var size: Int
    }

    struct Note: Codable, Equatable {
        var id: String
        var title: String
        var color: Color
        var tags: [String]?
        var due: Date?
        var photo: URL?
        var style: Style?
        var metadata: RecordMetadata?
    }

    /// A record as the server sends it: with a change tag, a zone, a field of a newer app version,
    /// a color the model does not know, and an asset.
    static let fetchedJSON = #"""
        {"recordName":"N1","recordType":"Note","recordChangeTag":"e1",
         "zoneID":{"zoneName":"Notes","ownerRecordName":"_o"},
         "created":{"timestamp":1700000000000,"userRecordName":"_u","deviceID":"1"},
         "fields":{
           "title":{"type":"STRING","value":"Groceries"},
           "color":{"type":"STRING","value":"lavender"},
           "tags":{"type":"STRING_LIST","value":["home","weekly"]},
           "due":{"type":"TIMESTAMP","value":1700000000123},
           "photo":{"type":"ASSETID","value":{"fileChecksum":"c1","size":10,"downloadURL":"https://cvws.example.com/B/x/${f}?o=1"}},
           "style":{"type":"BYTES","value":"eyJmb250IjoiU2VyaWYiLCJzaXplIjoxMn0="},
           "pinnedByNewerApp":{"type":"INT64","value":1}}}
        """#

    static func fetched() throws -> Record {
        try JSONDecoder().decode(Record.self, from: Data(fetchedJSON.utf8))
    }

    static func decodedNote() throws -> Note {
        try RecordDecoder().decode(Note.self, from: fetched())
    }

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("An edit of one property sends that field alone, as an update of the original")
    func oneChange() throws {
        var note = try Self.decodedNote()
        #expect(note.color == .unknown)
        #expect(note.style == Style(font: "Serif", size: 12))
        note.title = "Groceries and more"
        let update = try RecordEncoder().encode(note, updating: Self.fetched())
        #expect(update.recordName == "N1")
        #expect(update.recordType == "Note")
        #expect(update.metadata == (try Self.fetched()).metadata)
        // Not the color the newer app stored, not the newer app's field, not the asset.
        #expect(update.fields == ["title": .string("Groceries and more")])
        #expect(update.clearedFields.isEmpty)
        let request = RecordsModifyRequest(savingRecords: [update])
        #expect(
            try json(request)
                == #"{"operations":[{"operationType":"update","record":{"fields":{"title":{"type":"STRING","value":"Groceries and more"}},"recordChangeTag":"e1","recordName":"N1","recordType":"Note"}}],"zoneID":{"ownerRecordName":"_o","zoneName":"Notes"}}"#
        )
    }

    @Test("An edit that changes nothing is an update with no fields")
    func noChange() throws {
        let update = try RecordEncoder().encode(try Self.decodedNote(), updating: Self.fetched())
        #expect(update.fields.isEmpty)
        #expect(update.clearedFields.isEmpty)
    }

    @Test("A cleared optional and a cleared list are sent as null, with their types")
    func clearedFields() throws {
        var note = try Self.decodedNote()
        note.due = nil
        note.tags = nil
        let update = try RecordEncoder().encode(note, updating: Self.fetched())
        #expect(update.fields.isEmpty)
        #expect(update.clearedFields == ["due", "tags"])
        let operation = try json(RecordOperation(saving: update))
        #expect(operation.contains(#""due":{"type":"TIMESTAMP","value":null}"#), "\(operation)")
        #expect(operation.contains(#""tags":{"type":"STRING_LIST","value":null}"#), "\(operation)")
        // The request reads back with its cleared fields, and writes the same JSON again.
        let request = RecordsModifyRequest(savingRecords: [update])
        let read = try JSONDecoder().decode(RecordsModifyRequest.self, from: JSONEncoder().encode(request))
        #expect(read.operations[0].record.clearedFields == ["due", "tags"])
        #expect(try json(read) == json(request))
    }

    @Test("A value the model writes again from a newer one is not a change: an enum's fallback case")
    func newerEnumValue() throws {
        var note = try Self.decodedNote()
        note.color = .unknown
        #expect(try RecordEncoder().encode(note, updating: Self.fetched()).fields["color"] == nil)
        note.color = .blue
        #expect(try RecordEncoder().encode(note, updating: Self.fetched()).fields["color"] == .string("blue"))
    }

    @Test("A server asset read into a URL is not sent again; its download address works")
    func untouchedAsset() throws {
        var note = try Self.decodedNote()
        #expect(note.photo?.absoluteString == "https://cvws.example.com/B/x/photo?o=1")
        note.title = "Other"
        let update = try RecordEncoder().encode(note, updating: Self.fetched())
        #expect(update.fields["photo"] == nil)
    }

    @Test("A web address set where the server keeps an asset is an error at the field, not text sent over it")
    func webAddressOverAsset() throws {
        var note = try Self.decodedNote()
        note.photo = URL(string: "https://example.com/other.png")
        let error = expectEncodingError(at: "photo") {
            _ = try RecordEncoder().encode(note, updating: Self.fetched())
        }
        #expect(error?.context?.debugDescription.contains("cannot replace an asset") == true)
    }

    /// An album whose photos are server assets, read as URLs.
    struct Album: Codable {
        var id: String
        var photos: [URL]
    }

    static let albumJSON = #"""
        {"recordName":"A1","recordType":"Album","recordChangeTag":"t1","fields":{"photos":{"type":"ASSETID_LIST",
         "value":[{"fileChecksum":"c1","size":1,"downloadURL":"https://cvws.example.com/B/1/${f}?o=1"},
                  {"fileChecksum":"c2","size":2,"downloadURL":"https://cvws.example.com/B/2/${f}?o=2"},
                  {"fileChecksum":"c3","size":3,"downloadURL":"https://cvws.example.com/B/3/${f}?o=3"}]}}}
        """#

    @Test("A photo removed from a list of server assets read as URLs sends the others as the assets they are")
    func assetListEdited() throws {
        let fetched = try JSONDecoder().decode(Record.self, from: Data(Self.albumJSON.utf8))
        guard case .list(let assets) = fetched["photos"] else { throw ExpectedList() }
        var album = try RecordDecoder().decode(Album.self, from: fetched)
        album.photos.remove(at: 1)
        album.photos.reverse()
        let update = try RecordEncoder().encode(album, updating: fetched)
        #expect(update.fields["photos"] == .list([assets[2], assets[0]]))
        #expect(try json(RecordOperation(saving: update)).contains(#""type":"ASSETID_LIST""#))

        var withWebAddress = album
        withWebAddress.photos.append(try #require(URL(string: "https://example.com/new.png")))
        expectEncodingError(at: "photos") { _ = try RecordEncoder().encode(withWebAddress, updating: fetched) }
        // Web addresses and a file make no list of one type: JSON, which is no asset either.
        album.photos.append(URL(fileURLWithPath: "/tmp/new.png"))
        expectEncodingError(at: "photos") { _ = try RecordEncoder().encode(album, updating: fetched) }
    }

    @Test(
        "A photo listed twice, or added to a list the server typed as assets while empty, is matched as the server keeps it"
    )
    func assetListCorners() throws {
        let fetched = try JSONDecoder().decode(Record.self, from: Data(Self.albumJSON.utf8))
        guard case .list(let assets) = fetched["photos"] else { throw ExpectedList() }
        var album = try RecordDecoder().decode(Album.self, from: fetched)
        album.photos.append(album.photos[0])
        let update = try RecordEncoder().encode(album, updating: fetched)
        #expect(update.fields["photos"] == .list(assets + [assets[0]]))

        var empty = fetched
        empty["photos"] = .list([])
        empty.fieldTypeHints = ["photos": "ASSETID_LIST"]
        var none = try RecordDecoder().decode(Album.self, from: empty)
        none.photos = [try #require(URL(string: "https://example.com/new.png"))]
        expectEncodingError(at: "photos") { _ = try RecordEncoder().encode(none, updating: empty) }
    }

    @Test("Of two values the model read alike, the one whose element was removed is the one that goes")
    func removedAmongFallbacks() throws {
        let fetched = Self.fetchedPalette(["lavender", "red", "teal"])
        var palette = try RecordDecoder().decode(Palette.self, from: fetched)
        palette.colors.removeFirst()
        #expect(
            try RecordEncoder().encode(palette, updating: fetched).fields["colors"]
                == .list([.string("red"), .string("teal")]))
    }

    @Test("A list the model reads as another kind of number is sent as the model writes it, of one type")
    func listOfAnotherNumberKind() throws {
        struct Readings: Codable {
            var id: String
            var values: [Double]
        }
        let fetched = Record(
            recordType: "Readings", recordName: "R1", fields: ["values": .list([.int64(1), .int64(2)])],
            metadata: RecordMetadata(changeTag: "t1"))
        var readings = try RecordDecoder().decode(Readings.self, from: fetched)
        readings.values.append(2.5)
        let update = try RecordEncoder().encode(readings, updating: fetched)
        #expect(update.fields["values"] == .list([.double(1), .double(2), .double(2.5)]))
    }

    struct ExpectedList: Error {}

    struct Palette: Codable {
        var id: String
        var colors: [Color]
    }

    /// A palette's record as the server sends it, with `colors` some of which the model does not know.
    static func fetchedPalette(_ colors: [String]) -> Record {
        Record(
            recordType: "Palette", recordName: "P1", fields: ["colors": .list(colors.map(RecordValue.string))],
            metadata: RecordMetadata(changeTag: "t1"))
    }

    @Test("A list element newer than the model stays as the server has it when another element changes")
    func newerEnumValueInList() throws {
        let fetched = Self.fetchedPalette(["red", "lavender", "teal"])
        var palette = try RecordDecoder().decode(Palette.self, from: fetched)
        #expect(palette.colors == [.red, .unknown, .unknown])
        palette.colors.removeFirst()
        palette.colors.append(.blue)
        let update = try RecordEncoder().encode(palette, updating: fetched)
        #expect(update.fields["colors"] == .list([.string("lavender"), .string("teal"), .string("blue")]))
        // A fallback the user added is sent as written: no value of the server's is left for it.
        var added = try RecordDecoder().decode(Palette.self, from: fetched)
        added.colors.append(.unknown)
        let more = try RecordEncoder().encode(added, updating: fetched)
        #expect(
            more.fields["colors"] == .list([.string("red"), .string("lavender"), .string("teal"), .string("unknown")]))
    }

    @Test("A record the server reports as deleted is not something to update")
    func deletedOriginal() throws {
        var original = try Self.fetched()
        original.metadata?.deleted = true
        let error = expectEncodingError(at: "") {
            _ = try RecordEncoder().encode(try Self.decodedNote(), updating: original)
        }
        #expect(error?.context?.debugDescription.contains("was deleted on the server") == true)
    }

    @Test("A changed asset is sent; one the server has not received is an error that says to upload it")
    func changedAsset() throws {
        struct Album: Codable {
            var id: String
            var cover: RecordAsset
        }
        let original = Record(
            recordType: "Album", recordName: "A1",
            fields: ["cover": .asset(RecordAsset(fileChecksum: "old", size: 1, downloadURL: "https://x/${f}"))],
            metadata: RecordMetadata(changeTag: "t"))
        var album = try RecordDecoder().decode(Album.self, from: original)
        #expect(try RecordEncoder().encode(album, updating: original).fields.isEmpty)

        album.cover = RecordAsset(fileChecksum: "new", size: 2, wrappingKey: "w", receipt: "r")
        let uploaded = try RecordEncoder().encode(album, updating: original)
        #expect(uploaded.fields["cover"] == .asset(album.cover))

        album.cover = RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/cover.png"))
        let local = try RecordEncoder().encode(album, updating: original)
        let error = expectEncodingError(at: "operations.Index 0.record.fields.cover") {
            _ = try JSONEncoder().encode(RecordsModifyRequest(savingRecords: [local]))
        }
        #expect(
            error?.context?.debugDescription
                == "The asset in field 'cover' of record 'A1' is a file (/tmp/cover.png) that the server has not "
                + "received: upload it first (assets/upload, see AssetsUploadRequest), then save the record with the "
                + "asset the upload returns.")
    }

    @Test("A nested value changed in one inner property is sent whole")
    func nestedValue() throws {
        var note = try Self.decodedNote()
        note.style?.size = 14
        let update = try RecordEncoder().encode(note, updating: Self.fetched())
        let style = try #require(update.fields["style"])
        guard case .bytes(let data) = style else {
            Issue.record("style is \(style)")
            return
        }
        #expect(try JSONDecoder().decode(Style.self, from: data) == Style(font: "Serif", size: 14))
        #expect(update.fields.count == 1)
    }

    @Test("A date that differs below a millisecond is not a change: the server keeps milliseconds")
    func subMillisecondDate() throws {
        var note = try Self.decodedNote()
        note.due = note.due.map { $0.addingTimeInterval(0.000_3) }
        #expect(try RecordEncoder().encode(note, updating: Self.fetched()).fields.isEmpty)
        note.due = note.due.map { $0.addingTimeInterval(0.001) }
        #expect(try RecordEncoder().encode(note, updating: Self.fetched()).fields.keys.sorted() == ["due"])
    }

    @Test("A record fetched with desiredKeys: the fields it lacks are not cleared")
    func desiredKeys() throws {
        var partial = try Self.fetched()
        partial.fields = partial.fields.filter { $0.key == "title" || $0.key == "color" }
        var note = try RecordDecoder().decode(Note.self, from: partial)
        #expect(note.tags == nil)
        note.title = "Renamed"
        let update = try RecordEncoder().encode(note, updating: partial)
        #expect(update.fields == ["title": .string("Renamed")])
        #expect(update.clearedFields.isEmpty)
    }

    @Test("An identifier that names another record is an error, not a save over it")
    func changedIdentifier() throws {
        var note = try Self.decodedNote()
        note.id = "N2"
        // The metadata the model read names its record: the identifier must agree with it.
        let error = expectEncodingError(at: "id") { _ = try RecordEncoder().encode(note, updating: Self.fetched()) }
        #expect(error?.context?.debugDescription.hasPrefix("The identifier 'id' names the record 'N2'") == true)
        // Without the metadata, the save cycle's own check says so.
        note.metadata = nil
        let other = expectEncodingError(at: "") { _ = try RecordEncoder().encode(note, updating: Self.fetched()) }
        #expect(other?.context?.debugDescription.hasPrefix("The model's identifier names record 'N2'") == true)
    }

    @Test("A model that cannot read the original says so")
    func unreadableOriginal() throws {
        let original = Record(
            recordType: "Note", recordName: "N1", fields: ["title": .int64(3)], metadata: RecordMetadata(changeTag: "t")
        )
        let error = expectEncodingError(at: "") {
            _ = try RecordEncoder().encode(try Self.decodedNote(), updating: original)
        }
        #expect(error?.context?.underlyingError is DecodingError)
    }

    @Test("An original without a change tag, built by hand, gives the update of what changed, saved as an update")
    func originalWithoutChangeTag() throws {
        struct Memo: Codable {
            var id: String
            var title: String?
            var body: String
        }
        let original = Record(
            recordType: "Memo", recordName: "m", fields: ["title": .string("a"), "body": .string("b")])
        let update = try RecordEncoder().encode(Memo(id: "m", title: nil, body: "c"), updating: original)
        #expect(update.recordName == "m" && update.recordType == "Memo" && update.metadata == nil)
        #expect(update.fields == ["body": .string("c")])
        #expect(update.clearedFields == ["title"])
        // Saved as the update it is, never as a create of the changed fields alone; the server
        // answers an update without a change tag for itself.
        let operation = RecordOperation(saving: update)
        #expect(operation.operationType == .update)
        #expect(
            try json(RecordsModifyRequest(operations: [operation]))
                == #"{"operations":[{"operationType":"update","record":{"fields":{"body":{"type":"STRING","value":"c"},"#
                + #""title":{"type":"STRING","value":null}},"recordName":"m","recordType":"Memo"}}]}"#)
        #expect(RecordsModifyRequest(savingRecords: [update]).operations.map(\.operationType) == [.update])
        // A record's own update too; the same record, written whole, is a create.
        var edited = original
        edited["body"] = .string("c")
        #expect(RecordOperation(saving: try original.update(to: edited)).operationType == .update)
        #expect(RecordOperation(saving: edited).operationType == .create)
    }

    class Item: Codable {
        var id: String
        var name: String
        init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    final class ColoredItem: Item {
        var color: Color
        init(id: String, name: String, color: Color) {
            self.color = color
            super.init(id: id, name: name)
        }
        private enum CodingKeys: String, CodingKey { case color }
        required init(from decoder: any Decoder) throws {
            color = try decoder.container(keyedBy: CodingKeys.self).decode(Color.self, forKey: .color)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(color, forKey: .color)
            try super.encode(to: encoder)
        }
    }

    @Test("A model held as its superclass is compared as what it is: a newer enum value stays")
    func subclassReadBack() throws {
        let fetched = Record(
            recordType: "ColoredItem", recordName: "I1", fields: ["name": .string("a"), "color": .string("lavender")],
            metadata: RecordMetadata(changeTag: "t"))
        let item: Item = try RecordDecoder().decode(ColoredItem.self as Item.Type, from: fetched)
        #expect(try RecordEncoder().encode(item, updating: fetched).fields.isEmpty)
        item.name = "b"
        #expect(try RecordEncoder().encode(item, updating: fetched).fields == ["name": .string("b")])
    }

    @Test("An emptied or cleared list keeps the list type the server has for its field")
    func emptiedListKeepsItsType() throws {
        struct Scores: Codable {
            var id: String
            var points: [Int]
            var dates: [Date]?
        }
        let fetched = try JSONDecoder().decode(
            Record.self,
            from: Data(
                #"{"recordName":"S1","recordType":"Scores","recordChangeTag":"t","fields":{"points":{"type":"INT64_LIST","value":[1,2]},"dates":{"type":"ENCRYPTED_TIMESTAMP_LIST","value":[]}}}"#
                    .utf8))
        var scores = try RecordDecoder().decode(Scores.self, from: fetched)
        scores.points = []
        scores.dates = nil
        let update = try RecordEncoder().encode(scores, updating: fetched)
        let operation = try json(RecordOperation(saving: update))
        #expect(operation.contains(#""points":{"type":"INT64_LIST","value":[]}"#), "\(operation)")
        #expect(
            operation.contains(#""dates":{"isEncrypted":true,"type":"TIMESTAMP_LIST","value":null}"#), "\(operation)")
        // A fetched empty list is written back with its own type.
        #expect(try json(fetched).contains(#""dates":{"isEncrypted":true,"type":"TIMESTAMP_LIST","value":[]}"#))
    }

    @Test("A linked original kept without its type is still the original of its name: an update, not a create")
    func linkedOriginalWithoutType() throws {
        let model = Post(id: "P1", title: "T", author: Author(id: "A1", name: "Ada"), editor: nil)
        let records = try RecordEncoder().encodeGraph(model)
        var post = records[0]
        post.metadata = RecordMetadata(changeTag: "t0")
        var author = records[1]
        author.metadata = RecordMetadata(changeTag: "t1")
        author.recordType = ""
        var edited = model
        edited.author.name = "Mei"
        let updates = try RecordEncoder().encodeGraph(edited, updating: post, linkedOriginals: [author])
        #expect(updates[1].metadata?.changeTag == "t1")
        #expect(updates[1].fields == ["name": .string("Mei")])
    }

    @Test("A downloaded asset, its local file now set, is not a change")
    func downloadedAssetIsNoChange() throws {
        struct Album: Codable {
            var id: String
            var cover: RecordAsset
        }
        let original = Record(
            recordType: "Album", recordName: "A1",
            fields: ["cover": .asset(RecordAsset(fileChecksum: "c", size: 1, downloadURL: "https://x/${f}"))],
            metadata: RecordMetadata(changeTag: "t"))
        var album = try RecordDecoder().decode(Album.self, from: original)
        album.cover.fileURL = URL(fileURLWithPath: "/tmp/cover.png")
        #expect(try RecordEncoder().encode(album, updating: original).fields.isEmpty)

        // The same file as the upload's answer describes it, with a receipt: no change either.
        album.cover = RecordAsset(fileChecksum: "c", size: 1, wrappingKey: "w", receipt: "r")
        #expect(try RecordEncoder().encode(album, updating: original).fields.isEmpty)
        // Another file of the same checksum but another size is a change.
        album.cover = RecordAsset(fileChecksum: "c", size: 2, receipt: "r")
        #expect(try RecordEncoder().encode(album, updating: original).fields.keys.sorted() == ["cover"])
    }

    @Test(
        "Models matched with originals without identifiers: named by the metadata they read; metadata with no name is an error"
    )
    func requestOfModelsWithoutIdentifiers() throws {
        struct Untitled: Codable {
            var title: String
            var metadata: RecordMetadata?
        }
        let fetched = Record(
            recordType: "Untitled", recordName: "U1", fields: ["title": .string("a")],
            metadata: RecordMetadata(changeTag: "t"))
        var model = try RecordDecoder().decode(Untitled.self, from: fetched)
        model.title = "b"
        let request = try RecordsModifyRequest(saving: [model], updating: [fetched])
        #expect(request.operations.map(\.operationType) == [.update])
        #expect(request.operations.first?.record.recordName == "U1")
        #expect(request.operations.first?.record.fields == ["title": .string("b")])
        // Metadata that names no record proves nothing: never an update of a name made up.
        model.metadata?.recordName = nil
        expectEncodingError(at: "") { _ = try RecordsModifyRequest(saving: [model], updating: [fetched]) }
        // A new one, never saved, is created.
        let new = try RecordsModifyRequest(saving: [Untitled(title: "c")], updating: [fetched])
        #expect(new.operations.map(\.operationType) == [.create])
    }

    @Test("Only a create may leave a record's name to the server")
    func unnamedRecordsAreCreatedOnly() throws {
        for type in [RecordOperation.OperationType.update, .replace, .forceUpdate, .delete, .forceDelete] {
            let operation = RecordOperation(type, record: Record(recordType: "T", recordName: ""))
            expectEncodingError(at: "record.recordName") { _ = try JSONEncoder().encode(operation) }
        }
    }

    @Test("Updates follow the encoder's key strategy, custom ones included")
    func keyStrategies() throws {
        struct Item: Codable {
            var id: String
            var displayName: String
            var itemCount: Int
        }
        for strategy in [
            RecordEncoder.KeyEncodingStrategy.convertToSnakeCase,
            .custom { AnyCodingKey(stringValue: "x_" + ($0.last?.stringValue ?? "")) },
        ] {
            var encoder = RecordEncoder()
            encoder.keyEncodingStrategy = strategy
            var original = try encoder.encode(Item(id: "I1", displayName: "A", itemCount: 1))
            original.metadata = RecordMetadata(changeTag: "t")
            let update = try encoder.encode(Item(id: "I1", displayName: "A", itemCount: 2), updating: original)
            #expect(update.fields.count == 1)
            #expect(update.fields.values.first == .int64(2))
        }
    }

    @Test("Encrypted fields stay encrypted in an update")
    func encryptedFieldsInUpdates() throws {
        var original = try Self.fetched()
        original.encryptedFields = ["title", "due"]
        var note = try RecordDecoder().decode(Note.self, from: original)
        note.title = "Secret"
        note.due = nil
        let update = try RecordEncoder().encode(note, updating: original)
        #expect(update.encryptedFields == ["title", "due"])
        let operation = try json(RecordOperation(saving: update))
        #expect(operation.contains(#""due":{"isEncrypted":true,"type":"TIMESTAMP","value":null}"#), "\(operation)")
    }

    // MARK: Graphs and requests

    struct Author: Codable, Equatable, LinkedRecord {
        var id: String
        var name: String
    }

    struct Post: Codable, Equatable {
        var id: String
        var title: String
        var author: Author
        var editor: Author?
    }

    /// A post by Ada and her author record as the server sends them, with change tags t0 and t1.
    static func fetchedPost() throws -> [Record] {
        var originals = try RecordEncoder().encodeGraph(
            Post(id: "P1", title: "T", author: Author(id: "A1", name: "Ada"), editor: nil))
        for index in originals.indices { originals[index].metadata = RecordMetadata(changeTag: "t\(index)") }
        return originals
    }

    @Test("Each linked record is updated against its own original; a newly linked model is created")
    func graphUpdates() throws {
        let originals = try Self.fetchedPost()
        var post = try RecordDecoder().decode(Post.self, from: originals[0], linkedRecords: originals)
        post.author.name = "Ada L."
        post.editor = Author(id: "A2", name: "Grace")
        let records = try RecordEncoder().encodeGraph(
            post, updating: originals[0], linkedOriginals: originals.dropFirst())
        #expect(records.map(\.recordName) == ["P1", "A1", "A2"])
        #expect(records[0].fields == ["editor": .reference(RecordReference(recordName: "A2"))])
        #expect(records[0].metadata?.changeTag == "t0")
        #expect(records[1].fields == ["name": .string("Ada L.")])
        #expect(records[1].metadata?.changeTag == "t1")
        #expect(records[2].fields == ["name": .string("Grace")])
        #expect(records[2].metadata == nil)
        let request = RecordsModifyRequest(savingRecords: records)
        #expect(request.operations.map(\.operationType) == [.update, .update, .create])
    }

    @Test("A model newly linked that the server has already is an update of its fields, with its change tag")
    func newLinkToAFetchedModel() throws {
        let originals = try Self.fetchedPost()
        var grace = try RecordEncoder().encode(Author(id: "A2", name: "Grace"))
        grace.metadata = RecordMetadata(changeTag: "g1")
        var post = try RecordDecoder().decode(Post.self, from: originals[0], linkedRecords: originals)
        post.editor = try RecordDecoder().decode(Author.self, from: grace)
        let records = try RecordEncoder().encodeGraph(
            post, updating: originals[0], linkedOriginals: originals.dropFirst() + [grace])
        #expect(records.map(\.recordName) == ["P1", "A1", "A2"])
        #expect(records[2].fields == ["name": .string("Grace")])
        #expect(records[2].metadata?.changeTag == "g1")
        let request = RecordsModifyRequest(savingRecords: records)
        #expect(request.operations.map(\.operationType) == [.update, .update, .update])
    }

    @Test("A linked record the server reports as deleted is not something to update either")
    func deletedLinkedOriginal() throws {
        let originals = try Self.fetchedPost()
        var post = try RecordDecoder().decode(Post.self, from: originals[0], linkedRecords: originals)
        post.editor = Author(id: "A2", name: "Grace")
        var deleted = Record(recordType: "Author", recordName: "A2")
        deleted.metadata = RecordMetadata(changeTag: "g9", deleted: true)
        let error = expectEncodingError(at: "") {
            _ = try RecordEncoder().encodeGraph(
                post, updating: originals[0], linkedOriginals: originals.dropFirst() + [deleted])
        }
        #expect(error?.context?.debugDescription.contains("'A2' was deleted on the server") == true)
        // Left out, it is created anew.
        let records = try RecordEncoder().encodeGraph(
            post, updating: originals[0], linkedOriginals: originals.dropFirst())
        #expect(
            RecordsModifyRequest(savingRecords: records).operations.map(\.operationType) == [.update, .update, .create])
    }

    struct Draft: Codable, Equatable {
        var id: String
        var title: String
        var editor: Author?
    }

    /// A draft as the server sends it, linked to its editor with DELETE_SELF, in a custom zone,
    /// and the editor's record.
    static func fetchedDraft() -> (draft: Record, editor: Record) {
        let zone = RecordZoneID(zoneName: "Blog", ownerRecordName: "_owner")
        let link = RecordReference(recordName: "A1", action: .deleteSelf, zoneID: zone)
        let draft = Record(
            recordType: "Draft", recordName: "D1", fields: ["title": .string("T"), "editor": .reference(link)],
            metadata: RecordMetadata(changeTag: "d1", zoneID: zone))
        let editor = Record(
            recordType: "Author", recordName: "A1", fields: ["name": .string("Ada")],
            metadata: RecordMetadata(changeTag: "a1", zoneID: zone))
        return (draft, editor)
    }

    @Test("An optional link whose record an update is not given stays as the server has it while the model keeps it")
    func unreadOptionalLinkKept() throws {
        let (fetched, editor) = Self.fetchedDraft()
        var draft = try RecordDecoder().decode(Draft.self, from: fetched, linkedRecords: [editor])
        draft.title = "New title"
        // The encoder writes its own action and zone; the server's DELETE_SELF link is not sent over.
        #expect(try RecordEncoder().encode(draft, updating: fetched).fields == ["title": .string("New title")])
        #expect(try RecordsModifyRequest(saving: [draft], updating: [fetched]).operations.count == 1)

        draft.editor = Author(id: "A2", name: "Grace")
        let update = try RecordEncoder().encode(draft, updating: fetched)
        #expect(update.fields["editor"] == .reference(RecordReference(recordName: "A2")))

        // A field the model does not know, linking to the same record, is left alone.
        var newer = fetched
        newer.fields["firstEditor"] = fetched.fields["editor"]
        draft.editor = try RecordDecoder().decode(Draft.self, from: newer, linkedRecords: [editor]).editor
        #expect(try RecordEncoder().encode(draft, updating: newer).fields == ["title": .string("New title")])
    }

    @Test("A model that writes no link where the original links a record the update was not given is an error")
    func unreadOptionalLinkRemoved() throws {
        let (fetched, editor) = Self.fetchedDraft()
        var draft = try RecordDecoder().decode(Draft.self, from: fetched, linkedRecords: [editor])
        draft.editor = nil
        // Removed, or never read: the update cannot tell, and clearing it or leaving it would be a guess.
        let error = expectEncodingError(at: "editor") { _ = try RecordEncoder().encode(draft, updating: fetched) }
        #expect(error?.context?.debugDescription.contains("encodeGraph(_:updating:linkedOriginals:)") == true)
        expectEncodingError(at: "editor") { _ = try RecordsModifyRequest(saving: [draft], updating: [fetched]) }
        // Given the linked record, the update tells: the link was removed.
        let records = try RecordEncoder().encodeGraph(draft, updating: fetched, linkedOriginals: [editor])
        #expect(records.map(\.recordName) == ["D1"])
        #expect(records[0].clearedFields == ["editor"])
        #expect(records[0].fields.isEmpty)
    }

    @Test("New models saved beside updates go to the originals' zone, whether or not the others changed")
    func newModelsTakeTheOriginalsZone() throws {
        let fetched = try Self.fetched()
        var edited = try RecordDecoder().decode(Note.self, from: fetched)
        let new = Note(id: "N9", title: "New", color: .red)
        for title in [edited.title, "Edited"] {
            edited.title = title
            let request = try RecordsModifyRequest(saving: [edited, new], updating: [fetched])
            #expect(request.zoneID == RecordZoneID(zoneName: "Notes", ownerRecordName: "_o"))
            #expect(request.operations.last?.record.recordName == "N9")
        }
        // Originals of two zones leave the zone to the records sent, which must share one.
        var other = try Self.fetched()
        other.recordName = "N2"
        other.metadata?.zoneID = RecordZoneID(zoneName: "Other")
        let unchanged = try RecordDecoder().decode(Note.self, from: other)
        let original = try RecordDecoder().decode(Note.self, from: fetched)
        let mixed = try RecordsModifyRequest(saving: [original, unchanged, new], updating: [fetched, other])
        #expect(mixed.zoneID == nil)
    }

    @Test("A request that saves edited models updates the changed ones, skips the unchanged, creates the new")
    func requestOfEdits() throws {
        let fetched = try Self.fetched()
        var edited = try Self.decodedNote()
        edited.title = "Edited"
        var new = edited
        new.id = "N9"
        new.metadata = nil
        let request = try RecordsModifyRequest(saving: [edited, try Self.decodedNote(), new], updating: [fetched])
        #expect(request.operations.map(\.operationType) == [.update, .create])
        #expect(request.operations[0].record.fields == ["title": .string("Edited")])
        #expect(request.operations[1].record.recordName == "N9")
    }

    @Test("A record's update carries a new parent; an unchanged one is not sent")
    func parentInUpdates() throws {
        let fetched = try Self.fetched()
        #expect(try fetched.update(to: fetched).parent == nil)
        var edited = fetched
        edited.parent = RecordReference(recordName: "folder")
        #expect(try fetched.update(to: edited).parent == RecordReference(recordName: "folder"))
    }

    @Test("A record given where a model is expected is an error that says how to save it")
    func recordIsNotAModel() throws {
        let fetched = try Self.fetched()
        for attempt in [
            { _ = try RecordEncoder().encode(fetched) },
            { _ = try RecordEncoder().encodeGraph(fetched) },
            { _ = try RecordEncoder().encode(Optional(fetched)) },
        ] as [() throws -> Void] {
            let error = expectEncodingError(at: "") { try attempt() }
            #expect(error?.context?.debugDescription.contains("RecordsModifyRequest(savingRecords:)") == true)
        }
    }

    @Test("Models are saved to the encoder's zone when the request names none")
    func encoderZone() throws {
        var encoder = RecordEncoder()
        encoder.zoneID = RecordZoneID(zoneName: "Notes")
        let note = Note(id: "N2", title: "New", color: .red)
        #expect(try RecordsModifyRequest(saving: [note], encoder: encoder).zoneID == encoder.zoneID)
        #expect(try RecordsModifyRequest(saving: [note], deleting: [note], encoder: encoder).zoneID == encoder.zoneID)
        #expect(try RecordsModifyRequest(deleting: [note], encoder: encoder).zoneID == encoder.zoneID)
        let given = RecordZoneID(zoneName: "Other")
        #expect(try RecordsModifyRequest(saving: [note], encoder: encoder, zoneID: given).zoneID == given)
        #expect(try RecordsModifyRequest(saving: [note]).zoneID == nil)
    }
}

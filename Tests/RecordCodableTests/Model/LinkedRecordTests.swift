import Foundation
import Testing

@testable import RecordCodable

/// Models that hold other models, stored as records joined by references.
@Suite("Linked records")
struct LinkedRecordTests {
    struct Author: Codable, Equatable, LinkedRecord {
        var id: String
        var name: String
    }

    struct Comment: Codable, Equatable, LinkedRecord {
        var id: String
        var text: String
        var author: Author
    }

    struct Post: Codable, Equatable {
        var id: String
        var title: String
        var author: Author
        var comments: [Comment]
    }

    static let ada = Author(id: "A1", name: "Ada")
    static let post = Post(
        id: "P1", title: "Engines", author: ada,
        comments: [Comment(id: "C1", text: "First!", author: ada), Comment(id: "C2", text: "Nice.", author: ada)])

    @Test("A post, its author and its comments: one author record, three references to it")
    func postWithAuthorAndComments() throws {
        let records = try RecordEncoder().encodeGraph(Self.post)
        #expect(records.map(\.recordName) == ["P1", "A1", "C1", "C2"])
        #expect(records.map(\.recordType) == ["Post", "Author", "Comment", "Comment"])
        let postRecord = records[0]
        #expect(postRecord["author"] == .reference(RecordReference(recordName: "A1")))
        #expect(
            postRecord["comments"]
                == .list([.reference(RecordReference(recordName: "C1")), .reference(RecordReference(recordName: "C2"))])
        )
        #expect(records[1].fields == ["name": .string("Ada")])
        #expect(records[2]["author"] == .reference(RecordReference(recordName: "A1")))
        #expect(records[3]["author"] == .reference(RecordReference(recordName: "A1")))
        let references = records.flatMap { $0.fields.values }.reduce(into: 0) { count, value in
            if value == .reference(RecordReference(recordName: "A1")) { count += 1 }
        }
        #expect(references == 3)

        let decoded = try RecordDecoder().decode(Post.self, from: postRecord, linkedRecords: records)
        #expect(decoded == Self.post)
    }

    @Test("The plain encoder writes the references alone")
    func plainEncodeWritesReferences() throws {
        let record = try RecordEncoder().encode(Self.post)
        #expect(try record == RecordEncoder().encodeGraph(Self.post)[0])
    }

    @Test("The plain encoder never throws because of a linked model's own fields")
    func plainEncodeIgnoresLinkedModelErrors() throws {
        struct Broken: Codable, Equatable, LinkedRecord {
            var id: String
            var count: UInt64
        }
        struct Holder: Codable, Equatable {
            var id: String
            var broken: Broken
        }
        let holder = Holder(id: "H", broken: Broken(id: "B", count: .max))
        #expect(try RecordEncoder().encode(holder)["broken"] == .reference(RecordReference(recordName: "B")))
        expectEncodingError(at: "count") { _ = try RecordEncoder().encodeGraph(holder) }
    }

    // MARK: Shared and chained models

    final class Person: Codable, LinkedRecord {
        var id: String
        var name: String
        init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    struct Team: Codable {
        var id: String
        var lead: Person
        var members: [Person]
    }

    @Test("A record that several references name is decoded once and shared")
    func sharedInstances() throws {
        let lead = Person(id: "p1", name: "Lead")
        let team = Team(id: "t1", lead: lead, members: [lead, Person(id: "p2", name: "Other")])
        let records = try RecordEncoder().encodeGraph(team)
        #expect(records.map(\.recordName) == ["t1", "p1", "p2"])
        let decoded = try RecordDecoder().decode(Team.self, from: records[0], linkedRecords: records)
        #expect(decoded.lead === decoded.members[0])
        #expect(decoded.members[1].name == "Other")
    }

    struct Country: Codable, Equatable, LinkedRecord {
        var id: String
        var name: String
    }

    struct City: Codable, Equatable, LinkedRecord {
        var id: String
        var country: Country
    }

    struct Address: Codable, Equatable {
        var id: String
        var street: String
        var city: City
    }

    @Test("A three-level chain")
    func threeLevelChain() throws {
        let address = Address(
            id: "ad1", street: "Rue", city: City(id: "c1", country: Country(id: "fr", name: "France")))
        let records = try RecordEncoder().encodeGraph(address)
        #expect(records.map(\.recordName) == ["ad1", "c1", "fr"])
        #expect(records[1]["country"] == .reference(RecordReference(recordName: "fr")))
        #expect(try RecordDecoder().decode(Address.self, from: records[0], linkedRecords: records) == address)
        // The records may come in any order, with others among them.
        let shuffled = [records[2], Record(recordType: "Other", recordName: "x"), records[0], records[1]]
        #expect(try RecordDecoder().decode(Address.self, from: records[0], linkedRecords: shuffled) == address)
    }

    // MARK: Cycles

    final class Node: Codable, LinkedRecord {
        var id: String
        var next: Node?
        init(id: String, next: Node? = nil) {
            self.id = id
            self.next = next
        }

        /// Node n1, which links to n2, which links back to n1; set its `next` to `nil` when done.
        static func cycle() -> Node {
            let first = Node(id: "n1")
            first.next = Node(id: "n2", next: first)
            return first
        }
    }

    @Test("A cycle between two models: encoding ends with both records, decoding is a clear error")
    func cycle() throws {
        let first = Node.cycle()
        defer { first.next = nil }
        let records = try RecordEncoder().encodeGraph(first)
        #expect(records.map(\.recordName) == ["n1", "n2"])
        #expect(records[0]["next"] == .reference(RecordReference(recordName: "n2")))
        #expect(records[1]["next"] == .reference(RecordReference(recordName: "n1")))
        let error = expectDecodingError("dataCorrupted", at: "next.next") {
            _ = try RecordDecoder().decode(Node.self, from: records[0], linkedRecords: records)
        }
        #expect(error?.context?.debugDescription.contains("cycle") == true)
    }

    @Test("A record that links to itself")
    func selfLink() throws {
        let node = Node(id: "self")
        node.next = node
        defer { node.next = nil }
        let records = try RecordEncoder().encodeGraph(node)
        #expect(records.map(\.recordName) == ["self"])
        expectDecodingError("dataCorrupted", at: "next") {
            _ = try RecordDecoder().decode(Node.self, from: records[0], linkedRecords: records)
        }
    }

    // MARK: A set of records for many models

    @Test("A LinkedRecordSet decodes each model as the records themselves do, for many models at once")
    func linkedRecordSet() throws {
        let addresses = [
            Address(id: "ad1", street: "Rue", city: City(id: "c1", country: Country(id: "fr", name: "France"))),
            Address(id: "ad2", street: "Via", city: City(id: "c2", country: Country(id: "it", name: "Italia"))),
        ]
        let records = try addresses.flatMap { try RecordEncoder().encodeGraph($0) }
        let linked = LinkedRecordSet(records)
        let decoded = try records.filter { $0.recordType == "Address" }.map {
            try RecordDecoder().decode(Address.self, from: $0, linkedRecords: linked)
        }
        #expect(decoded == addresses)
        // Missing records, records of another type and cycles read as with the records themselves.
        let draft = try RecordEncoder().encodeGraph(
            Draft(id: "d1", author: Author(id: "A2", name: "Bo"), reviewers: [Self.ada]))
        let withoutAuthor = try RecordDecoder().decode(
            Draft.self, from: draft[0], linkedRecords: LinkedRecordSet([draft[2]]))
        #expect(withoutAuthor.author == nil)
        expectDecodingError("valueNotFound", at: "reviewers.Index 0") {
            _ = try RecordDecoder().decode(Draft.self, from: draft[0], linkedRecords: LinkedRecordSet([]))
        }
        let node = Node(id: "self")
        node.next = node
        defer { node.next = nil }
        let selfLinked = try RecordEncoder().encodeGraph(node)
        expectDecodingError("dataCorrupted", at: "next") {
            _ = try RecordDecoder().decode(Node.self, from: selfLinked[0], linkedRecords: LinkedRecordSet(selfLinked))
        }
    }

    @Test("Left out of the set, a model's own record reads as a record not given: what a store gathers for each")
    func linkedRecordSetWithoutOwnRecord() throws {
        let first = Node.cycle()
        defer { first.next = nil }
        let records = try RecordEncoder().encodeGraph(first)
        let linked = LinkedRecordSet(records)
        // n1 links to n2, which links back to n1: without n1 among its links, n2's link is nil.
        let node = try RecordDecoder().decode(
            Node.self, from: records[0], linkedRecordsExceptItsOwn: linked)
        #expect(node.next?.id == "n2")
        #expect(node.next?.next == nil)
        node.next = nil
        // A record of another type under the model's name is still read.
        let author = Record(recordType: "Author", recordName: "P1", fields: ["name": .string("Ada")])
        var post = try RecordEncoder().encode(Self.post)
        post["author"] = .reference(RecordReference(recordName: "P1"))
        post["comments"] = .list([])
        let decoded = try RecordDecoder().decode(
            Post.self, from: post, linkedRecordsExceptItsOwn: LinkedRecordSet([post, author]))
        #expect(decoded.author == Author(id: "P1", name: "Ada"))
        expectDecodingError("dataCorrupted", at: "next.next") {
            _ = try RecordDecoder().decode(
                Node.self, from: records[0], linkedRecords: linked)
        }
    }

    // MARK: Missing and mismatched records

    struct Draft: Codable, Equatable {
        var id: String
        var author: Author?
        var reviewers: [Author]
    }

    @Test("A missing linked record: nil for an optional property, valueNotFound for another")
    func missingRecords() throws {
        let draft = Draft(id: "d1", author: Author(id: "A2", name: "Bo"), reviewers: [Self.ada])
        let records = try RecordEncoder().encodeGraph(draft)
        #expect(records.map(\.recordName) == ["d1", "A2", "A1"])
        let withoutAuthor = try RecordDecoder().decode(Draft.self, from: records[0], linkedRecords: [records[2]])
        #expect(withoutAuthor.author == nil)
        #expect(withoutAuthor.reviewers == [Self.ada])

        let error = expectDecodingError("valueNotFound", at: "author") {
            _ = try RecordDecoder().decode(Post.self, from: RecordEncoder().encode(Self.post))
        }
        #expect(error?.context?.debugDescription.contains("'A1'") == true)
        expectDecodingError("valueNotFound", at: "reviewers.Index 0") {
            _ = try RecordDecoder().decode(Draft.self, from: records[0], linkedRecords: [] as [Record])
        }
    }

    @Test("Decoded alone unless it reads a link: a model, or nil once it looks a linked record up, and its type noted")
    func decodeUnlessItReadsALink() throws {
        // Each type here is the test's own: what a type has read is noted for the whole process.
        struct Plain: Codable, Equatable {
            var id: String
            var next: RecordReference?
        }
        struct Reviewed: Codable, Equatable {
            var id: String
            var reviewer: Author?
            var readers: [Author]
        }
        struct Authored: Codable, Equatable {
            var id: String
            var author: Author
        }
        let decoder = RecordDecoder()
        // A plain reference is no linked record: the model reads alone, and its type reads no link.
        let plain = Plain(id: "s1", next: RecordReference(recordName: "s2"))
        #expect(try decoder.decodeUnlessItReadsALink(Plain.self, from: RecordEncoder().encode(plain)) == plain)
        #expect(!RecordDecoder.readsLinkedRecords(Plain.self))
        // An optional link that holds no reference, and an empty list of links, look nothing up.
        let unreviewed = Reviewed(id: "r1", reviewer: nil, readers: [])
        #expect(
            try decoder.decodeUnlessItReadsALink(Reviewed.self, from: RecordEncoder().encode(unreviewed)) == unreviewed)
        #expect(!RecordDecoder.readsLinkedRecords(Reviewed.self))
        // One that holds a reference is looked up, found or not: nil, and the type is noted.
        let reviewed = try RecordEncoder().encode(Reviewed(id: "r2", reviewer: Self.ada, readers: []))
        #expect(try decoder.decodeUnlessItReadsALink(Reviewed.self, from: reviewed) == nil)
        #expect(RecordDecoder.readsLinkedRecords(Reviewed.self))
        // So is a list's: the type's next models are decoded with their links, not alone.
        let read = try RecordEncoder().encode(Reviewed(id: "r3", reviewer: nil, readers: [Self.ada]))
        #expect(try decoder.decodeUnlessItReadsALink(Reviewed.self, from: read) == nil)
        // A required link not given fails, for want of it: nil rather than the error.
        let authored = try RecordEncoder().encode(Authored(id: "a1", author: Self.ada))
        #expect(try decoder.decodeUnlessItReadsALink(Authored.self, from: authored) == nil)
        #expect(RecordDecoder.readsLinkedRecords(Authored.self))
        // A model that fails before it reads a link fails as it would with its links.
        var broken = try RecordEncoder().encode(plain)
        broken["next"] = .string("s2")
        expectDecodingError("typeMismatch", at: "next") {
            _ = try decoder.decodeUnlessItReadsALink(Plain.self, from: broken)
        }
        #expect(!RecordDecoder.readsLinkedRecords(Plain.self))
    }

    @Test("A reference to a record of the wrong type is a clear error")
    func wrongRecordType() throws {
        var records = try RecordEncoder().encodeGraph(Self.post)
        records[1].recordType = "Publisher"
        let error = expectDecodingError("typeMismatch", at: "author") {
            _ = try anyTypeDecoder.decode(Post.self, from: records[0], linkedRecords: records)
        }
        #expect(error?.context?.debugDescription.contains("'Publisher'") == true)
        // An optional link reads nil: the record of its type was not given.
        struct MaybeAuthored: Codable, Equatable {
            var id: String
            var author: Author?
        }
        let maybe = try anyTypeDecoder.decode(MaybeAuthored.self, from: records[0], linkedRecords: records)
        #expect(maybe.author == nil)
    }

    @Test("Errors inside a linked record carry the path of the reference")
    func errorsInsideLinkedRecords() throws {
        var records = try RecordEncoder().encodeGraph(Self.post)
        records[1]["name"] = .int64(1)
        expectDecodingError("typeMismatch", at: "author.name") {
            _ = try RecordDecoder().decode(Post.self, from: records[0], linkedRecords: records)
        }
    }

    /// A linked model that refuses one name with an error of its own.
    struct Picky: Codable, Equatable, LinkedRecord {
        struct Refused: Error {}

        var id: String
        var name: String

        init(id: String, name: String) {
            self.id = id
            self.name = name
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
            if name == "refused" { throw Refused() }
        }
    }

    /// Reads the same linked record twice, the first time ready for it to fail.
    struct TwoPicks: Codable, Equatable {
        var id: String
        var first: Picky
        var second: Picky

        init(id: String, pick: Picky) {
            self.id = id
            first = pick
            second = pick
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            first = (try? container.decode(Picky.self, forKey: .first)) ?? Picky(id: "none", name: "none")
            second = try container.decode(Picky.self, forKey: .second)
        }
    }

    @Test("A linked model's own error passes through unchanged, and its record can be read again")
    func linkedModelsOwnError() throws {
        let records = try RecordEncoder().encodeGraph(TwoPicks(id: "t", pick: Picky(id: "p", name: "fine")))
        #expect(records.map(\.recordName) == ["t", "p"])
        let decoded = try RecordDecoder().decode(TwoPicks.self, from: records[0], linkedRecords: records)
        #expect(decoded.first == Picky(id: "p", name: "fine"))
        #expect(decoded.second == decoded.first)

        var refusing = records
        refusing[1]["name"] = .string("refused")
        // The second read meets the same error again, not a cycle left over from the first.
        #expect(throws: Picky.Refused.self) {
            _ = try RecordDecoder().decode(TwoPicks.self, from: refusing[0], linkedRecords: refusing)
        }
    }

    @Test("A holder decodes without its linked records into a model that holds the references")
    func referencesAlone() throws {
        struct PostReferences: Codable, Equatable {
            var id: String
            var title: String
            var author: RecordReference
            var comments: [RecordReference]
        }
        let decoded = try anyTypeDecoder.decode(PostReferences.self, from: RecordEncoder().encode(Self.post))
        #expect(decoded.author == RecordReference(recordName: "A1"))
        #expect(decoded.comments.map(\.recordName) == ["C1", "C2"])
    }

    // MARK: Actions and zones

    struct Album: Codable, Equatable, LinkedRecord {
        var id: String
        var title: String
    }

    struct Photo: Codable, Equatable {
        var id: String
        @Link.DeleteSelf var album: Album
        @Link.Validate var owner: Author?
        @Link.DeleteSelf var collections: [Album]
        var photographer: Author
    }

    static let photo = Photo(
        id: "ph1", album: Album(id: "al1", title: "Summer"), owner: ada,
        collections: [Album(id: "al2", title: "Best")], photographer: Author(id: "A2", name: "Bo"))

    @Test("Owned records link to their owners with deleteSelf; a property may ask for validate")
    func actions() throws {
        let records = try RecordEncoder().encodeGraph(Self.photo)
        let record = records[0]
        #expect(record["album"] == .reference(RecordReference(recordName: "al1", action: .deleteSelf)))
        #expect(record["owner"] == .reference(RecordReference(recordName: "A1", action: .validate)))
        #expect(record["collections"] == .list([.reference(RecordReference(recordName: "al2", action: .deleteSelf))]))
        #expect(record["photographer"] == .reference(RecordReference(recordName: "A2", action: .none)))
        #expect(records.map(\.recordName) == ["ph1", "al1", "A1", "al2", "A2"])
        #expect(try RecordDecoder().decode(Photo.self, from: record, linkedRecords: records) == Self.photo)
        var withoutOwner = Self.photo
        withoutOwner.owner = nil
        let ownerless = try RecordEncoder().encodeGraph(withoutOwner)
        #expect(ownerless[0]["owner"] == nil)
        #expect(try RecordDecoder().decode(Photo.self, from: ownerless[0], linkedRecords: ownerless) == withoutOwner)
        let missingOwner = try RecordDecoder().decode(
            Photo.self, from: records[0], linkedRecords: [records[1], records[3], records[4]])
        #expect(missingOwner.owner == nil)
    }

    /// A photo written by hand through the record's nested containers.
    struct HandWrittenPhoto: Encodable {
        var id = "hp1"
        @Link.DeleteSelf var album = Album(id: "al1", title: "Summer")
        @Link.Validate var albums = [Album(id: "al2", title: "Best")]
        var members: [Author?] = [Author(id: "A1", name: "Ada"), Author(id: "A2", name: "Bo")]

        enum Keys: CodingKey { case id, album, albums, members }

        func encode(to encoder: any Encoder) throws {
            var record = encoder.container(keyedBy: Keys.self)
            try record.encode(id, forKey: .id)
            var album = record.superEncoder(forKey: .album).singleValueContainer()
            try album.encode(_album)
            var albums = record.superEncoder(forKey: .albums).singleValueContainer()
            try albums.encode(_albums)
            try record.encode(members, forKey: .members)
        }
    }

    @Test("Link actions and optional linked models hold through the record's nested containers")
    func linksThroughNestedContainers() throws {
        let records = try RecordEncoder().encodeGraph(HandWrittenPhoto())
        let record = records[0]
        #expect(record["album"] == .reference(RecordReference(recordName: "al1", action: .deleteSelf)))
        #expect(record["albums"] == .list([.reference(RecordReference(recordName: "al2", action: .validate))]))
        #expect(
            record["members"]
                == .list([.reference(RecordReference(recordName: "A1")), .reference(RecordReference(recordName: "A2"))])
        )
        #expect(Set(records.map(\.recordName)) == ["hp1", "al1", "al2", "A1", "A2"])
    }

    @Test("The action wrappers are transparent in JSON")
    func wrappersInJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(Self.photo)
        #expect(try JSONDecoder().decode(Photo.self, from: json) == Self.photo)
        #expect(String(decoding: json, as: UTF8.self).contains(#""album":{"id":"al1","title":"Summer"}"#))
    }

    @Test("The encoder's zone is carried on every reference")
    func zones() throws {
        var encoder = RecordEncoder()
        let zone = RecordZoneID(zoneName: "Photos", ownerRecordName: "_me")
        encoder.zoneID = zone
        let record = try encoder.encode(Self.photo)
        #expect(record["album"] == .reference(RecordReference(recordName: "al1", action: .deleteSelf, zoneID: zone)))
        #expect(record["photographer"] == .reference(RecordReference(recordName: "A2", zoneID: zone)))
    }

    // MARK: Identity

    @Test("An Identifiable model without an identifier key is named by its id")
    func identifiable() throws {
        struct Tag: Codable, Equatable, LinkedRecord, Identifiable {
            var slug: String
            var id: String { "tag-" + slug }
        }
        struct Article: Codable, Equatable {
            var id: String
            var tag: Tag
        }
        let records = try RecordEncoder().encodeGraph(Article(id: "a", tag: Tag(slug: "swift")))
        #expect(records[0]["tag"] == .reference(RecordReference(recordName: "tag-swift")))
        #expect(records[1].recordName == "tag-swift")
    }

    /// A linked model with no identity of its own.
    struct AnonymousNote: Codable, Equatable, LinkedRecord {
        var text: String
    }

    /// A holder of one linked note.
    struct Board<Note: Codable & Equatable & LinkedRecord>: Codable, Equatable {
        var id: String
        var note: Note
    }

    @Test("A linked model without any identity is an error at the holder's field, since its name would change")
    func anonymousLinkedModel() throws {
        let board = Board(id: "b", note: AnonymousNote(text: "hi"))
        let error = expectEncodingError(at: "note") { _ = try RecordEncoder().encode(board) }
        #expect(error?.debugDescription.contains("has no identity") == true, "\(String(describing: error))")
        expectEncodingError(at: "note") { _ = try RecordEncoder().encodeGraph(board) }
        var encoder = RecordEncoder()
        encoder.identifierKey = nil
        let unkeyed = expectEncodingError(at: "note") { _ = try encoder.encode(board) }
        #expect(unkeyed?.debugDescription.contains("making it Identifiable") == true)
    }

    @Test("A list of linked models without identity is an error at the element")
    func anonymousLinkedModelsInAList() throws {
        struct Pinboard: Codable, Equatable {
            var id: String
            var notes: [AnonymousNote]
        }
        expectEncodingError(at: "notes.Index 0") {
            _ = try RecordEncoder().encode(Pinboard(id: "b", notes: [AnonymousNote(text: "a")]))
        }
    }

    @Test(
        "A linked model's identifier that cannot name a record is an error at its path inside the field",
        arguments: ["", "_private", String(repeating: "x", count: 256)])
    func linkedIdentifierThatCannotName(identifier: String) throws {
        let post = Post(id: "P", title: "t", author: Author(id: identifier, name: "n"), comments: [])
        let plain = expectEncodingError(at: "author.id") { _ = try RecordEncoder().encode(post) }
        #expect(plain?.debugDescription.contains("cannot name the record") == true, "\(String(describing: plain))")
        expectEncodingError(at: "author.id") { _ = try RecordEncoder().encodeGraph(post) }
        let listed = Post(
            id: "P", title: "t", author: Author(id: "A", name: "n"),
            comments: [Comment(id: "C", text: "c", author: Author(id: identifier, name: "n"))])
        // The comment's own record holds the reference to the author.
        expectEncodingError(at: "author.id") { _ = try RecordEncoder().encodeGraph(listed) }
    }

    @Test("A linked model whose identifier is not text or an integer is an error at the identifier")
    func linkedIdentifierOfAnotherKind() throws {
        struct Flag: Codable, Equatable, LinkedRecord {
            var id: Bool
        }
        struct Holder: Codable, Equatable {
            var id: String
            var flag: Flag
        }
        expectEncodingError(at: "flag.id") { _ = try RecordEncoder().encode(Holder(id: "h", flag: Flag(id: true))) }
    }

    @Test("An Identifiable linked model whose id cannot name a record is an error at the field")
    func identifiableIdThatCannotName() throws {
        struct Tag: Codable, Equatable, LinkedRecord, Identifiable {
            var slug: String
            var id: String { slug }
        }
        struct Article: Codable, Equatable {
            var id: String
            var tag: Tag
        }
        let error = expectEncodingError(at: "tag") {
            _ = try RecordEncoder().encode(Article(id: "a", tag: Tag(slug: "")))
        }
        #expect(error?.debugDescription.contains("The id of the linked Tag cannot name its record") == true)
    }

    @Test("An Identifiable linked model with an optional id is named by the value it holds")
    func identifiableOptionalId() throws {
        struct Tag: Codable, Equatable, LinkedRecord, Identifiable {
            var id: Int?
            var title: String
        }
        struct Article: Codable, Equatable {
            var key: String
            var tag: Tag
        }
        var encoder = RecordEncoder()
        encoder.identifierKey = nil
        let records = try encoder.encodeGraph(Article(key: "a", tag: Tag(id: 5, title: "t")))
        #expect(records[0]["tag"] == .reference(RecordReference(recordName: "5")))
        #expect(records[1].recordName == "5")
    }

    @Test("A linked model whose identifier is nil is a model not created yet: a new name, the same in its record")
    func linkedModelNotCreatedYet() throws {
        struct Note: Codable, Equatable, LinkedRecord {
            var id: String?
            var text: String
        }
        let records = try RecordEncoder().encodeGraph(Board(id: "b", note: Note(id: nil, text: "hi")))
        guard case .reference(let reference)? = records[0]["note"] else {
            Issue.record("a reference")
            return
        }
        #expect(UUID(uuidString: reference.recordName) != nil)
        #expect(records[1].recordName == reference.recordName)
    }

    // MARK: The wire

    @Test("A graph travels in one records/modify request and comes back whole")
    func graphThroughTheWire() throws {
        let records = try RecordEncoder().encodeGraph(Self.photo)
        let request = RecordsModifyRequest(savingRecords: records, atomic: true)
        #expect(request.operations.map(\.operationType) == [.create, .create, .create, .create, .create])
        let json = try JSONEncoder().encode(request)
        let received = try JSONDecoder().decode(RecordsModifyRequest.self, from: json).operations.map(\.record)
        #expect(received == records)
        #expect(try RecordDecoder().decode(Photo.self, from: received[0], linkedRecords: received) == Self.photo)
    }
}

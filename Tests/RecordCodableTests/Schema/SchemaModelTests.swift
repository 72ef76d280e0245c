import Foundation
import Testing

@testable import RecordCodable

/// The schema of model types, found from the types alone, as the encoder would store them.
@Suite("The schema of a model")
struct SchemaModelTests {
    typealias Field = RecordSchema.Field
    typealias RecordType = RecordSchema.RecordType

    enum Level: String, RecordEnum {
        case bronze, gold, unknown
        static var fallbackCase: Level { .unknown }
    }

    enum Priority: Int, Codable, CaseIterable {
        case low = 1
        case high = 2
    }

    enum Shape: Codable, CaseIterable, Equatable {
        case circle(radius: Double)
        case square
        static var allCases: [Shape] { [.square] }
    }

    struct Style: Codable, Equatable {
        var font: String
        var size: Int
        var range: ClosedRange<Int>
        var shape: Shape
    }

    struct Author: Codable, Equatable, LinkedRecord {
        var id: String
        var name: String
    }

    struct Notes: RecordAssetValue, Equatable {
        var lines: [String]
    }

    /// A property of every kind the encoder maps.
    struct Everything: Codable, Equatable {
        var id: UUID
        var text: String
        var count: Int
        var small: UInt8
        var ratio: Double
        var precise: Float
        var flag: Bool
        var when: Date
        var blob: Data
        var website: URL
        var photo: URL
        var uuid: UUID
        var amount: Decimal
        var level: Level
        var priority: Priority
        var tags: [String]
        var numbers: [Int]
        var weights: [Double]
        var days: [Date]
        var labels: Set<String>
        var levels: [Level]
        var link: RecordReference
        var file: RecordAsset
        var place: RecordLocation
        var style: Style
        var settings: [String: Int]
        var grid: [[Int]]
        var gaps: [Int?]
        var author: Author
        var coauthor: Author?
        var reviewers: [Author]
        var maybeReviewers: [Author?]
        @Link.DeleteSelf var owner: Author
        var notes: Notes
        var attachments: [URL]
        @Encrypted var pin: String
        @Encrypted var secretTags: [String]
        @Encrypted var hint: String?
        var nickname: String?
        var metadata: RecordMetadata?
    }

    static let expectedFields: [Field] = [
        Field(name: "amount", type: .string),
        Field(name: "attachments", type: .list(.asset)),
        Field(name: "author", type: .reference),
        Field(name: "blob", type: .bytes),
        Field(name: "coauthor", type: .reference),
        Field(name: "count", type: .int64),
        Field(name: "days", type: .list(.timestamp)),
        Field(name: "file", type: .asset),
        Field(name: "flag", type: .int64),
        Field(name: "gaps", type: .bytes),
        Field(name: "grid", type: .bytes),
        Field(name: "hint", type: .string, isEncrypted: true),
        Field(name: "labels", type: .list(.string)),
        Field(name: "level", type: .string),
        Field(name: "levels", type: .list(.string)),
        Field(name: "link", type: .reference),
        Field(name: "maybeReviewers", type: .list(.reference)),
        Field(name: "nickname", type: .string),
        Field(name: "notes", type: .asset),
        Field(name: "numbers", type: .list(.int64)),
        Field(name: "owner", type: .reference),
        Field(name: "photo", type: .asset),
        Field(name: "pin", type: .string, isEncrypted: true),
        Field(name: "place", type: .location),
        Field(name: "precise", type: .double),
        Field(name: "priority", type: .int64),
        Field(name: "ratio", type: .double),
        Field(name: "reviewers", type: .list(.reference)),
        Field(name: "secretTags", type: .list(.string), isEncrypted: true),
        Field(name: "settings", type: .bytes),
        Field(name: "small", type: .int64),
        Field(name: "style", type: .bytes),
        Field(name: "tags", type: .list(.string)),
        Field(name: "text", type: .string),
        Field(name: "uuid", type: .string),
        Field(name: "website", type: .string),
        Field(name: "weights", type: .list(.double)),
        Field(name: "when", type: .timestamp),
    ]

    @Test("Every kind of property becomes the field the encoder writes; the identifier and metadata are none")
    func everyKind() throws {
        let recordType = try RecordType(Everything.self, fileURLKeys: ["photo", "attachments"])
        #expect(recordType.name == "Everything")
        #expect(recordType.modelFields.count == Self.expectedFields.count)
        for (found, expected) in zip(recordType.modelFields, Self.expectedFields) {
            #expect(found == expected)
        }
        #expect(recordType.field(named: "id") == nil)
        #expect(recordType.field(named: "metadata") == nil)
    }

    @Test("The schema agrees with the records the encoder writes for a value of the model")
    func agreesWithEncoder() throws {
        try withTemporaryDirectory { directory in
            let author = Author(id: "A1", name: "Ada")
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            let value = Everything(
                id: UUID(), text: "t", count: 1, small: 2, ratio: 0.5, precise: 1.5, flag: true, when: date,
                blob: Data([1]), website: URL(string: "https://example.com") ?? directory,
                photo: directory.appendingPathComponent("p.png"), uuid: UUID(), amount: 1.5, level: .gold,
                priority: .high, tags: ["a"], numbers: [1], weights: [0.5], days: [date], labels: ["x"],
                levels: [.gold], link: RecordReference(recordName: "R"), file: RecordAsset(fileURL: directory),
                place: RecordLocation(latitude: 1, longitude: 2),
                style: Style(font: "Serif", size: 12, range: 1...2, shape: .circle(radius: 1)),
                settings: ["a": 1], grid: [[1]], gaps: [1, nil], author: author, coauthor: author,
                reviewers: [author], maybeReviewers: [author], owner: author, notes: Notes(lines: ["n"]),
                attachments: [directory.appendingPathComponent("a.pdf")], pin: "1234", secretTags: ["s"], hint: "h",
                nickname: "n", metadata: nil)
            var encoder = RecordEncoder()
            encoder.assetDirectory = directory
            let record = try encoder.encode(value)
            let recordType = try RecordType(Everything.self, fileURLKeys: ["photo", "attachments"])
            #expect(Set(record.fields.keys) == Set(recordType.modelFields.map(\.name)))
            for (name, fieldValue) in record.fields {
                #expect(recordType.field(named: name)?.type == fieldValue.schemaType, "\(name)")
            }
            #expect(record.encryptedFields == Set(recordType.fields.filter(\.isEncrypted).map(\.name)))
        }
    }

    @Test("The quickstart's model, a URL of each kind")
    func quickstartLikeModel() throws {
        struct Member: Codable, RecordRepresentable {
            static var recordType: String { "ClubMember" }
            var id: UUID
            var name: String
            var level: Level
            var website: URL
            var portrait: URL
            var referrer: String?
            var metadata: RecordMetadata?
        }
        let recordType = try RecordType(Member.self, fileURLKeys: ["portrait"])
        #expect(recordType.name == "ClubMember")
        #expect(
            recordType.modelFields == [
                Field(name: "level", type: .string), Field(name: "name", type: .string),
                Field(name: "portrait", type: .asset), Field(name: "referrer", type: .string),
                Field(name: "website", type: .string),
            ])
    }

    @Test("Metadata inside two optionals is no field, as the encoder writes it")
    func doublyOptionalMetadata() throws {
        struct Memo: Codable {
            var id: String
            var text: String
            var metadata: RecordMetadata??
        }
        let recordType = try RecordType(Memo.self)
        #expect(recordType.modelFields == [Field(name: "text", type: .string)])
        let memo = Memo(id: "M1", text: "hi", metadata: .some(RecordMetadata(changeTag: "t1")))
        let record = try RecordEncoder().encode(memo)
        #expect(Set(record.fields.keys) == Set(recordType.modelFields.map(\.name)))
        #expect(record.metadata?.changeTag == "t1")
    }

    @Test("The encoder's options: identifier kept as a field, key strategy, encrypted keys")
    func encoderOptions() throws {
        struct Card: Codable {
            var cardID: Int
            var holderName: String
            var pinCode: String
        }
        var encoder = RecordEncoder()
        encoder.identifierKey = "cardID"
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.encryptedKeys = ["pinCode"]
        #expect(
            try RecordType(Card.self, encoder: encoder).modelFields == [
                Field(name: "holder_name", type: .string), Field(name: "pin_code", type: .string, isEncrypted: true),
            ])
        encoder.storesIdentifierAsField = true
        #expect(
            try RecordType(Card.self, encoder: encoder).field(named: "card_id") == Field(name: "card_id", type: .int64))
        encoder.identifierKey = nil
        #expect(try RecordType(Card.self, encoder: encoder).modelFields.count == 3)
    }

    @Test("An encrypted identifier is an error, as the encoder makes it, unless it is kept as a field too")
    func encryptedIdentifier() throws {
        struct Card: Codable {
            var id: String
            var pin: String
        }
        struct Locked: Codable {
            @Encrypted var id: String
            var pin: String
        }
        var encoder = RecordEncoder()
        encoder.encryptedKeys = ["id"]
        let byKey = expectEncodingError(at: "id") { _ = try RecordType(Card.self, encoder: encoder) }
        let encoded = expectEncodingError(at: "id") { _ = try encoder.encode(Card(id: "c", pin: "1")) }
        #expect(byKey?.context?.debugDescription == encoded?.context?.debugDescription)
        expectEncodingError(at: "id") { _ = try RecordType(Locked.self) }
        expectEncodingError(at: "id") { _ = try RecordEncoder().encode(Locked(id: "c", pin: "1")) }
        encoder.storesIdentifierAsField = true
        #expect(
            try RecordType(Card.self, encoder: encoder).field(named: "id")
                == Field(name: "id", type: .string, isEncrypted: true))
    }

    @Test("Coding keys name the fields; a class and its superclass make one record type")
    func codingKeysAndClasses() throws {
        class Base: Codable {
            var id = "B"
            var created = Date()
        }
        final class Post: Base {
            var title = ""
            private enum CodingKeys: String, CodingKey { case title = "headline" }
            override init() { super.init() }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                title = try container.decode(String.self, forKey: .title)
                try super.init(from: container.superDecoder())
            }
        }
        #expect(
            try RecordType(Post.self).modelFields == [
                Field(name: "created", type: .timestamp), Field(name: "headline", type: .string),
            ])
    }

    @Test("A hand-written init(from:) is described by what it reads; a list read by hand, by its first element")
    func handWrittenDecoding() throws {
        struct Reading: Decodable {
            enum Keys: String, CodingKey { case id, values, extra, base, point, x, counts, holes, pairs, rows, parents }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                _ = try container.decode(String.self, forKey: .id)
                var values = try container.nestedUnkeyedContainer(forKey: .values)
                while !values.isAtEnd { _ = try values.decode(Double.self) }
                let extra = try container.nestedContainer(keyedBy: Keys.self, forKey: .extra)
                _ = try extra.decodeIfPresent(Int.self, forKey: .x)
                _ = try container.superDecoder(forKey: .base)
                if try !container.decodeNil(forKey: .point) {
                    _ = try container.decode(RecordLocation.self, forKey: .point)
                }
                var counts = try container.nestedUnkeyedContainer(forKey: .counts)
                _ = try counts.decode(UInt16.self)
                var holes = try container.nestedUnkeyedContainer(forKey: .holes)
                _ = try holes.decodeNil()
                var pairs = try container.nestedUnkeyedContainer(forKey: .pairs)
                _ = try pairs.nestedContainer(keyedBy: Keys.self)
                var rows = try container.nestedUnkeyedContainer(forKey: .rows)
                _ = try rows.nestedUnkeyedContainer()
                var parents = try container.nestedUnkeyedContainer(forKey: .parents)
                _ = try parents.superDecoder()
            }
        }
        #expect(
            try RecordType(Reading.self).modelFields == [
                Field(name: "base", type: .bytes), Field(name: "counts", type: .list(.int64)),
                Field(name: "extra", type: .bytes), Field(name: "holes", type: .bytes),
                Field(name: "pairs", type: .bytes),
                Field(name: "parents", type: .bytes), Field(name: "point", type: .location),
                Field(name: "rows", type: .bytes), Field(name: "values", type: .list(.double)),
            ])
    }

    /// A model of one property, to find the field of one type.
    struct One<Value: Codable>: Codable {
        var value: Value
    }

    enum Small: Int8, Codable, CaseIterable { case one = 1 }
    enum Wide: UInt16, Codable, CaseIterable { case one = 1 }

    /// Expects the schema of a property of `value`'s type, and the field the encoder writes for
    /// `value`, to be of `type`.
    func expectField<Value: Codable>(
        _ value: Value, _ type: RecordSchema.FieldType, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let described = try RecordType(One<Value>.self).field(named: "value")?.type
        let written = try RecordEncoder().encode(One(value: value))["value"]?.schemaType
        #expect(
            described == type, "\(Value.self) is described as \(String(describing: described))",
            sourceLocation: sourceLocation)
        #expect(
            written == type, "\(Value.self) is written as \(String(describing: written))",
            sourceLocation: sourceLocation)
    }

    @Test(
        "Every width of integer and Float, alone, optional, as a raw value or in a list, is the field the encoder writes"
    )
    func numberWidths() throws {
        try expectField(Int8(-8), .int64)
        try expectField(Int16(-16), .int64)
        try expectField(Int32(-32), .int64)
        try expectField(Int64(-64), .int64)
        try expectField(UInt(1), .int64)
        try expectField(UInt8(8), .int64)
        try expectField(UInt16(16), .int64)
        try expectField(UInt32(32), .int64)
        try expectField(UInt64(64), .int64)
        try expectField(Float(0.5), .double)
        try expectField(Int16?.some(7), .int64)
        try expectField(Float?.some(1.5), .double)
        try expectField(Small.one, .int64)
        try expectField([Wide.one], .list(.int64))
        try expectField([Int8(1)], .list(.int64))
        try expectField([UInt64(2)], .list(.int64))
        try expectField([Float(0.25)], .list(.double))
        try expectField([true], .list(.int64))
    }

    enum Color: String, Codable { case red, blue }

    @Test("A dictionary is JSON bytes whatever its keys, as the encoder stores it")
    func dictionaryKeys() throws {
        try expectField([Color.red: 1], .bytes)
        try expectField([UUID(): "x"], .bytes)
        try expectField([1.5: 2.5], .bytes)
        try expectField([Date(timeIntervalSince1970: 0): [Color.blue]], .bytes)
        try expectField(["a": 1], .bytes)
        try expectField([1: "a"], .bytes)
    }

    @Test("A list read by hand with decodeNil ends after its first element, nil or not")
    func handWrittenListWithNils() throws {
        struct Readings: Decodable {
            enum Keys: String, CodingKey { case id, values }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                _ = try container.decode(String.self, forKey: .id)
                var list = try container.nestedUnkeyedContainer(forKey: .values)
                var read = 0
                while !list.isAtEnd {
                    read += 1
                    // The probe's list ends; a list that did not would fail here, not loop.
                    guard read < 100 else { throw CocoaError(.coderReadCorrupt) }
                    if try !list.decodeNil() { _ = try list.decode(Int.self) }
                }
            }
        }
        #expect(try RecordType(Readings.self).modelFields == [Field(name: "values", type: .bytes)])

        struct Counted: Decodable {
            enum Keys: String, CodingKey { case id, values }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                _ = try container.decode(String.self, forKey: .id)
                var list = try container.nestedUnkeyedContainer(forKey: .values)
                for _ in 0..<(list.count ?? 0) { _ = try list.decode(Double.self) }
            }
        }
        #expect(try RecordType(Counted.self).modelFields == [Field(name: "values", type: .list(.double))])
    }

    /// A list that skips the elements it cannot read, as apps write to read lists from newer
    /// versions: `try?` on each element, in a loop until the end.
    struct LossyList<Element: Codable>: Codable {
        var elements: [Element]

        init(_ elements: [Element]) {
            self.elements = elements
        }

        private struct Skipped: Decodable {}

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var elements: [Element] = []
            var read = 0
            while !container.isAtEnd {
                read += 1
                // The probe's list ends; a list that did not would fail here, not loop.
                guard read < 100 else { throw CocoaError(.coderReadCorrupt) }
                if let element = try? container.decode(Element.self) {
                    elements.append(element)
                } else {
                    _ = try? container.decode(Skipped.self)
                }
            }
            self.elements = elements
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        }
    }

    @Test("A list that reads past the elements it cannot decode is described by its first, as it is stored")
    func lossyList() throws {
        struct Feed: Codable {
            var id = "f"
            var tags = LossyList(["a", "b"])
            var scores = [LossyList([1])]
        }
        let record = try RecordEncoder().encode(Feed())
        #expect(record["tags"] == .list([.string("a"), .string("b")]))
        #expect(
            try RecordType(Feed.self).modelFields == [
                Field(name: "scores", type: .bytes), Field(name: "tags", type: .list(.string)),
            ])
    }

    @Test("A lossy list whose element refuses the probe's answers is an error at the field, not a loop")
    func lossyListOfRefusingElements() throws {
        struct Refusing: Codable {
            init() {}
            init(from decoder: any Decoder) throws { throw CocoaError(.coderReadCorrupt) }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode("r")
            }
        }
        struct Feed: Codable {
            var id = "f"
            var items = LossyList([Refusing()])
        }
        expectDecodingError("dataCorrupted", at: "items") { _ = try RecordType(Feed.self) }
    }

    @Test("Indexes by property key or system field name, and grants")
    func indexesAndGrants() throws {
        struct Note: Codable {
            var id: String
            var title: String
            var createdAt: Date
        }
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let recordType = try RecordType(
            Note.self, encoder: encoder,
            indexes: ["title": [.queryable, .searchable], "createdAt": .sortable, "___recordID": .queryable],
            grants: RecordSchema.Grant.publicDatabase)
        #expect(
            recordType.modelFields == [
                Field(name: "___recordID", type: .reference, indexes: .queryable),
                Field(name: "created_at", type: .timestamp, indexes: .sortable),
                Field(name: "title", type: .string, indexes: [.queryable, .searchable]),
            ])
        #expect(recordType.grants == RecordSchema.Grant.publicDatabase)
    }

    // MARK: Errors

    @Test("An option that names no property, no URL, or an encrypted field's index is an error at its key")
    func optionErrors() throws {
        struct Secret: Codable {
            var id: String
            var title: String
            @Encrypted var pin: String
            @Encrypted var photo: URL
        }
        struct Plain: Codable {
            var id: String
            var title: String
        }
        expectEncodingError(at: "titel") { _ = try RecordType(Plain.self, indexes: ["titel": .queryable]) }
        expectEncodingError(at: "___nothing") { _ = try RecordType(Plain.self, indexes: ["___nothing": .queryable]) }
        let identifier = expectEncodingError(at: "id") { _ = try RecordType(Plain.self, indexes: ["id": .queryable]) }
        #expect(identifier?.context?.debugDescription.contains("___recordID") == true)
        expectEncodingError(at: "cover") { _ = try RecordType(Plain.self, fileURLKeys: ["cover"]) }
        expectEncodingError(at: "title") { _ = try RecordType(Plain.self, fileURLKeys: ["title"]) }
        expectEncodingError(at: "pin") { _ = try RecordType(Secret.self, indexes: ["pin": .queryable]) }
        // An encrypted URL is text unless it holds a file, which CloudKit cannot encrypt.
        #expect(
            try RecordType(Secret.self).field(named: "photo") == Field(name: "photo", type: .string, isEncrypted: true))
        let error = expectEncodingError(at: "photo") { _ = try RecordType(Secret.self, fileURLKeys: ["photo"]) }
        #expect(error?.context?.debugDescription.contains("never encrypts references") == true)
    }

    @Test("An encrypted reference, linked model or asset value is an error at its key")
    func encryptedReference() throws {
        struct Holder: Codable {
            var id: String
            @Encrypted var author: Author
        }
        expectEncodingError(at: "author") { _ = try RecordType(Holder.self) }
    }

    @Test("A key that makes no field name is an error at its key, as the encoder reports it")
    func invalidFieldName() throws {
        struct Odd: Codable {
            var id: String
            var value: Int
            enum CodingKeys: String, CodingKey {
                case id
                case value = "a value"
            }
        }
        expectEncodingError(at: "a value") { _ = try RecordType(Odd.self) }
    }

    @Test("Two keys the key strategy stores in one field are an error at the second, naming both")
    func twoKeysOneField() throws {
        struct Clash: Codable {
            var id: String
            var imageURL: String
            var imageUrl: String
            enum CodingKeys: String, CodingKey {
                case id, imageURL
                case imageUrl = "image_url"
            }
        }
        var encoder = RecordEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        expectEncodingError(at: "image_url") { _ = try RecordType(Clash.self, encoder: encoder) }
        do {
            _ = try RecordType(Clash.self, encoder: encoder)
        } catch let EncodingError.invalidValue(_, context) {
            #expect(
                context.debugDescription.contains("'imageURL' and 'image_url' are both stored in field 'image_url'"))
        }
        #expect(try RecordType(Clash.self).modelFields.count == 2)
    }

    @Test("A plain enum that is not CaseIterable cannot be built from a placeholder: an error that says what to do")
    func unbuildableEnum() throws {
        enum Status: String, Codable { case draft, published }
        struct Post: Codable {
            var id: String
            var status: Status
            var title: String
        }
        struct OptionalStatus: Codable {
            var id: String
            var status: Status?
            var tags: [Status]
        }
        let error = expectDecodingError("dataCorrupted", at: "status") { _ = try RecordType(Post.self) }
        #expect(error?.context?.debugDescription.contains("CaseIterable") == true)
        // Optional properties and lists need no placeholder element.
        #expect(
            try RecordType(OptionalStatus.self).modelFields == [
                Field(name: "status", type: .string), Field(name: "tags", type: .list(.string)),
            ])
    }

    @Test("A type that checks its data, or an enum without raw values, is told what would work for it")
    func typeThatChecksItsData() throws {
        struct Email: Codable {
            var text: String
            init(from decoder: any Decoder) throws {
                text = try decoder.singleValueContainer().decode(String.self)
                guard text.contains("@") else {
                    throw DecodingError.dataCorrupted(
                        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "No email address."))
                }
            }
        }
        struct Member: Codable {
            var id: String
            var email: Email
        }
        struct Archive: Codable {
            var id: String
            var raw: Record
        }
        for (model, typeName, key) in [
            (Member.self as any Decodable.Type, "Email", "email"), (Archive.self, "Record", "raw"),
        ] {
            let error = expectDecodingError("dataCorrupted", at: key) { _ = try RecordSchema(models: [model]) }
            let description = error?.context?.debugDescription ?? ""
            #expect(!description.contains("CaseIterable or a RecordEnum"), "\(description)")
            #expect(description.contains("\(typeName) refused them"), "\(description)")
            #expect(
                description.hasSuffix(
                    "If \(typeName) is an enum, make it CaseIterable (its first case is used); else describe the record "
                        + "type by hand, with RecordSchema.RecordType(name:fields:grants:)."))
        }
        // An enum without raw values takes its first case once it is CaseIterable.
        enum Mood: Codable { case happy, sad }
        enum CountedMood: Codable, CaseIterable { case happy, sad }
        struct Diary: Codable {
            var id: String
            var mood: Mood
        }
        struct CountedDiary: Codable {
            var id: String
            var mood: CountedMood
        }
        let error = expectDecodingError("dataCorrupted", at: "mood") { _ = try RecordType(Diary.self) }
        #expect(error?.context?.debugDescription.contains("If Mood is an enum, make it CaseIterable") == true)
        #expect(try RecordType(CountedDiary.self).modelFields == [Field(name: "mood", type: .bytes)])
    }

    @Test("A value the probe cannot build is reported at its full coding path, however it is reached")
    func fullPathOfUnbuildableValue() throws {
        enum Switch: String, Codable { case on, off }
        struct Inner: Codable { var state: Switch }
        struct Outer: Codable {
            var id: String
            var inner: Inner
            var inners: [String: Inner]
        }
        struct ReadsNested: Codable {
            var id: String
            var state: Switch
            enum CodingKeys: String, CodingKey { case id, meta }
            enum MetaKeys: String, CodingKey { case settings }
            enum SettingsKeys: String, CodingKey { case state }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(String.self, forKey: .id)
                let settings = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
                    .nestedContainer(keyedBy: SettingsKeys.self, forKey: .settings)
                state = try settings.decode(Switch.self, forKey: .state)
            }
            func encode(to encoder: any Encoder) throws {}
        }
        let error = expectDecodingError("dataCorrupted", at: "inner.state") { _ = try RecordType(Outer.self) }
        #expect(error?.context?.debugDescription.contains("Make Switch CaseIterable") == true)
        expectDecodingError("dataCorrupted", at: "meta.settings.state") { _ = try RecordType(ReadsNested.self) }
    }

    @Test("A field that only encode(to:) writes is not seen; added by hand, it is checked like the rest")
    func fieldsOnlyWritten() throws {
        // What a `let schemaVersion = 2` does, without the compiler's warning that it is not decoded.
        struct Versioned: Codable {
            var id: String
            var name: String
            var schemaVersion: Int { 2 }
            enum CodingKeys: String, CodingKey { case id, name, schemaVersion }
            init(id: String, name: String) {
                self.id = id
                self.name = name
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(String.self, forKey: .id)
                name = try container.decode(String.self, forKey: .name)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(id, forKey: .id)
                try container.encode(name, forKey: .name)
                // A derived value that placeholders would trap on: the probe never runs this.
                try container.encode(100 / schemaVersion, forKey: .schemaVersion)
            }
        }
        var recordType = try RecordType(Versioned.self)
        #expect(recordType.modelFields == [Field(name: "name", type: .string)])
        recordType.fields.append(Field(name: "schemaVersion", type: .int64))
        let record = try RecordEncoder().encode(Versioned(id: "v", name: "n"))
        let carried = RecordType(
            name: record.recordType, fields: record.fields.map { Field(name: $0.key, type: $0.value.schemaType) })
        #expect(RecordSchema(recordTypes: [recordType]).problems(for: RecordSchema(recordTypes: [carried])) == [])
    }

    @Test("An element that the probe cannot build is reported at its index")
    func pathOfUnbuildableElement() throws {
        enum Switch: String, Codable { case on, off }
        struct Pair: Codable {
            var name: String
            var state: Switch
            init(from decoder: any Decoder) throws {
                var elements = try decoder.unkeyedContainer()
                name = try elements.decode(String.self)
                state = try elements.decode(Switch.self)
            }
        }
        struct Owned: Codable {
            var id: String
            var owner: Pair
        }
        struct Listed: Codable {
            var id: String
            var states: [Switch]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(String.self, forKey: .id)
                var elements = try container.nestedUnkeyedContainer(forKey: .states)
                states = [try elements.decode(Switch.self)]
            }
        }
        expectDecodingError("dataCorrupted", at: "owner.Index 1") { _ = try RecordType(Owned.self) }
        expectDecodingError("dataCorrupted", at: "states.Index 0") { _ = try RecordType(Listed.self) }
    }

    @Test("A type that holds itself ends with an error, not a stack overflow")
    func selfHoldingType() throws {
        final class Node: Codable {
            var next: Node
            init(next: Node) { self.next = next }
        }
        struct Chain: Codable {
            var id: String
            var head: Node
        }
        let outcome = try onSmallStack { Result { try RecordType(Chain.self) } }
        let error = #expect(throws: DecodingError.self) { _ = try outcome.get() }
        // At the value that is one type too deep.
        #expect(error?.context?.codingPath.map(\.stringValue) == ["head"] + Array(repeating: "next", count: 32))
        #expect(error?.context?.debugDescription.contains("deep") == true)
    }

    @Test("A model whose top level is not keyed is an error")
    func notKeyed() throws {
        expectDecodingError("typeMismatch", at: "") { _ = try RecordType([String].self) }
        expectDecodingError("typeMismatch", at: "") { _ = try RecordType(String.self) }
        expectDecodingError("typeMismatch", at: "") { _ = try RecordType(Date.self) }
    }

    @Test("A wrapper of a model hands the record on to the model it wraps")
    func wrappedModel() throws {
        struct Wrapper: Codable {
            var model: Author
            init(from decoder: any Decoder) throws {
                model = try decoder.singleValueContainer().decode(Author.self)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(model)
            }
        }
        #expect(try RecordType(Wrapper.self).modelFields == [Field(name: "name", type: .string)])
    }

    @Test("A generic model is named without its arguments, and its generic properties typed by them")
    func genericModel() throws {
        struct Tagged<Value: Codable>: Codable {
            var id: String
            var value: Value
            var values: [Value]
            var pair: Pair<Value>
        }
        struct Pair<Value: Codable>: Codable {
            var first: Value
            var second: Value
        }
        let recordType = try RecordType(Tagged<Level>.self)
        #expect(recordType.name == "Tagged")
        #expect(
            recordType.modelFields == [
                Field(name: "pair", type: .bytes), Field(name: "value", type: .string),
                Field(name: "values", type: .list(.string)),
            ])
        #expect(try RecordType(Tagged<Date>.self).field(named: "values")?.type == .list(.timestamp))
    }

    @Test("RecordSchema(models:) describes each type with the default options")
    func schemaOfModels() throws {
        struct Note: Codable {
            var id: String
            var title: String
        }
        let schema = try RecordSchema(models: [Note.self, Author.self])
        // By name, as exports list record types, whatever the order of the models.
        #expect(schema.recordTypes.map(\.name) == ["Author", "Note"])
        #expect(schema.recordType(named: "Author")?.modelFields == [Field(name: "name", type: .string)])
        #expect(schema.roles.isEmpty)
    }
}

extension RecordValue {
    /// The schema type of a field holding this value.
    var schemaType: RecordSchema.FieldType {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .bytes: .bytes
        case .date: .timestamp
        case .asset: .asset
        case .reference: .reference
        case .location: .location
        case .list(let elements): .list(elements.first?.schemaType ?? .string)
        }
    }
}

extension RecordSchema.RecordType {
    /// The fields less the system fields listed without indexes, which every model's record type
    /// lists as exports do.
    var modelFields: [RecordSchema.Field] { fields.filter { !$0.isSystemField || !$0.indexes.isEmpty } }
}

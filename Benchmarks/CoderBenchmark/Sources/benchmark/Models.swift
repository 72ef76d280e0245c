import Foundation
import RecordCodable

// The benchmark's models, each with the mapping to and from `Record` written by hand: the limit
// the coders are measured against. The hand mappings check what a careful hand mapping checks —
// each field's kind, integer ranges, valid URLs and raw values — and no more.

struct HandMappingError: Error {
    var field: String
}

func string(_ value: RecordValue?, _ field: String = "") throws -> String {
    guard case .string(let string)? = value else { throw HandMappingError(field: field) }
    return string
}

func int(_ value: RecordValue?, _ field: String = "") throws -> Int {
    guard case .int64(let number)? = value, let int = Int(exactly: number) else { throw HandMappingError(field: field) }
    return int
}

func double(_ value: RecordValue?, _ field: String = "") throws -> Double {
    guard case .double(let number)? = value else { throw HandMappingError(field: field) }
    return number
}

func bool(_ value: RecordValue?, _ field: String = "") throws -> Bool {
    guard case .int64(let number)? = value, number == 0 || number == 1 else { throw HandMappingError(field: field) }
    return number == 1
}

func date(_ value: RecordValue?, _ field: String = "") throws -> Date {
    guard case .date(let date)? = value else { throw HandMappingError(field: field) }
    return date
}

// MARK: The flat model

/// A dozen fields of the common kinds, none of them nested.
struct FlatPost: Codable, Equatable {
    enum Status: String, Codable {
        case draft, published, archived
    }

    var id: String
    var title: String
    var body: String
    var authorName: String
    var views: Int
    var likes: Int32
    var rating: Double
    var isPinned: Bool
    var publishedAt: Date
    var link: URL
    var tags: [String]
    var scores: [Int]
    var author: RecordReference
    var status: Status

    static let sample = FlatPost(
        id: "post-42",
        title: "Records on Linux",
        body: "A short body of text that stands for the post's content, long enough to be realistic.",
        authorName: "Ada Lovelace",
        views: 1_234_567,
        likes: 4_321,
        rating: 4.75,
        isPinned: true,
        publishedAt: Date(timeIntervalSince1970: 1_700_000_000),
        link: URL(string: "https://example.com/posts/42")!,
        tags: ["swift", "cloudkit", "linux"],
        scores: [5, 4, 5, 3],
        author: RecordReference(recordName: "author-7"),
        status: .published)
}

enum FlatHandMapping {
    static func encode(_ post: FlatPost) -> Record {
        var fields: [String: RecordValue] = [:]
        fields.reserveCapacity(13)
        fields["title"] = .string(post.title)
        fields["body"] = .string(post.body)
        fields["authorName"] = .string(post.authorName)
        fields["views"] = .int64(Int64(post.views))
        fields["likes"] = .int64(Int64(post.likes))
        fields["rating"] = .double(post.rating)
        fields["isPinned"] = .int64(post.isPinned ? 1 : 0)
        fields["publishedAt"] = .date(post.publishedAt)
        fields["link"] = .string(post.link.absoluteString)
        fields["tags"] = .list(post.tags.map(RecordValue.string))
        fields["scores"] = .list(post.scores.map { .int64(Int64($0)) })
        fields["author"] = .reference(post.author)
        fields["status"] = .string(post.status.rawValue)
        return Record(recordType: "FlatPost", recordName: post.id, fields: fields)
    }

    static func decode(_ record: Record) throws -> FlatPost {
        let fields = record.fields
        guard case .int64(let likes)? = fields["likes"], let likes32 = Int32(exactly: likes) else {
            throw HandMappingError(field: "likes")
        }
        guard let link = URL(string: try string(fields["link"], "link")) else { throw HandMappingError(field: "link") }
        guard case .list(let tagValues)? = fields["tags"] else { throw HandMappingError(field: "tags") }
        guard case .list(let scoreValues)? = fields["scores"] else { throw HandMappingError(field: "scores") }
        guard case .reference(let author)? = fields["author"] else { throw HandMappingError(field: "author") }
        guard let status = FlatPost.Status(rawValue: try string(fields["status"], "status")) else {
            throw HandMappingError(field: "status")
        }
        return FlatPost(
            id: record.recordName,
            title: try string(fields["title"], "title"),
            body: try string(fields["body"], "body"),
            authorName: try string(fields["authorName"], "authorName"),
            views: try int(fields["views"], "views"),
            likes: likes32,
            rating: try double(fields["rating"], "rating"),
            isPinned: try bool(fields["isPinned"], "isPinned"),
            publishedAt: try date(fields["publishedAt"], "publishedAt"),
            link: link,
            tags: try tagValues.map { try string($0, "tags") },
            scores: try scoreValues.map { try int($0, "scores") },
            author: author,
            status: status)
    }
}

// MARK: A second flat model

/// The flat model's shape — the same kinds of fields, as many — under other names and in another
/// order, so that the figures show what any flat model gets, not what one model's names get.
struct FlatEvent: Codable, Equatable {
    enum Kind: String, Codable {
        case meeting, call, reminder, workshop
    }

    var kind: Kind
    var organizer: RecordReference
    var attendees: [String]
    var startsAt: Date
    var capacity: Int
    var id: String
    var isPublic: Bool
    var summary: String
    var seatNumbers: [Int]
    var price: Double
    var website: URL
    var location: String
    var waitlist: Int32
    var notes: String

    static let sample = FlatEvent(
        kind: .workshop,
        organizer: RecordReference(recordName: "organizer-3"),
        attendees: ["ada", "grace", "linus", "margaret"],
        startsAt: Date(timeIntervalSince1970: 1_710_000_000),
        capacity: 250,
        id: "event-2026-07",
        isPublic: false,
        summary: "A hands-on afternoon about storing Swift models as records on a server.",
        seatNumbers: [12, 14, 15],
        price: 19.5,
        website: URL(string: "https://example.com/events/2026-07")!,
        location: "Hall B, second floor",
        waitlist: 17,
        notes: "Bring a laptop.")
}

enum FlatEventHandMapping {
    static func encode(_ event: FlatEvent) -> Record {
        var fields: [String: RecordValue] = [:]
        fields.reserveCapacity(13)
        fields["kind"] = .string(event.kind.rawValue)
        fields["organizer"] = .reference(event.organizer)
        fields["attendees"] = .list(event.attendees.map(RecordValue.string))
        fields["startsAt"] = .date(event.startsAt)
        fields["capacity"] = .int64(Int64(event.capacity))
        fields["isPublic"] = .int64(event.isPublic ? 1 : 0)
        fields["summary"] = .string(event.summary)
        fields["seatNumbers"] = .list(event.seatNumbers.map { .int64(Int64($0)) })
        fields["price"] = .double(event.price)
        fields["website"] = .string(event.website.absoluteString)
        fields["location"] = .string(event.location)
        fields["waitlist"] = .int64(Int64(event.waitlist))
        fields["notes"] = .string(event.notes)
        return Record(recordType: "FlatEvent", recordName: event.id, fields: fields)
    }

    static func decode(_ record: Record) throws -> FlatEvent {
        let fields = record.fields
        guard let kind = FlatEvent.Kind(rawValue: try string(fields["kind"], "kind")) else {
            throw HandMappingError(field: "kind")
        }
        guard case .reference(let organizer)? = fields["organizer"] else { throw HandMappingError(field: "organizer") }
        guard case .list(let attendeeValues)? = fields["attendees"] else { throw HandMappingError(field: "attendees") }
        guard case .list(let seatValues)? = fields["seatNumbers"] else { throw HandMappingError(field: "seatNumbers") }
        guard let website = URL(string: try string(fields["website"], "website")) else {
            throw HandMappingError(field: "website")
        }
        guard case .int64(let waitlist)? = fields["waitlist"], let waitlist32 = Int32(exactly: waitlist) else {
            throw HandMappingError(field: "waitlist")
        }
        return FlatEvent(
            kind: kind,
            organizer: organizer,
            attendees: try attendeeValues.map { try string($0, "attendees") },
            startsAt: try date(fields["startsAt"], "startsAt"),
            capacity: try int(fields["capacity"], "capacity"),
            id: record.recordName,
            isPublic: try bool(fields["isPublic"], "isPublic"),
            summary: try string(fields["summary"], "summary"),
            seatNumbers: try seatValues.map { try int($0, "seatNumbers") },
            price: try double(fields["price"], "price"),
            website: website,
            location: try string(fields["location"], "location"),
            waitlist: waitlist32,
            notes: try string(fields["notes"], "notes"))
    }
}

// MARK: A third flat model

/// The shape of issue 43's independent check: twelve properties, among them a 100-character body,
/// a web URL, a `Double`, a `Bool`, a `Date`, lists of strings and of integers, a reference and a
/// `String` enum.
struct FlatTask: Codable, Equatable {
    enum Priority: String, Codable {
        case low, normal, high, urgent
    }

    var id: String
    var title: String
    var body: String
    var page: URL
    var effort: Double
    var isDone: Bool
    var dueAt: Date
    var labels: [String]
    var estimates: [Int]
    var assignee: RecordReference
    var priority: Priority
    var revision: Int

    static let sample = FlatTask(
        id: "task-1089",
        title: "Measure the wire path",
        // 100 characters.
        body: "Read the record's JSON, turn it into the model, and write it back again; then count each step, twice",
        page: URL(string: "https://example.com/tasks/1089")!,
        effort: 2.25,
        isDone: false,
        dueAt: Date(timeIntervalSince1970: 1_720_000_000),
        labels: ["wire", "speed", "json"],
        estimates: [3, 5, 8],
        assignee: RecordReference(recordName: "member-12"),
        priority: .high,
        revision: 7)
}

enum FlatTaskHandMapping {
    static func encode(_ task: FlatTask) -> Record {
        var fields: [String: RecordValue] = [:]
        fields.reserveCapacity(11)
        fields["title"] = .string(task.title)
        fields["body"] = .string(task.body)
        fields["page"] = .string(task.page.absoluteString)
        fields["effort"] = .double(task.effort)
        fields["isDone"] = .int64(task.isDone ? 1 : 0)
        fields["dueAt"] = .date(task.dueAt)
        fields["labels"] = .list(task.labels.map(RecordValue.string))
        fields["estimates"] = .list(task.estimates.map { .int64(Int64($0)) })
        fields["assignee"] = .reference(task.assignee)
        fields["priority"] = .string(task.priority.rawValue)
        fields["revision"] = .int64(Int64(task.revision))
        return Record(recordType: "FlatTask", recordName: task.id, fields: fields)
    }

    static func decode(_ record: Record) throws -> FlatTask {
        let fields = record.fields
        guard let page = URL(string: try string(fields["page"], "page")) else { throw HandMappingError(field: "page") }
        guard case .list(let labelValues)? = fields["labels"] else { throw HandMappingError(field: "labels") }
        guard case .list(let estimateValues)? = fields["estimates"] else { throw HandMappingError(field: "estimates") }
        guard case .reference(let assignee)? = fields["assignee"] else { throw HandMappingError(field: "assignee") }
        guard let priority = FlatTask.Priority(rawValue: try string(fields["priority"], "priority")) else {
            throw HandMappingError(field: "priority")
        }
        return FlatTask(
            id: record.recordName,
            title: try string(fields["title"], "title"),
            body: try string(fields["body"], "body"),
            page: page,
            effort: try double(fields["effort"], "effort"),
            isDone: try bool(fields["isDone"], "isDone"),
            dueAt: try date(fields["dueAt"], "dueAt"),
            labels: try labelValues.map { try string($0, "labels") },
            estimates: try estimateValues.map { try int($0, "estimates") },
            assignee: assignee,
            priority: priority,
            revision: try int(fields["revision"], "revision"))
    }
}

// MARK: The nested model

/// A few fields and a nested struct, which is stored as JSON bytes.
struct NestedProfile: Codable, Equatable {
    struct Address: Codable, Equatable {
        var street: String
        var city: String
        var postalCode: String
        var country: String
        var since: Date
    }

    var id: String
    var name: String
    var age: Int
    var email: String
    var address: Address

    static let sample = NestedProfile(
        id: "profile-1", name: "Grace Hopper", age: 85, email: "grace@example.com",
        address: Address(
            street: "1 Navy Way", city: "Arlington", postalCode: "22201", country: "US",
            since: Date(timeIntervalSince1970: 1_700_000_000.5)))
}

enum NestedHandMapping {
    /// The same JSON form the coders use for nested values: sorted keys, made once.
    static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    static let jsonDecoder = JSONDecoder()

    static func encode(_ profile: NestedProfile) throws -> Record {
        var fields: [String: RecordValue] = [:]
        fields.reserveCapacity(4)
        fields["name"] = .string(profile.name)
        fields["age"] = .int64(Int64(profile.age))
        fields["email"] = .string(profile.email)
        fields["address"] = .bytes(try jsonEncoder.encode(profile.address))
        return Record(recordType: "NestedProfile", recordName: profile.id, fields: fields)
    }

    static func decode(_ record: Record) throws -> NestedProfile {
        let fields = record.fields
        guard case .bytes(let address)? = fields["address"] else { throw HandMappingError(field: "address") }
        return NestedProfile(
            id: record.recordName,
            name: try string(fields["name"], "name"),
            age: try int(fields["age"], "age"),
            email: try string(fields["email"], "email"),
            address: try jsonDecoder.decode(NestedProfile.Address.self, from: address))
    }
}

// MARK: The list model

/// One long list of numbers.
struct SeriesModel: Codable, Equatable {
    var id: String
    var samples: [Int]

    static func sample(count: Int) -> SeriesModel {
        SeriesModel(id: "series-\(count)", samples: (0..<count).map { $0 &* 2_654_435_761 % 1_000_003 })
    }
}

enum SeriesHandMapping {
    static func encode(_ series: SeriesModel) -> Record {
        Record(
            recordType: "SeriesModel", recordName: series.id,
            fields: ["samples": .list(series.samples.map { .int64(Int64($0)) })])
    }

    static func decode(_ record: Record) throws -> SeriesModel {
        guard case .list(let values)? = record.fields["samples"] else { throw HandMappingError(field: "samples") }
        return SeriesModel(id: record.recordName, samples: try values.map { try int($0, "samples") })
    }
}

// MARK: A model of any width, for the cost per field

/// A model with `count` integer fields named by number, to measure how the cost grows with fields.
struct ManyFields: Codable, Equatable {
    var values: [Int]

    init(count: Int) {
        values = (0..<count).map { $0 * 31 }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        static let names = (0..<5_000).map { Key(stringValue: "f\($0)") }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let count = container.allKeys.filter { $0.stringValue != "id" }.count
        values = try (0..<count).map { try container.decode(Int.self, forKey: Key.names[$0]) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (index, value) in values.enumerated() {
            try container.encode(value, forKey: Key.names[index])
        }
    }
}

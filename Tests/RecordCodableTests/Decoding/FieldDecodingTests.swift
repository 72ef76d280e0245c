import Foundation
import Testing

@testable import RecordCodable

/// How a field that a value decodes itself reaches it.
@Suite("Field decoding")
struct FieldDecodingTests {
    /// What values saw while decoding, shared through `userInfo`. (Tests decode on one thread.)
    final class Log: @unchecked Sendable {
        var entries: [String] = []
        static let key = CodingUserInfoKey(rawValue: "log")!
    }

    /// A nested value that logs what it reads and any error it sees.
    struct Observed: Codable, Equatable {
        enum Keys: CodingKey { case name }
        var name: String

        init(name: String) { self.name = name }

        init(from decoder: any Decoder) throws {
            let log = decoder.userInfo[Log.key] as? Log
            do {
                let container = try decoder.container(keyedBy: Keys.self)
                name = try container.decode(String.self, forKey: .name)
                log?.entries.append("read \(name)")
            } catch {
                log?.entries.append("caught \(type(of: error))")
                throw error
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(name, forKey: .name)
        }
    }

    @Test("A value stored as JSON is read once, never stopped by an error to be read again")
    func jsonValueReadsOnce() throws {
        let log = Log()
        var decoder = RecordDecoder()
        decoder.userInfo[Log.key] = log
        let record = try RecordEncoder().encode(Box(value: Observed(name: "n")))
        #expect(try decoder.decode(Box<Observed>.self, from: record).value == Observed(name: "n"))
        #expect(log.entries == ["read n"])
        log.entries = []
        let list = try RecordEncoder().encode(Box(value: [Observed(name: "a"), Observed(name: "b")]))
        #expect(try decoder.decode(Box<[Observed]>.self, from: list).value.map(\.name) == ["a", "b"])
        #expect(log.entries == ["read a", "read b"])
    }

    /// Raw bytes, read through a single value.
    struct Blob: Codable, Equatable {
        var data: Data

        init(data: Data) { self.data = data }

        init(from decoder: any Decoder) throws {
            data = try decoder.singleValueContainer().decode(Data.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(data)
        }
    }

    @Test(
        "Raw bytes that begin as JSON does are read by the value itself",
        arguments: ["[1,2]", "{", #"{"data":"AQ=="}"#, "[]"])
    func rawBytesThatLookLikeJSON(_ text: String) throws {
        let blob = Blob(data: Data(text.utf8))
        #expect(try roundTrip(Box(value: blob))["value"] == .bytes(Data(text.utf8)))
    }
}

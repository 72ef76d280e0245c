import Foundation
import Testing

@testable import RecordCodable

/// Faults found in the areas of the save cycle by suites and a review written elsewhere, each
/// with a test named for it.
@Suite("Save cycle faults")
struct SaveCycleFaultTests {
    class Person: Codable {
        var id: String
        var name: String
        init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    final class Employee: Person {
        var company: String
        init(id: String, name: String, company: String) {
            self.company = company
            super.init(id: id, name: name)
        }
        private enum CodingKeys: String, CodingKey { case company }
        required init(from decoder: any Decoder) throws {
            company = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .company)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(company, forKey: .company)
            try super.encode(to: encoder)
        }
    }

    @Test("decode(Employee.self as Person.Type) decodes an Employee, as JSONDecoder does")
    func decodesTheDynamicType() throws {
        let record = try RecordEncoder().encode(Employee(id: "E1", name: "Ada", company: "Engines"))
        let type: Person.Type = Employee.self
        let person = try RecordDecoder().decode(type, from: record)
        #expect((person as? Employee)?.company == "Engines")
        let linked = try RecordDecoder().decode(type, from: record, linkedRecords: [record])
        #expect(linked is Employee)
    }

    /// A class, so that a chain of links can be built without a value type of infinite size.
    final class Box: Codable, LinkedRecord {
        var id: String
        var next: Box?
        init(id: String, next: Box?) {
            self.id = id
            self.next = next
        }
    }

    @Test("A chain of 3,000 linked records is a clear error on a 512 KB stack, not a crash; 20 links decode")
    func longLinkedChain() throws {
        var records: [Record] = []
        for index in 0..<3_000 {
            var fields: [String: RecordValue] = [:]
            if index < 2_999 { fields["next"] = .reference(RecordReference(recordName: "B\(index + 1)")) }
            records.append(Record(recordType: "Box", recordName: "B\(index)", fields: fields))
        }
        let chain = records
        let error = try onSmallStack { () -> DecodingError? in
            do {
                _ = try RecordDecoder().decode(Box.self, from: chain[0], linkedRecords: chain)
                return nil
            } catch let error as DecodingError {
                return error
            }
        }
        #expect(error?.kind == "dataCorrupted")
        #expect(error?.context?.debugDescription.contains("more than 24 links deep") == true)
        #expect(error?.fullPath.hasPrefix("next.next.next") == true)
        // A chain within the limit decodes.
        let short = Array(records.suffix(20))
        let length = try onSmallStack { () -> Int in
            var box = try RecordDecoder().decode(Box.self, from: short[0], linkedRecords: short)
            var length = 1
            while let next = box.next {
                length += 1
                box = next
            }
            return length
        }
        #expect(length == 20)
    }

    struct Tag: Codable, Hashable, RawRepresentable {
        var rawValue: String
    }

    struct Tagged: Codable, LinkedRecord {
        var id: Tag
        var name: String
    }

    struct Holder: Codable {
        var id: String
        var tagged: Tagged
    }

    @Test("Naming a linked model whose identifier is a wrapper leaves no probe engine behind (LeakSanitizer checks)")
    func linkedNameProbeDoesNotLeak() throws {
        let encoder = RecordEncoder()
        for index in 0..<1_000 {
            let record = try encoder.encode(
                Holder(id: "H\(index)", tagged: Tagged(id: Tag(rawValue: "T\(index)"), name: "n")))
            #expect(record["tagged"] == .reference(RecordReference(recordName: "T\(index)")))
        }
    }

    struct Child: Codable, LinkedRecord, Identifiable {
        var id: String?
        var name: String
    }

    struct Parent: Codable {
        var id: String
        var children: [Child]
    }

    @Test("Linked models whose optional id is nil are records of their own, not one record named 'nil'")
    func linkedModelsWithNilIdentifiers() throws {
        let records = try RecordEncoder().encodeGraph(
            Parent(id: "P", children: [Child(id: nil, name: "a"), Child(id: nil, name: "b")]))
        #expect(records.count == 3)
        #expect(Set(records.dropFirst().map(\.recordName)).count == 2)
        #expect(!records.map(\.recordName).contains("nil"))
    }

    @Test("A record without a name reads into an optional identifier as nil, and into a required one as an error")
    func unnamedRecordIntoRequiredIdentifier() {
        struct Named: Codable { var id: String }
        expectDecodingError("valueNotFound", at: "id") {
            _ = try RecordDecoder().decode(Named.self, from: Record(recordType: "Named", recordName: ""))
        }
    }

    class Base: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(5)
        }
    }

    final class Derived: Base {
        var id = "d"
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            try container.encode(id, forKey: AnyCodingKey(stringValue: "id"))
            try super.encode(to: container.superEncoder())
        }
    }

    @Test("A superclass that writes a single value through superEncoder() fails at [super]")
    func superEncoderSingleValuePath() {
        let error = expectEncodingError(at: "super") { _ = try RecordEncoder().encode(Derived()) }
        #expect(error?.context?.debugDescription.hasPrefix("A record holds named fields") == true)
    }

    @Test("A nested container after a value under its key is an error, where Foundation would merge or stop")
    func nestedContainerAfterValue() {
        struct Merging: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyCodingKey.self)
                try container.encode([1], forKey: AnyCodingKey(stringValue: "a"))
                var nested = container.nestedUnkeyedContainer(forKey: AnyCodingKey(stringValue: "a"))
                try nested.encode(2)
            }
        }
        expectEncodingError(at: "a") { _ = try RecordEncoder().encode(Merging()) }
    }
}

/// Errors that say what to do.
@Suite("Errors that say what to do")
struct HelpfulErrorTests {
    struct Note: Codable {
        var id: String
        var title: String
    }

    @Test("A missing field names a field of the record that is nearly its name")
    func nearMissField() {
        let record = Record(recordType: "Note", recordName: "n", fields: ["titel": .string("t"), "other": .int64(1)])
        let error = expectDecodingError("keyNotFound", at: "title") {
            _ = try RecordDecoder().decode(Note.self, from: record)
        }
        #expect(
            error?.context?.debugDescription
                == #"No value associated with key CodingKeys(stringValue: "title", intValue: nil) ("title") in record Note "n". The record has no field 'title', but has 'titel': is the key or the field misspelt?"#
        )
        // Nothing near: Foundation's words and the record alone.
        let far = expectDecodingError("keyNotFound", at: "title") {
            _ = try RecordDecoder().decode(
                Note.self, from: Record(recordType: "Note", recordName: "n", fields: ["x": .int64(1)]))
        }
        #expect(far?.context?.debugDescription.hasSuffix(#"("title") in record Note "n"."#) == true)
        #expect(
            NearMisses.of("title", among: ["Title", "titles", "tilte", "tile", "name", "ti"]) == [
                "Title", "tile", "tilte", "titles",
            ])
        #expect(NearMisses.of("createdAt", among: ["created_at", "createdAt", "creationDate"]) == ["created_at"])
    }

    enum Color: String, Codable { case red, blue }
    struct Card: Codable {
        var id: String
        var color: Color
    }

    @Test("An unknown raw value of a plain enum suggests RecordEnum")
    func plainEnumSuggestsRecordEnum() {
        let record = Record(recordType: "Card", recordName: "c", fields: ["color": .string("lavender")])
        let error = expectDecodingError("dataCorrupted", at: "color") {
            _ = try RecordDecoder().decode(Card.self, from: record)
        }
        #expect(
            error?.context?.debugDescription
                == #"Cannot initialize Color from invalid String value lavender in record Card "c". If other versions of "#
                + "the app may store values that Color does not have, make it a RecordEnum, whose fallbackCase reads them."
        )
    }

    @Test("The size error names only the fields that weigh")
    func heaviestFields() {
        struct Heavy: Encodable {
            var id = "h"
            var body = String(repeating: "x", count: 900)
            var tiny = "t"
            var small = String(repeating: "s", count: 10)
        }
        var encoder = RecordEncoder()
        encoder.maximumRecordSize = 500
        #expect {
            _ = try encoder.encode(Heavy())
        } throws: { error in
            guard case .recordTooLarge(_, _, let heaviest) = error as? RecordEncodingError else { return false }
            return heaviest == ["body"]
        }
    }
}

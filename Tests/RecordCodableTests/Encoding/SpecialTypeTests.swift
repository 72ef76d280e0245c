import Foundation
import Testing

@testable import RecordCodable

/// Foundation's value types and the record's own: each has one fixed field type.
@Suite("Dates, data, URLs, UUIDs, decimals and record values")
struct SpecialTypeTests {
    private let decoder = RecordDecoder()

    @Test(arguments: [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_699_920_000.123_456_7), Date.distantPast,
        Date.distantFuture, Date(timeIntervalSinceReferenceDate: -0.000_001),
    ])
    func date(_ value: Date) throws {
        #expect(try roundTrip(Box(value: value))["value"] == .date(value))
    }

    @Test func dates() throws {
        let dates = [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2.5)]
        #expect(try roundTrip(Box(value: dates))["value"] == .list(dates.map(RecordValue.date)))
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<Date>.self, from: boxRecord(.int64(0)))
        }
    }

    @Test("Data stays raw bytes", arguments: [Data(), Data([0, 1, 2, 255]), Data(repeating: 7, count: 100_000)])
    func data(_ value: Data) throws {
        #expect(try roundTrip(Box(value: value))["value"] == .bytes(value))
    }

    @Test func listOfData() throws {
        #expect(try roundTrip(Box(value: [Data([1]), Data()]))["value"] == .list([.bytes(Data([1])), .bytes(Data())]))
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<Data>.self, from: boxRecord(.string("AAEC")))
        }
    }

    @Test(arguments: [
        "https://example.com/path?query=1#fragment", "mailto:someone@example.com", "relative/path", "https://例え.jp/",
    ])
    func webURL(_ text: String) throws {
        let url = try #require(URL(string: text))
        #expect(try roundTrip(Box(value: url))["value"] == .string(url.absoluteString))
    }

    @Test("A URL relative to a base is stored absolute")
    func relativeURL() throws {
        let url = try #require(URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/")))
        let record = try RecordEncoder().encode(Box(value: url))
        #expect(record["value"] == .string("https://example.com/a/b/c"))
        #expect(try decoder.decode(Box<URL>.self, from: record).value.absoluteString == url.absoluteString)
    }

    @Test("A file URL becomes an asset")
    func fileURL() throws {
        let url = URL(fileURLWithPath: "/tmp/avatar.png")
        #expect(try roundTrip(Box(value: url))["value"] == .asset(RecordAsset(fileURL: url)))
    }

    @Test("An asset from the server decodes to its download URL")
    func assetWithDownloadURL() throws {
        let asset = RecordAsset(fileChecksum: "abc", downloadURL: "https://cvws.icloud-content.com/B/abc/${f}?o=1")
        let decoded = try decoder.decode(Box<URL>.self, from: boxRecord(.asset(asset)))
        #expect(decoded.value.absoluteString.hasPrefix("https://cvws.icloud-content.com/B/abc/"))
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<URL>.self, from: boxRecord(.asset(RecordAsset(fileChecksum: "abc"))))
        }
    }

    @Test func invalidURLText() throws {
        let error = expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<URL>.self, from: boxRecord(.string("")))
        }
        #expect(error?.context?.debugDescription.hasPrefix("Invalid URL string") == true)
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<URL>.self, from: boxRecord(.string("http://[::1")))
        }
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<URL>.self, from: boxRecord(.int64(1)))
        }
    }

    @Test func uuid() throws {
        let value = UUID()
        #expect(try roundTrip(Box(value: value))["value"] == .string(value.uuidString))
        #expect(try roundTrip(Box(value: [value]))["value"] == .list([.string(value.uuidString)]))
        let error = expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<UUID>.self, from: boxRecord(.string("not-a-uuid")))
        }
        #expect(error?.context?.debugDescription.hasPrefix("Attempted to decode UUID from invalid UUID string") == true)
    }

    @Test(
        "A Decimal is stored as its exact text",
        arguments: [
            "0", "-1", "3.14159265358979323846264338327950288", "12345678901234567890123456789012345678", "1e-100",
            "0.000001", "-98765.4321",
            // 39 digits, up to the largest significand a Decimal holds, 2^128 - 1.
            "123456789012345678901234567890123456789", "340282366920938463463374607431768211455",
            "-3.40282366920938463463374607431768211455", "3402823669209384634633746074317682114550000000000",
        ])
    func decimal(_ text: String) throws {
        let value = try #require(Decimal(string: text))
        let record = try roundTrip(Box(value: value))
        #expect(record["value"] == .string(value.description))
    }

    @Test("The largest and smallest Decimals are stored and read back exactly")
    func decimalExtremes() throws {
        for value in [Decimal.greatestFiniteMagnitude, -Decimal.greatestFiniteMagnitude, Decimal.leastNonzeroMagnitude]
        {
            let record = try roundTrip(Box(value: value))
            #expect(record["value"] == .string(value.description))
        }
    }

    @Test func decimalNaN() throws {
        let record = try RecordEncoder().encode(Box(value: Decimal.nan))
        #expect(record["value"] == .string("NaN"))
        #expect(try decoder.decode(Box<Decimal>.self, from: record).value.isNaN)
    }

    @Test("A Decimal also decodes from numbers, exactly")
    func decimalFromNumbers() throws {
        #expect(try decoder.decode(Box<Decimal>.self, from: boxRecord(.int64(.max))).value == Decimal(Int64.max))
        #expect(try decoder.decode(Box<Decimal>.self, from: boxRecord(.double(0.1))).value == Decimal(string: "0.1"))
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Decimal>.self, from: boxRecord(.double(.infinity)))
        }
    }

    @Test(
        "Text that is not exactly a Decimal is corrupt, never read in part",
        arguments: [
            "12abc", "", "1.2.3", "1e", "--1", "1e400", "123456789012345678901234567890123456789012", "abc", ".", "-",
            "e5", "1e+", "1e99999999999999999999",
            // 39 digits beyond the largest significand: Decimal would round them.
            "340282366920938463463374607431768211456", "999999999999999999999999999999999999999",
        ])
    func invalidDecimalText(_ text: String) throws {
        expectDecodingError("dataCorrupted", at: "value") {
            _ = try decoder.decode(Box<Decimal>.self, from: boxRecord(.string(text)))
        }
    }

    @Test func recordValueTypes() throws {
        let reference = RecordReference(
            recordName: "R1", action: .deleteSelf, zoneID: RecordZoneID(zoneName: "Z", ownerRecordName: "_owner"))
        #expect(try roundTrip(Box(value: reference))["value"] == .reference(reference))
        let location = RecordLocation(
            latitude: 45, longitude: -93, altitude: 300, horizontalAccuracy: 5, verticalAccuracy: 6, speed: 1,
            course: 90,
            timestamp: Date(timeIntervalSince1970: 1000))
        #expect(try roundTrip(Box(value: location))["value"] == .location(location))
        let asset = RecordAsset(fileChecksum: "sum", size: 10, downloadURL: "https://example.com/${f}")
        #expect(try roundTrip(Box(value: asset))["value"] == .asset(asset))
        #expect(
            try roundTrip(Box(value: [reference, reference]))["value"]
                == .list([.reference(reference), .reference(reference)]))
        #expect(try roundTrip(Box(value: [location]))["value"] == .list([.location(location)]))
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<RecordReference>.self, from: boxRecord(.string("R1")))
        }
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<RecordLocation>.self, from: boxRecord(.double(1)))
        }
        expectDecodingError("typeMismatch", at: "value") {
            _ = try decoder.decode(Box<RecordAsset>.self, from: boxRecord(.bytes(Data())))
        }
    }

    @Test("Record values inside nested values keep every property, the local file URL included")
    func recordValuesInsideNestedValues() throws {
        struct Holder: Codable, Equatable {
            var asset: RecordAsset
            var reference: RecordReference
            var location: RecordLocation
        }
        let holder = Holder(
            asset: RecordAsset(fileURL: URL(fileURLWithPath: "/tmp/a.png"), fileChecksum: "c"),
            reference: RecordReference(recordName: "R", action: .validate),
            location: RecordLocation(latitude: 1, longitude: 2, timestamp: Date(timeIntervalSince1970: 0.000_1)))
        let record = try roundTrip(Box(value: holder))
        guard case .bytes? = record["value"] else {
            Issue.record("a nested value is JSON bytes")
            return
        }
    }
}

import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

@Suite("Key-value view")
struct KeyValueTests {
    struct Profile: Codable, Equatable {
        var name: String
        var languages: [String]
    }

    @Test("Scalars and Codable values read back with their type, missing ones as the default")
    func typedValues() throws {
        let store = try RecordStore.inMemory()
        let settings = store.keyValues(namespace: "settings")
        try settings.set(3, forKey: "int")
        try settings.set(Int64.max, forKey: "int64")
        try settings.set(true, forKey: "bool")
        try settings.set(0.25, forKey: "double")
        try settings.set("text", forKey: "string")
        try settings.set(Data([0, 1, 2]), forKey: "data")
        try settings.set(Date(timeIntervalSinceReferenceDate: 1.000_000_1), forKey: "date")
        try settings.set(Profile(name: "Mei", languages: ["zh", "en"]), forKey: "profile")
        try settings.set([1, 2, 3], forKey: "list")

        #expect(try settings.value(forKey: "int", default: 0) == 3)
        #expect(try settings.value(forKey: "int64", default: Int64(0)) == .max)
        #expect(try settings.value(forKey: "bool", default: false) == true)
        #expect(try settings.value(forKey: "double", default: 0.0) == 0.25)
        #expect(try settings.value(forKey: "string", default: "") == "text")
        #expect(try settings.value(Data.self, forKey: "data") == Data([0, 1, 2]))
        #expect(try settings.value(Date.self, forKey: "date") == Date(timeIntervalSinceReferenceDate: 1.000_000_1))
        #expect(try settings.value(Profile.self, forKey: "profile") == Profile(name: "Mei", languages: ["zh", "en"]))
        #expect(try settings.value(forKey: "list", default: [Int]()) == [1, 2, 3])
        #expect(try settings.value(forKey: "missing", default: 42) == 42)
        #expect(try settings.value(String.self, forKey: "missing") == nil)
    }

    @Test("A value read as another type is a DecodingError, not the default")
    func wrongType() throws {
        let settings = try RecordStore.inMemory().keyValues(namespace: "settings")
        try settings.set("three", forKey: "count")
        let error = #expect(throws: DecodingError.self) { _ = try settings.value(forKey: "count", default: 0) }
        #expect(error?.kind == "typeMismatch")
        #expect(error?.fullPath == "count")
    }

    /// The `typeMismatch` that reading `key` as `type` throws: its path and message.
    func mismatch<Value: Decodable>(
        reading key: String, as type: Value.Type, in settings: KeyValueStore,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (path: String, message: String)? {
        let error = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
            _ = try settings.value(type, forKey: key)
        }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("Expected a typeMismatch, got \(String(describing: error))", sourceLocation: sourceLocation)
            return nil
        }
        return (error?.fullPath ?? "", context.debugDescription)
    }

    @Test("An Int value read as a Double is a typeMismatch at its key, not the number")
    func intReadAsDouble() throws {
        let settings = try RecordStore.inMemory().keyValues(namespace: "settings")
        try settings.set(3, forKey: "launchCount")
        let found = mismatch(reading: "launchCount", as: Double.self, in: settings)
        #expect(found?.path == "launchCount")
        #expect(found?.message == "Expected to decode Double but found an integer instead.")
        #expect(try settings.value(Int64.self, forKey: "launchCount") == 3)
        #expect(try settings.value(UInt8?.self, forKey: "launchCount") == 3)
    }

    @Test("A Bool value read as an Int is a typeMismatch at its key, not 0 or 1")
    func boolReadAsInt() throws {
        let settings = try RecordStore.inMemory().keyValues(namespace: "settings")
        try settings.set(true, forKey: "onboarded")
        let found = mismatch(reading: "onboarded", as: Int.self, in: settings)
        #expect(found?.path == "onboarded")
        #expect(found?.message == "Expected to decode Int but found a Bool instead.")
        #expect(try settings.value(forKey: "onboarded", default: false) == true)
    }

    @Test("Numbers and Bools of the other kinds are typeMismatches too, optionals included")
    func otherScalarMismatches() throws {
        let settings = try RecordStore.inMemory().keyValues(namespace: "settings")
        try settings.set(2.0, forKey: "scale")
        try settings.set(Int?.some(1), forKey: "one")
        #expect(
            mismatch(reading: "scale", as: Int.self, in: settings)?.message.contains("a floating-point number") == true)
        #expect(
            mismatch(reading: "one", as: Bool?.self, in: settings)?.message
                == "Expected to decode Bool but found an integer instead.")
        #expect(try settings.value(Float.self, forKey: "scale") == 2)
    }

    @Test("A value read as another type fails at a path that starts with its key, however deep the fault")
    func errorPathNamesTheKey() throws {
        struct Renamed: Codable {
            var name: String
            var languages: [Int]
        }
        let settings = try RecordStore.inMemory().keyValues(namespace: "settings")
        try settings.set(Profile(name: "Mei", languages: ["zh"]), forKey: "profile")
        let error = #expect(throws: DecodingError.self) { _ = try settings.value(Renamed.self, forKey: "profile") }
        #expect(error?.fullPath.hasPrefix("profile.languages.") == true)
        // Writing a value that cannot be encoded fails at its key too.
        struct Refused: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(
                    self, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "Refused."))
            }
        }
        do {
            try settings.set(Refused(), forKey: "refused")
            Issue.record("A value that cannot be encoded was kept")
        } catch let EncodingError.invalidValue(_, context) {
            #expect(context.codingPath.map(\.stringValue) == ["refused"])
        }
    }

    @Test("A NaN or infinite number, which CloudKit's JSON cannot carry, fails at its key, not at the record's JSON")
    func nonFiniteNumbers() throws {
        let settings = try RecordStore.inMemory().keyValues(namespace: "settings")
        let cases: [(any Encodable, String, [String])] = [
            (Double.nan, "ratio", ["ratio"]),
            (Double.infinity, "limit", ["limit"]),
            (Optional(-Double.infinity), "floor", ["floor"]),
            ([1, Double.nan], "factors", ["factors", "Index 1"]),
        ]
        for (value, key, path) in cases {
            do {
                try settings.set(value, forKey: key)
                Issue.record("\(key): a value JSON cannot carry was kept")
            } catch let EncodingError.invalidValue(_, context) {
                #expect(context.codingPath.map(\.stringValue) == path, "\(key)")
                #expect(context.debugDescription.hasPrefix("Unable to encode Double."), "\(key)")
            }
            #expect(try settings.contains(key) == false)
        }
        // A model value is kept as its JSON's bytes, where such a number is written as text: it reads back.
        struct Scale: Codable, Equatable {
            var factors: [Double]
        }
        try settings.set(Scale(factors: [1, -.infinity]), forKey: "scale")
        #expect(try settings.value(Scale.self, forKey: "scale") == Scale(factors: [1, -.infinity]))
    }

    @Test("Keys, existence, removal one by one and by prefix, per namespace")
    func keysAndRemoval() throws {
        let store = try RecordStore.inMemory()
        let settings = store.keyValues(namespace: "settings")
        let cache = store.keyValues(namespace: "cache")
        for key in ["a", "cache.x", "cache.y", "b"] { try settings.set(key, forKey: key) }
        try cache.set(1, forKey: "a")
        #expect(try settings.keys() == ["a", "b", "cache.x", "cache.y"])
        #expect(try settings.contains("a"))
        try settings.removeValues(withPrefix: "cache.")
        #expect(try settings.keys() == ["a", "b"])
        try settings.removeValue(forKey: "a")
        #expect(try !settings.contains("a"))
        #expect(try cache.keys() == ["a"])
        try settings.removeAll()
        #expect(try settings.keys().isEmpty)
        #expect(try cache.value(forKey: "a", default: 0) == 1)
    }

    @Test("Values stay on the device unless the view syncs")
    func localOnly() throws {
        let store = try RecordStore.inMemory()
        try store.keyValues(namespace: "device").set(1, forKey: "a")
        try store.keyValues(namespace: "shared", syncs: true).set(2, forKey: "b")
        #expect(try store.records(in: .localOnly).map(\.key.recordName) == ["a"])
        let requests = try store.modifyRequests()
        #expect(requests.map(\.zoneID?.zoneName) == ["shared"])
        #expect(requests.first?.operations.map(\.record.recordName) == ["b"])
        try store.keyValues(namespace: "device").removeValue(forKey: "a")
        #expect(try store.storedRecord(for: RecordKey(zone: "device", recordType: "KeyValue", recordName: "a")) == nil)
    }

    @Test("Setting nil removes the value: the default reads again")
    func settingNil() throws {
        let store = try RecordStore.inMemory()
        let settings = store.keyValues(namespace: "settings")
        try settings.set(3, forKey: "limit")
        try settings.set(Int?.none, forKey: "limit")
        #expect(try !settings.contains("limit"))
        #expect(try settings.value(forKey: "limit", default: 5) == 5)
        try settings.set(Int?.some(4), forKey: "limit")
        #expect(try settings.value(forKey: "limit", default: 5) == 4)
        // A nil inside an optional, as a dictionary of optionals gives it, removes the value too.
        try settings.set(4, forKey: "limit")
        let table: [String: Int?] = ["limit": nil]
        try settings.set(table["limit"], forKey: "limit")
        #expect(try !settings.contains("limit"))
        // A value that writes no field of its own is still a value.
        try settings.set(RecordMetadata(changeTag: "t"), forKey: "meta")
        #expect(try settings.contains("meta"))
    }

    @Test("A linked model is no value: an error that says to park it")
    func linkedModelValue() throws {
        let settings = try RecordStore.inMemory().keyValues(namespace: "settings")
        for value: any Encodable in [Folder(id: "f", name: "F"), [Folder(id: "f", name: "F")]] {
            do {
                try settings.set(value, forKey: "favourite")
                Issue.record("A linked model was kept as a value")
            } catch let EncodingError.invalidValue(_, context) {
                #expect(context.debugDescription.contains("park it"))
                #expect(context.codingPath.map(\.stringValue) == ["favourite"])
            }
        }
        #expect(try settings.keys().isEmpty)
    }

    @Test("In a view that syncs, a key follows CloudKit's rule for record names; on the device, any key but empty")
    func keyNames() throws {
        let store = try RecordStore.inMemory()
        let shared = store.keyValues(namespace: "shared", syncs: true)
        for key in ["caf\u{E9}", String(repeating: "k", count: 256), "_private"] {
            #expect(throws: EncodingError.self) { try shared.set(1, forKey: key) }
        }
        try shared.set(1, forKey: String(repeating: "k", count: 255))
        let device = store.keyValues(namespace: "device")
        try device.set(1, forKey: "caf\u{E9}")
        #expect(try device.value(forKey: "caf\u{E9}", default: 0) == 1)
        expectStoreError(.unnamedRecord(recordType: "KeyValue")) { try device.set(1, forKey: "") }
        expectStoreError(.unnamedRecord(recordType: "KeyValue")) { try device.set(Int?.none, forKey: "") }
    }
}

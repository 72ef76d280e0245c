import Foundation
import RecordCodable

enum Status: String, RecordEnum { case draft, published, unknown; static var fallbackCase: Status { .unknown } }
struct Child: Codable, Equatable { var name: String; var born: Date }
struct Model: Codable, Equatable {
    var id: UUID
    var title: String
    var count: Int8
    var big: UInt64
    var score: Float
    var tags: [String]
    var status: Status
    var statuses: [Status]
    var child: Child
    var children: [Child]
    var maybe: Int?
    var nested: [[Int]]
    var optionals: [String?]
    var dict: [String: Int]
    var url: URL
    var file: URL
    var decimal: Decimal
    var metadata: RecordMetadata?
    var set: Set<Int>
}
let m = Model(id: UUID(), title: "Hi", count: -128, big: UInt64(Int64.max), score: 1.5, tags: ["a", "b"], status: .published, statuses: [.draft, .published], child: Child(name: "c", born: Date(timeIntervalSince1970: 1.0000001)), children: [], maybe: nil, nested: [[1], [2, 3]], optionals: ["a", nil], dict: ["x": 1], url: URL(string: "https://example.com/a?b=c")!, file: URL(fileURLWithPath: "/tmp/x.png"), decimal: Decimal(string: "3.14159265358979323846264338327950288")!, metadata: RecordMetadata(changeTag: "abc"), set: [1, 2, 3])
let r = try RecordEncoder().encode(m)
print(r.recordType, r.recordName, r.encodedSize, r.metadata as Any)
for (k, v) in r.fields.sorted(by: { $0.key < $1.key }) {
    if case .bytes(let d) = v { print(k, "bytes", String(decoding: d, as: UTF8.self)) } else { print(k, v) }
}
let back = try RecordDecoder().decode(Model.self, from: r)
print(back == m)
print(MemoryLayout<RecordValue>.size, MemoryLayout<RecordValue>.stride)
do { _ = try RecordEncoder().encode([1, 2]) } catch { print(error) }
do { _ = try RecordEncoder().encode("x") } catch { print(error) }
var rr = r; rr["count"] = .int64(300)
do { _ = try RecordDecoder().decode(Model.self, from: rr) } catch { print(error) }
rr = r; rr["child"] = .bytes(Data(#"{"name":1,"born":0}"#.utf8))
do { _ = try RecordDecoder().decode(Model.self, from: rr) } catch { print(error) }
rr = r; rr["status"] = .string("zzz"); rr["statuses"] = .list([.string("q")])
print(try RecordDecoder().decode(Model.self, from: rr).status, try RecordDecoder().decode(Model.self, from: rr).statuses)

import Foundation
import Testing

@testable import RecordCodable

/// The message a server-to-server key signs, and the headers of a signed request.
@Suite("Server bodies: signing server-to-server requests")
struct ServerBodiesSigningTests {
    /// Apple's example date and subpath ("Authenticate Web Service Requests").
    static let date = Date(timeIntervalSince1970: 1_453_760_143)  // 2016-01-25T22:15:43Z
    static let subpath = "/database/1/iCloud.com.example.gkumar.MyApp/development/public/records/query"

    @Test("The message is the date, the Base64 SHA-256 of the body and the subpath, joined by colons")
    func messageBytes() {
        let body = Data(#"{"users":[{"emailAddress":"mei@example.com"}]}"#.utf8)
        let message = ServerToServerMessage(date: Self.date, body: body, subpath: Self.subpath)
        #expect(message.date == "2016-01-25T22:15:43Z")
        #expect(message.bodyHash == "BrWjvjQfiPeP20Q/3zqFKbdMNYAI9zBr0f63TUsgYEE=")
        #expect(
            message.message
                == "2016-01-25T22:15:43Z:BrWjvjQfiPeP20Q/3zqFKbdMNYAI9zBr0f63TUsgYEE=:"
                + "/database/1/iCloud.com.example.gkumar.MyApp/development/public/records/query")
        #expect(message.data == Data(message.message.utf8))
        #expect(message.subpath == Self.subpath)
    }

    @Test("A request without a body signs the digest of no bytes")
    func emptyBody() {
        let message = ServerToServerMessage(
            date: Self.date, body: Data(), subpath: "/database/1/c/development/private/zones/list")
        #expect(message.bodyHash == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(
            message.message
                == "2016-01-25T22:15:43Z:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:/database/1/c/development/private/zones/list"
        )
    }

    @Test("The date is in UTC, to the second, never later than the request")
    func dates() {
        func signedDate(_ seconds: Double) -> String {
            ServerToServerMessage(date: Date(timeIntervalSince1970: seconds), body: Data(), subpath: "/").date
        }
        #expect(signedDate(1_453_760_143.999) == "2016-01-25T22:15:43Z")
        #expect(signedDate(0) == "1970-01-01T00:00:00Z")
        #expect(signedDate(-0.5) == "1969-12-31T23:59:59Z")
        // Within half a millisecond of the next second, which the formatter alone rounds up to.
        #expect(signedDate(1_453_760_143.9996) == "2016-01-25T22:15:43Z")
        #expect(signedDate(59.9996) == "1970-01-01T00:00:59Z")
    }

    @Test("The three headers, by their names in Apple's reference")
    func headers() {
        let message = ServerToServerMessage(date: Self.date, body: Data("{}".utf8), subpath: Self.subpath)
        #expect(
            message.headers(keyID: "key-1", signature: "MEUCIQ==")
                == [
                    "X-Apple-CloudKit-Request-KeyID": "key-1",
                    "X-Apple-CloudKit-Request-ISO8601Date": "2016-01-25T22:15:43Z",
                    "X-Apple-CloudKit-Request-SignatureV1": "MEUCIQ==",
                ])
        #expect(ServerToServerMessage.keyIDHeader == "X-Apple-CloudKit-Request-KeyID")
        #expect(ServerToServerMessage.dateHeader == "X-Apple-CloudKit-Request-ISO8601Date")
        #expect(ServerToServerMessage.signatureHeader == "X-Apple-CloudKit-Request-SignatureV1")
    }

    @Test("The body hashed is the body sent: the encoded request's bytes")
    func encodedBody() throws {
        let body = try JSONEncoder().encode(RecordsQueryRequest(query: RecordQuery(recordType: "Artist")))
        #expect(String(decoding: body, as: UTF8.self) == #"{"query":{"recordType":"Artist"}}"#)
        let message = ServerToServerMessage(date: Self.date, body: body, subpath: Self.subpath)
        #expect(message.bodyHash == "zIUdxV6LBJq7FjcfhFsYehzW80lMmthbCNCRo9sFIeU=")
    }
}

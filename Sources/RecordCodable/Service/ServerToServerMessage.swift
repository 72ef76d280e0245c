import Foundation

/// The message a CloudKit server-to-server key signs, and the headers that carry the signature.
///
/// A server that uses a container's public database as its developer authenticates each request
/// with a server-to-server key: an ECDSA P-256 key pair whose public half is registered in
/// CloudKit Console, which gives it a key ID. Each request carries three headers: the key ID, the
/// date, and a signature of the message
/// `[date]:[Base64 of the body's SHA-256]:[the URL's subpath]`. This type builds the message and
/// names the headers; the signature is made with a P-256 implementation such as swift-crypto's
/// (`import Crypto`), which this package does not depend on:
///
/// ```swift
/// import Crypto
///
/// let body = try JSONEncoder().encode(queryRequest)
/// let message = ServerToServerMessage(
///     body: body, subpath: "/database/1/iCloud.com.example.MyApp/development/public/records/query")
/// let key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
/// let signature = try key.signature(for: message.data).derRepresentation.base64EncodedString()
///
/// var request = URLRequest(url: URL(string: "https://api.apple-cloudkit.com" + message.subpath)!)
/// request.httpMethod = "POST"
/// request.httpBody = body
/// for (name, value) in message.headers(keyID: keyID, signature: signature) {
///     request.setValue(value, forHTTPHeaderField: name)
/// }
/// ```
///
/// `signature(for:)` hashes the message with SHA-256 before signing it, as CloudKit expects. The
/// server refuses a request whose date is too far from its own clock, so build the message just
/// before sending it, and sign the exact bytes sent as the body.
public struct ServerToServerMessage: Hashable, Sendable {
    /// The header that names the key: its key ID from CloudKit Console.
    public static let keyIDHeader = "X-Apple-CloudKit-Request-KeyID"

    /// The header that carries the signed date, ``date``.
    public static let dateHeader = "X-Apple-CloudKit-Request-ISO8601Date"

    /// The header that carries the Base64 DER signature of ``message``.
    public static let signatureHeader = "X-Apple-CloudKit-Request-SignatureV1"

    /// The date of the request in ISO 8601, in UTC and without fractions of a second, such as
    /// `2016-01-25T22:15:43Z`.
    public let date: String

    /// The Base64 text of the SHA-256 digest of the request's body.
    public let bodyHash: String

    /// The path of the request's URL without the service's address, from `/database/` on, such
    /// as `/database/1/iCloud.com.example.MyApp/development/public/records/query`.
    public let subpath: String

    /// Builds the message for a request.
    ///
    /// - Parameters:
    ///   - date: When the request is made; now by default.
    ///   - body: The exact bytes of the request's body; empty for a request without one.
    ///   - subpath: The path of the request's URL from `/database/` on, as it is sent.
    public init(date: Date = Date(), body: Data, subpath: String) {
        self.date = Self.iso8601(date)
        self.bodyHash = Data(SHA256.digest(of: body)).base64EncodedString()
        self.subpath = subpath
    }

    /// The text to sign: `[date]:[body hash]:[subpath]`.
    public var message: String { "\(date):\(bodyHash):\(subpath)" }

    /// The bytes to sign: the UTF-8 bytes of ``message``.
    public var data: Data { Data(message.utf8) }

    /// The three headers of the signed request.
    ///
    /// - Parameters:
    ///   - keyID: The key's ID from CloudKit Console.
    ///   - signature: The Base64 text of the DER signature of ``data`` with the key.
    /// - Returns: The headers by name: the key ID, the date and the signature.
    public func headers(keyID: String, signature: String) -> [String: String] {
        [Self.keyIDHeader: keyID, Self.dateHeader: date, Self.signatureHeader: signature]
    }

    /// `date` in ISO 8601 with a `Z`, to the second. The seconds are rounded down, so that the
    /// date signed is never later than the request.
    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        // The formatter rounds to the nearest millisecond first, which could carry a date within
        // half a millisecond of the next second into it: so the fraction goes first.
        let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
        return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
    }
}

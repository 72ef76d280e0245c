import Foundation

/// How the client proves who it is to CloudKit Web Services.
///
/// A request carries one kind of credential, never both (the server refuses a request that mixes
/// them):
///
/// - ``serverToServer(keyID:sign:)``: a server-to-server key, for a server that reaches a
///   container's public database as its developer. The key is an ECDSA P-256 key pair whose
///   public half is registered in CloudKit Console, which gives it the key ID. For each request
///   the client builds the message to sign (`ServerToServerMessage`: the date, the Base64
///   SHA-256 of the body and the URL's subpath, joined by colons), hands its bytes to `sign`, and
///   sends the key ID, the date and the Base64 of the signature `sign` returns as the headers
///   `X-Apple-CloudKit-Request-KeyID`, `X-Apple-CloudKit-Request-ISO8601Date` and
///   `X-Apple-CloudKit-Request-SignatureV1`. The package has no dependency, so the signing is
///   the caller's: swift-crypto (`import Crypto`) everywhere, CryptoKit on Apple platforms:
///
///   ```swift
///   let key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
///   let credentials = CloudKitCredentials.serverToServer(keyID: keyID) { message in
///       try key.signature(for: message).derRepresentation   // SHA-256, then ECDSA
///   }
///   ```
///
/// - ``apiToken(_:webAuthToken:)``: an API token from CloudKit Console, for a web page or an app
///   acting for a user, sent as the query parameter `ckAPIToken`; with the user's web auth token
///   (`ckWebAuthToken`) the request acts as that user, and may reach the private and shared
///   databases. The server answers each request made with a web auth token with the next one, in
///   the response header `X-Apple-CloudKit-Web-Auth-Token`: the client sends that one from then
///   on (see ``CloudKitDatabase/webAuthToken``), and makes its requests one at a time so that
///   each carries the token the answer before handed out.
public enum CloudKitCredentials: Sendable {
    /// A server-to-server key: its key ID from CloudKit Console, and a closure that signs the
    /// bytes it is given with the key's private half (ECDSA P-256 over their SHA-256) and
    /// returns the signature in DER.
    case serverToServer(keyID: String, sign: @Sendable (Data) async throws -> Data)

    /// An API token from CloudKit Console and, to act as a signed-in user, that user's web auth
    /// token.
    case apiToken(_ token: String, webAuthToken: String? = nil)
}

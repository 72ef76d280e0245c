import Foundation

/// Encrypts everything a store writes: records, their sync state, the keys that name them.
///
/// A store opened with a cipher passes every entry of its journal through ``seal(_:)`` before
/// writing it and through ``open(_:)`` after reading it; nothing leaves the process in the
/// clear but the frames' lengths and checksums, and how many entries each holds and how long
/// each is. The store keeps a sealed check value in its
/// header, so opening it with another cipher or key, or without one, is a
/// ``RecordStoreError`` — never garbage records.
///
/// The package ships no cipher, so that it keeps no dependency. Wrap an authenticated cipher,
/// such as AES-GCM from CryptoKit or swift-crypto:
///
/// ```swift
/// import Crypto   // swift-crypto; `import CryptoKit` on Apple platforms
/// import Foundation
///
/// struct AESGCMCipher: RecordStoreCipher {
///     let key: SymmetricKey
///     func seal(_ plaintext: Data) throws -> Data {
///         try AES.GCM.seal(plaintext, using: key).combined ?? Data()
///     }
///     func open(_ sealed: Data) throws -> Data {
///         try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key)
///     }
/// }
///
/// var options = RecordStore.Options()
/// options.cipher = AESGCMCipher(key: keyFromTheKeychain)
/// let store = try RecordStore(directory: url, options: options)
/// ```
///
/// Use an authenticated cipher: one whose ``open(_:)`` throws when the bytes were not sealed
/// with its key. The store checks its own check value, but only an authenticated cipher tells
/// a damaged or forged entry from a real one.
public protocol RecordStoreCipher: Sendable {
    /// Encrypts `plaintext`. Each call may give different bytes for the same input (a fresh
    /// nonce each time is what makes the cipher safe).
    func seal(_ plaintext: Data) throws -> Data

    /// Decrypts what ``seal(_:)`` returned. Throws when `sealed` was not sealed with this
    /// cipher's key, or was changed since.
    func open(_ sealed: Data) throws -> Data
}

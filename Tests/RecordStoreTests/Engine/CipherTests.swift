import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// A cipher for tests only: XOR with a key stream, and a tag that `open` checks, as an
/// authenticated cipher would. Not encryption anyone should use.
struct ToyCipher: RecordStoreCipher {
    var key: UInt8

    struct WrongKey: Error {}

    func seal(_ plaintext: Data) throws -> Data {
        var sealed = Data(plaintext.enumerated().map { $0.element ^ stream($0.offset) })
        sealed.append(contentsOf: tag(of: plaintext))
        return sealed
    }

    func open(_ sealed: Data) throws -> Data {
        guard sealed.count >= 4 else { throw WrongKey() }
        let body = sealed.prefix(sealed.count - 4)
        let plaintext = Data(body.enumerated().map { $0.element ^ stream($0.offset) })
        guard Array(sealed.suffix(4)) == tag(of: plaintext) else { throw WrongKey() }
        return plaintext
    }

    private func stream(_ index: Int) -> UInt8 {
        key &+ UInt8(truncatingIfNeeded: index &* 31)
    }

    private func tag(of plaintext: Data) -> [UInt8] {
        var crc = CRC32()
        crc.update([key] + Array(plaintext))
        return withUnsafeBytes(of: crc.value) { Array($0) }
    }
}

/// A cipher that works, then fails to open anything, as one whose key is not available (a
/// locked keychain) would.
final class FailingCipher: RecordStoreCipher, @unchecked Sendable {
    private let lock = NSLock()
    /// How many more calls of `open` work; only touched with `lock` held.
    private var opensLeft: Int

    struct KeyUnavailable: Error, CustomStringConvertible {
        var description: String { "the key is not available" }
    }

    init(opensBeforeFailing: Int = .max) {
        opensLeft = opensBeforeFailing
    }

    /// Makes every `open` from now on fail.
    func fail() {
        lock.lock()
        opensLeft = 0
        lock.unlock()
    }

    /// Makes every `open` from now on work again.
    func recover() {
        lock.lock()
        opensLeft = .max
        lock.unlock()
    }

    func seal(_ plaintext: Data) throws -> Data {
        try ToyCipher(key: 3).seal(plaintext)
    }

    func open(_ sealed: Data) throws -> Data {
        lock.lock()
        let works = opensLeft > 0
        if works { opensLeft -= 1 }
        lock.unlock()
        guard works else { throw KeyUnavailable() }
        return try ToyCipher(key: 3).open(sealed)
    }
}

@Suite("Cipher")
struct CipherTests {
    func options(_ cipher: (any RecordStoreCipher)?) -> RecordStore.Options {
        var options = RecordStore.Options()
        options.cipher = cipher
        return options
    }

    @Test("Everything written goes through the cipher: no record, name or token is in the clear")
    func nothingInTheClear() throws {
        try withStoreDirectory { directory in
            do {
                let store = try RecordStore(directory: directory, options: options(ToyCipher(key: 7)))
                try store.save(noteRecord("SecretName", title: "SecretTitle"), inZone: "SecretZone")
                try store.applyFetched([], zone: "SecretZone", syncToken: "SecretToken")
                try store.keyValues(namespace: "SecretSpace").set("SecretValue", forKey: "SecretKey")
                try store.compact()
                try store.save(noteRecord("SecretAfterCompaction"))
            }
            let text = String(decoding: try Data(contentsOf: journalURL(in: directory)), as: UTF8.self)
            #expect(!text.contains("Secret"))
            let store = try RecordStore(directory: directory, options: options(ToyCipher(key: 7)))
            #expect(
                try store.record(for: noteKey("SecretName", zone: "SecretZone"))?["title"] == .string("SecretTitle"))
            #expect(try store.syncToken(forZone: "SecretZone") == "SecretToken")
            #expect(
                try store.keyValues(namespace: "SecretSpace").value(String.self, forKey: "SecretKey") == "SecretValue")
        }
    }

    @Test("Opening with the wrong cipher, none, or one the store does not use is a clear error")
    func wrongCipher() throws {
        try withStoreDirectory { directory in
            let path = directory.path + "/" + Journal.fileName
            do {
                let store = try RecordStore(directory: directory, options: options(ToyCipher(key: 7)))
                try store.save(noteRecord("N1"))
            }
            expectStoreError(.wrongCipher(path: path)) {
                _ = try RecordStore(directory: directory, options: options(ToyCipher(key: 8)))
            }
            expectStoreError(.cipherRequired(path: path)) { _ = try RecordStore(directory: directory) }
            #expect(throws: Never.self) { try RecordStore(directory: directory, options: options(ToyCipher(key: 7))) }
        }
        try withStoreDirectory { directory in
            _ = try RecordStore(directory: directory)
            expectStoreError(.notEncrypted(path: directory.path + "/" + Journal.fileName)) {
                _ = try RecordStore(directory: directory, options: options(ToyCipher(key: 7)))
            }
        }
    }

    @Test("A cipher that fails while reading is reported as the cipher's failure, not as a damaged journal")
    func cipherFailureIsNotDamage() throws {
        try withStoreDirectory { directory in
            let path = directory.path + "/" + Journal.fileName
            let cipher = FailingCipher()
            do {
                let store = try RecordStore(directory: directory, options: options(cipher))
                try store.save(noteRecord("N1"))
                try store.save(noteRecord("N2"))
                cipher.fail()
                do {
                    _ = try store.record(for: noteKey("N1"))
                    Issue.record("A record was read through a cipher that fails")
                } catch let RecordStoreError.cipherFailed(failedPath, _, reason) {
                    #expect(failedPath == path)
                    #expect(reason == "the key is not available")
                }
            }
            // On opening, the header opens and the first entry does not: the cipher's failure,
            // even for an opening that recovers what it can, which must not skip the frame.
            for recovering in [false, true] {
                var options = options(FailingCipher(opensBeforeFailing: 1))
                options.recoversDamagedFrames = recovering
                #expect {
                    _ = try RecordStore(directory: directory, options: options)
                } throws: { error in
                    guard case .cipherFailed(path, _, "the key is not available") = error as? RecordStoreError
                    else { return false }
                    return true
                }
            }
            let store = try RecordStore(directory: directory, options: options(FailingCipher()))
            #expect(try store.titles() == ["N1": "Title", "N2": "Title"])
        }
    }

    @Test("An in-memory store takes a cipher too")
    func inMemory() throws {
        let store = try RecordStore.inMemory(options: options(ToyCipher(key: 1)))
        try store.park(Note(id: "N1", title: "Hello"))
        #expect(try store.retrieve(Note.self, identifier: "N1")?.title == "Hello")
    }
}

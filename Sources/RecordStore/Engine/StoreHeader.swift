import Foundation

/// The store's header, the journal's first frame: the format and whether the store is
/// encrypted, with a known value sealed by its cipher, so that opening it with the wrong cipher
/// (or none) fails at once with a clear error instead of reading garbage.
enum StoreHeader {
    private static let version: UInt8 = 1
    private static let checkValue = Array("RecordStore: this cipher opens this store.".utf8)

    /// The header of a new store.
    static func bytes(cipher: (any RecordStoreCipher)?) throws -> [UInt8] {
        var writer = ByteWriter()
        writer.append(version)
        writer.append(UInt8(cipher == nil ? 0 : 1))
        if let cipher {
            writer.appendBlob(try cipher.seal(Data(checkValue)))
        } else {
            writer.appendBlob(checkValue)
        }
        return writer.bytes
    }

    /// Checks that `cipher` opens the store whose header is `header`.
    static func verify(_ header: [UInt8], cipher: (any RecordStoreCipher)?, path: String) throws {
        try header.withUnsafeBytes { bytes in
            var reader = ByteReader(bytes)
            let malformed = RecordStoreError.corruptJournal(
                path: path, offset: Frame.fileHeaderSize, reason: "the store's header cannot be read")
            guard let version = try? reader.byte(), let sealed = try? reader.byte(), let check = try? reader.data()
            else { throw malformed }
            guard version == Self.version else {
                throw RecordStoreError.unsupportedFormat(path: path, version: Int(version))
            }
            switch (sealed, cipher) {
            case (0, nil):
                guard check.elementsEqual(checkValue) else { throw malformed }
            case (0, .some):
                throw RecordStoreError.notEncrypted(path: path)
            case (_, nil):
                throw RecordStoreError.cipherRequired(path: path)
            case (_, let cipher?):
                guard let opened = try? cipher.open(check), opened.elementsEqual(checkValue) else {
                    throw RecordStoreError.wrongCipher(path: path)
                }
            }
        }
    }
}

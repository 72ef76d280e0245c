import Foundation
import RecordCodable
import Testing

@testable import RecordStoreKit

/// The journal entry of a zone's sync token, which keeps the zone's owner after the token.
@Suite("Sync token entries")
struct SyncTokenEntryTests {
    func bytes(_ token: String?, owner: String?) -> [UInt8] {
        var writer = ByteWriter()
        JournalEntry.writeSyncToken(token, owner: owner, forZone: "Notes", to: &writer)
        return writer.bytes
    }

    func read(_ bytes: [UInt8]) throws -> (token: String?, owner: String?) {
        let summary = try bytes.withUnsafeBytes { try JournalEntry.summary(of: $0) }
        guard case .syncToken(let zone, let token, let owner) = summary else {
            Issue.record("not a sync token: \(summary)")
            return (nil, nil)
        }
        #expect(zone == "Notes")
        let whole = try bytes.withUnsafeBytes { try JournalEntry(from: $0) }
        guard case .syncToken(_, token, owner) = whole else {
            Issue.record("the whole entry differs from its summary: \(whole)")
            return (nil, nil)
        }
        return (token, owner)
    }

    @Test("A token without an owner is written as before; one with an owner keeps it after the token")
    func ownerAfterToken() throws {
        var before = ByteWriter()
        before.append(UInt8(3))
        before.appendString("Notes")
        before.append(UInt8(1))
        before.appendString("t1")
        #expect(bytes("t1", owner: nil) == before.bytes)
        #expect(try read(before.bytes) == ("t1", nil))

        let withOwner = bytes("t1", owner: "_me")
        // What came before the owner is the entry an earlier version wrote and reads, flag aside.
        #expect(Array(withOwner.prefix(before.bytes.count)) == before.bytes.enumerated().map { $0 == 10 ? 3 : $1 })
        #expect(try read(withOwner) == ("t1", "_me"))
        // No token, no owner: the zone's token is forgotten.
        #expect(try read(bytes(nil, owner: "_me")) == (nil, nil))
    }
}

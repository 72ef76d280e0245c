// libFuzzer targets for RecordStore. This file is compiled together with the store's sources
// into a fuzzing binary of its own (see run.sh), which links RecordCodable as a module, so it uses
// the store's internal journal types without importing them.
//
// RECORD_FUZZ_TARGET chooses the target:
//   store  — the bytes are a recipe for a journal whose frames all pass their checksums: what a
//            store of a newer version, a bug, or a fault before a write could leave.
//   sync   — the bytes are the server's JSON: a modify response to a store's requests, a query
//            page and a changes page, applied to a store that owes the server every kind of change.
//   ops    — the bytes are a program of saves, deletes, batches, failed writes and flushes,
//            reopenings, power cuts, compactions, requests and their answers, run against a store
//            and against a dictionary of what it must hold.
//
// Using the store must end in values or the store's errors, never in a crash; a store that opened
// keeps what it holds through a compaction and a reopening; and under `ops`, the store holds what
// the dictionary holds after every step.
//
// Recipe of a journal: one byte of options, then frames, each a payload length (two bytes,
// little-endian) and the payload (entries, each a four-byte length and its bytes, as
// ``FrameBuilder`` writes them). A frame that the end of the bytes cuts short ends the journal cut
// short too, as a write torn by a crash leaves it. Options bit 0: open with
// `recoversDamagedFrames`.
//
// RECORD_FUZZ_WRITE_SEEDS=DIR writes recipes of real stores' journals to DIR and exits.
import Foundation
import RecordCodable

private let target = ProcessInfo.processInfo.environment["RECORD_FUZZ_TARGET"] ?? "store"

/// libFuzzer's entry point: runs the target on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    switch target {
    case "store": fuzzJournal(bytes)
    case "sync": fuzzServerAnswers(Data(bytes))
    case "ops": fuzzOperations(bytes)
    default: failure("RECORD_FUZZ_TARGET is store, sync or ops, not \(target)")
    }
    return 0
}

/// libFuzzer's hook before the first input: writes the seeds instead, when asked to.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutableRawPointer?, _ argv: UnsafeMutableRawPointer?) -> CInt {
    // Exits once the seeds' strings are let go of, so that the leak checker at exit finds none.
    if StoreSeeds.writeIfAsked() { exit(0) }
    return 0
}

/// Stops the fuzzer with a crash that it records, for a property that did not hold.
private func failure(_ message: String) -> Never {
    fatalError("fuzz property failed: \(message)")
}

/// The journal of a new store in memory after `build` has used it.
private func journal(of build: (RecordStore) throws -> Void) -> [UInt8] {
    do {
        let directory = MemoryDirectory(faults: nil)
        let store = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
        try build(store)
        let size = try store.journalSize
        store.close()
        guard let file = try directory.openFile(named: Journal.fileName) else { failure("a store has no journal") }
        return try file.read(count: size, at: 0)
    } catch {
        failure("a store could not be made: \(error)")
    }
}

/// A new store's journal up to its first commit: the file header and the store's header frame.
private let emptyJournal = journal { _ in }

/// The salt of a journal, the second eight bytes of its file header.
private func salt(of journal: [UInt8]) -> UInt64 {
    journal[8..<16].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
}

/// The server's answer to `request` when it does all it was sent, as change `tag`.
private func success(of request: RecordsModifyRequest, tag: String) -> RecordsModifyResponse {
    RecordsModifyResponse(
        records: request.operations.map { operation in
            var record = operation.record
            record.metadata = RecordMetadata(changeTag: tag, deleted: operation.operationType.isDeleting)
            return .success(record)
        })
}

/// The server's answer to `request` when it refuses every record as changed since.
private func conflicts(of request: RecordsModifyRequest) -> RecordsModifyResponse {
    answering(request) { _ in RecordServerError(serverErrorCode: .conflict) }
}

/// The server's answer to `request` that refuses each operation's record with `error`.
private func answering(
    _ request: RecordsModifyRequest, _ error: (RecordOperation) -> RecordServerError
) -> RecordsModifyResponse {
    RecordsModifyResponse(
        records: request.operations.map { operation in
            var refusal = error(operation)
            refusal.recordName = operation.record.recordName
            return .failure(refusal)
        })
}

/// The journal a recipe describes, and the options to open it with.
private func journal(from recipe: [UInt8]) -> (bytes: [UInt8], options: RecordStore.Options) {
    var options = RecordStore.Options()
    options.recoversDamagedFrames = (recipe.first ?? 0) & 1 != 0
    var bytes = emptyJournal
    let salt = salt(of: bytes)
    var position = 1
    while position + 2 <= recipe.count {
        let declared = Int(recipe[position]) | Int(recipe[position + 1]) << 8
        position += 2
        let payload = Array(recipe[position..<min(position + declared, recipe.count)])
        position += payload.count
        let frame = frame(of: payload, salt: salt)
        guard payload.count < declared else {
            bytes += frame
            continue
        }
        // Torn: the header declares the whole payload, of which only a part was written.
        bytes += frame[..<4] + withUnsafeBytes(of: UInt32(declared).littleEndian, Array.init) + frame[8...]
    }
    return (bytes, options)
}

/// A frame of `payload` that passes its checksum in a journal of `salt`. `payload` holds entries
/// with their lengths already, where ``FrameBuilder`` adds the lengths of the entries it is given.
private func frame(of payload: [UInt8], salt: UInt64) -> [UInt8] {
    var writer = ByteWriter(capacity: Frame.headerSize + payload.count)
    writer.append(contentsOf: Frame.magic)
    writer.append(UInt32(truncatingIfNeeded: payload.count))
    writer.append(payload.withUnsafeBytes { Frame.checksum(salt: salt, payload: $0) })
    writer.append(contentsOf: payload)
    return writer.bytes
}

/// A store of the journal `bytes`, written to `directory` and opened with `options`.
private func open(_ bytes: [UInt8], in directory: MemoryDirectory, options: RecordStore.Options) throws -> RecordStore {
    try directory.createFile(named: Journal.fileName).write(bytes, at: 0)
    return try RecordStore(storeDirectory: directory, url: nil, options: options)
}

/// The `store` target: the journal that `recipe` describes, opened and used.
private func fuzzJournal(_ recipe: [UInt8]) {
    let (bytes, options) = journal(from: recipe)
    let directory = MemoryDirectory(faults: nil)
    let store: RecordStore
    do {
        store = try open(bytes, in: directory, options: options)
    } catch {
        expectStoreError(error, "opening")
        return
    }
    useAndCheck(store, in: directory)
}

/// The `sync` target: `json` answered to a store that owes the server every kind of change, as a
/// modify response to its requests, then applied as a query page and as a changes page.
private func fuzzServerAnswers(_ json: Data) {
    let directory = MemoryDirectory(faults: nil)
    let store: RecordStore
    do {
        store = try open(owingJournal, in: directory, options: RecordStore.Options())
    } catch {
        failure("the store to answer did not open: \(error)")
    }
    let decoder = RecordJSONDecoder()
    attempt("applying a modify response") {
        guard let response = try? decoder.decode(RecordsModifyResponse.self, from: json) else { return }
        for request in try store.modifyRequests() { try store.apply(response, for: request) }
    }
    attempt("applying a query page") {
        guard let page = try? decoder.decode(RecordsQueryResponse.self, from: json) else { return }
        try store.applyFetched(page)
    }
    attempt("applying a changes page") {
        guard let page = try? decoder.decode(RecordsChangesResponse.self, from: json) else { return }
        try store.applyFetched(page, zone: "Work")
    }
    useAndCheck(store, in: directory)
}

/// The `ops` target: `program` run against a store and a dictionary of the titles it must hold.
private func fuzzOperations(_ program: [UInt8]) {
    var program = program[...]
    func next() -> Int { Int(program.popFirst() ?? 0) }
    let faults = StoreFaults()
    let directory = MemoryDirectory(faults: faults)
    var options = RecordStore.Options()
    options.faults = faults
    options.compactionThreshold = 4096
    func open() -> RecordStore {
        do {
            return try RecordStore(storeDirectory: directory, url: nil, options: options)
        } catch {
            failure("the store did not open: \(error)")
        }
    }
    var store = open()
    var titles: [RecordKey: String] = [:]
    var requests: [RecordsModifyRequest] = []
    // Names that collide in different ways: across types and zones, in their bytes or only in
    // their canonical form, and one long enough to need more than a byte for its length.
    let names = ["a", "b", "é", "e\u{301}", "a/b", "\u{1F600}", String(repeating: "n", count: 300), ""]
    func key() -> RecordKey {
        let pick = next()
        return RecordKey(
            zone: pick & 1 == 0 ? RecordStore.defaultZone : "Work", recordType: pick & 2 == 0 ? "Note" : "Task",
            recordName: names[(pick >> 2) % names.count])
    }
    func record(_ key: RecordKey, _ title: String) -> Record {
        var record = Record(recordType: key.recordType, recordName: key.recordName, fields: ["title": .string(title)])
        record.metadata = RecordMetadata(zoneID: RecordZoneID(zoneName: key.zone))
        return record
    }
    func title() -> String { String(repeating: "t", count: next()) }
    // Saves a record, as the dictionary does; both refuse one without a name.
    func save() throws {
        let key = key()
        let title = title()
        do {
            try store.save(record(key, title))
            titles[key] = title
        } catch RecordStoreError.unnamedRecord where key.recordName.isEmpty {}
    }

    for step in 0..<64 where !program.isEmpty {
        do {
            switch next() % 10 {
            case 0, 1, 2:
                try save()
            case 3:
                let key = key()
                try store.deleteRecord(for: key)
                titles[key] = nil
            case 4:
                var staged = titles
                let abandon = next() & 1 == 1
                struct Abandon: Error {}
                do {
                    try store.write { batch in
                        for _ in 0...(next() % 4) {
                            let key = key()
                            let title = title()
                            if next() & 1 == 0, !key.recordName.isEmpty {
                                try batch.save(record(key, title))
                                staged[key] = title
                            } else {
                                try batch.deleteRecord(for: key)
                                staged[key] = nil
                            }
                        }
                        if abandon { throw Abandon() }
                    }
                    titles = staged
                } catch is Abandon {}
            case 5:
                // A full disk, or a flush that fails: the commit leaves nothing behind.
                if next() & 1 == 0 {
                    faults.failWrites(with: ENOSPC, afterBytes: next() * 4)
                } else {
                    faults.fail(.flush, times: 1, with: EIO)
                }
                do {
                    try save()
                } catch RecordStoreError.fileSystem {}
                faults.failWrites(with: nil)
                faults.fail(.flush, times: 0, with: EIO)
            case 6:
                store.close()
                if next() & 1 == 1 { directory.loseUnflushedWrites() }
                store = open()
            case 7:
                try store.compact()
            case 8:
                requests = try store.modifyRequests()
            default:
                // The server does all it was sent, or refuses it all as conflicts, or finds none of
                // it (deleted since): what the app reads is the same each way.
                let answer = next() % 3
                for request in requests {
                    let response =
                        switch answer {
                        case 0: success(of: request, tag: "t\(step)")
                        case 1: conflicts(of: request)
                        default: answering(request) { _ in RecordServerError(serverErrorCode: .notFound) }
                        }
                    try store.apply(response, for: request)
                }
                requests = []
            }
        } catch {
            failure("step \(step) threw \(type(of: error)): \(error)")
        }
        var held: [RecordKey: String] = [:]
        do {
            for key in try store.keys() {
                if let record = try store.record(for: key), case .string(let title) = record["title"] {
                    held[key] = title
                }
            }
        } catch {
            failure("step \(step): reading the store threw \(error)")
        }
        guard held == titles else { failure("after step \(step) the store holds \(held), not \(titles)") }
    }
}

/// The journal of a store that owes the server every kind of change: made once, and opened
/// afresh for each input.
private let owingJournal = journal { store in
    for (_, build) in StoreSeeds.stores { try build(store) }
    try store.deleteRecord(for: RecordKey(zone: RecordStore.defaultZone, recordType: "Note", recordName: "d"))
}

/// Uses `store`, then checks that what it holds survives a compaction and a reopening of
/// `directory` unchanged.
private func useAndCheck(_ store: RecordStore, in directory: MemoryDirectory) {
    let held = contents(of: store)
    use(store)
    let before = contents(of: store)
    do {
        try store.compact()
    } catch {
        expectStoreError(error, "compacting")
        return
    }
    store.close()
    do {
        let reopened = try RecordStore(storeDirectory: directory, url: nil, options: RecordStore.Options())
        let after = contents(of: reopened)
        guard after == before else {
            failure("compacting and reopening changed the store: \(before) became \(after), opened as \(held)")
        }
    } catch {
        failure("a compacted store did not open again: \(error)")
    }
}

/// Each key with its record's JSON as the store keeps it (or the error reading it gave), and the
/// default zone's sync token.
private func contents(of store: RecordStore) -> [String: String] {
    var contents: [String: String] = [:]
    attempt("listing the keys") {
        for key in try store.keys() {
            let name = "\(key.zone)/\(key.recordType)/\(key.recordName)"
            contents[name] = "unreadable"
            attempt("reading a record's JSON") {
                contents[name] = try store.recordJSON(for: key).map { String(decoding: $0, as: UTF8.self) } ?? "deleted"
            }
        }
    }
    attempt("reading the sync token") { contents["sync token"] = try store.syncToken() ?? "none" }
    return contents
}

/// Reads everything the store holds in every way it can be read, and changes it a little.
private func use(_ store: RecordStore) {
    attempt("counting") { _ = try store.count }
    attempt("reading records") {
        for key in try store.keys() {
            attempt("reading a record") { _ = try store.record(for: key) }
            attempt("reading a stored record") { _ = try store.storedRecord(for: key) }
        }
    }
    for status in SyncStatus.allCases {
        attempt("listing records \(status)") { _ = try store.records(in: status) }
    }
    attempt("listing notes") { _ = try store.records(ofType: "Note") }
    attempt("making a changes request") { _ = try store.changesRequest() }
    attempt("making conflict lookups") { _ = try store.conflictLookupRequests() }
    attempt("sending changes") {
        for request in try store.modifyRequests() { try store.apply(success(of: request, tag: "fuzz"), for: request) }
    }
    // A model may not fit what the server sent (a list where it reads a string): that is the
    // model's DecodingError, whatever the target.
    attempt("reading models", modelsMayNotFit: true) { _ = try store.retrieveAll(Note.self) }
    attempt("reading key-values") {
        let values = store.keyValues(namespace: "fuzz")
        for key in try values.keys() { _ = try values.value(String.self, forKey: key) }
        try values.set("fuzz", forKey: "fuzz")
    }
    attempt("resolving conflicts") {
        for stored in try store.records(in: .conflict) { try store.acceptServerVersion(for: stored.key) }
    }
    attempt("fetching changes") {
        // The server's newer version of every record, as a fetch of changes brings it.
        let fetched = try store.keys().map { key -> RecordResult in
            var record = Record(
                recordType: key.recordType, recordName: key.recordName, fields: ["title": .string("new")])
            record.metadata = RecordMetadata(changeTag: "fetched", zoneID: RecordZoneID(zoneName: key.zone))
            return .success(record)
        }
        try store.applyFetched(fetched, syncToken: "fetched")
    }
    attempt("saving a record") {
        try store.save(Record(recordType: "Note", recordName: "fuzz", fields: ["title": .string("fuzz")]))
    }
    attempt("deleting a record") {
        if let key = try store.keys().first { try store.deleteRecord(for: key) }
    }
}

/// The model of the seeds' records, whose type is "Note".
private struct Note: Codable {
    var title: String?
    var count: Int?
}

/// Runs `body`, which may end in a value or in an error a store throws, and in nothing else; or,
/// when `modelsMayNotFit`, in the `DecodingError` of a model that does not fit its record.
private func attempt(_ what: String, modelsMayNotFit: Bool = false, _ body: () throws -> Void) {
    do {
        try body()
    } catch is DecodingError where modelsMayNotFit {
        // The model's own error, at the field that does not fit.
    } catch {
        expectStoreError(error, what)
    }
}

/// A store throws its own errors; reading a journal it cannot make sense of (the `store` target),
/// also the decoding error of a record's JSON. Anything else is a fault: a store the server
/// answers (`sync`) holds only JSON that decodes.
private func expectStoreError(_ error: any Error, _ what: String) {
    switch error {
    case is RecordStoreError: break
    case is DecodingError where target == "store": break
    default: failure("\(what) threw \(type(of: error)): \(error)")
    }
}

// MARK: Seeds

/// Writes the recipes of real stores' journals: a start for the fuzzer that has every kind of
/// entry in it.
private enum StoreSeeds {
    /// Writes the seeds to the directory `RECORD_FUZZ_WRITE_SEEDS` names, if it names one.
    static func writeIfAsked() -> Bool {
        guard let directory = ProcessInfo.processInfo.environment["RECORD_FUZZ_WRITE_SEEDS"] else { return false }
        write(to: URL(fileURLWithPath: directory))
        return true
    }

    static func write(to directory: URL) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, build) in stores {
                try Data(recipe(ofJournal: journal(of: build))).write(to: directory.appendingPathComponent(name))
            }
        } catch {
            failure("the seeds could not be written: \(error)")
        }
    }

    static func note(_ name: String, _ fields: [String: RecordValue] = ["title": .string("Title")]) -> Record {
        Record(recordType: "Note", recordName: name, fields: fields)
    }

    static let stores: [(String, (RecordStore) throws -> Void)] = [
        (
            "saves-and-a-delete",
            { store in
                try store.save(note("a"))
                try store.save(
                    note(
                        "b",
                        [
                            "count": .int64(3), "tags": .list([.string("x"), .string("y")]),
                            "when": .date(Date(timeIntervalSince1970: 1)),
                        ]))
                try store.deleteRecord(
                    for: RecordKey(zone: RecordStore.defaultZone, recordType: "Note", recordName: "a"))
            }
        ),
        (
            "synced-failed-and-token",
            { store in
                try store.save(note("c"), inZone: "Work")
                try store.save(note("e"))
                for request in try store.modifyRequests() {
                    let delay = RecordServerError(reason: "later", serverErrorCode: .throttled, retryAfter: 2.5)
                    try store.apply(answering(request) { _ in delay }, for: request)
                }
                var server = note("d")
                server.metadata = RecordMetadata(changeTag: "t1")
                try store.applyFetched([.success(server)], syncToken: "token-1")
            }
        ),
        (
            "conflict",
            { store in
                var server = note("f")
                server.metadata = RecordMetadata(changeTag: "t1")
                try store.applyFetched([.success(server)])
                var edited = server
                edited.fields["title"] = .string("Edited")
                try store.save(edited)
                for request in try store.modifyRequests() { try store.apply(conflicts(of: request), for: request) }
                server.fields["title"] = .string("Theirs")
                server.metadata = RecordMetadata(changeTag: "t2")
                try store.applyFetched([.success(server)])
                for request in try store.modifyRequests() {
                    try store.apply(success(of: request, tag: "t3"), for: request)
                }
            }
        ),
    ]

    /// The recipe of a journal: its frames after the store's header, payloads only.
    static func recipe(ofJournal journal: [UInt8]) -> [UInt8] {
        var recipe: [UInt8] = [0]
        var offset = Frame.fileHeaderSize
        var isHeader = true
        while offset + Frame.headerSize <= journal.count {
            let length = journal[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let payload = journal[offset + Frame.headerSize..<offset + Frame.headerSize + length]
            offset += Frame.headerSize + length
            if isHeader {
                isHeader = false
                continue
            }
            recipe += [UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8)]
            recipe += payload
        }
        return recipe
    }
}

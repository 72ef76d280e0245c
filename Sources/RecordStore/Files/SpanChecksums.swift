/// The checksum of any span of the journal after a point, each for less than a kilobyte of
/// checksum work: what lets the search for the next whole frame after damage check every frame
/// header it meets in time that grows with the file, not with the file times the headers.
///
/// Damaged bytes may hold many copies of a frame's magic, each declaring a long payload: user
/// data can hold anything, a record name included. Checking each by reading its payload would read
/// the same bytes once for every header before them. Instead, the file is read once from `origin`,
/// keeping the checksum register every ``step`` bytes. The register over any span then follows
/// from the registers at its two ends (see ``CRC32/advance(_:byZeros:)``). A span's end is a kept
/// register carried on over less than a step; its start is carried on from the last span's start
/// when that is nearer, as the search asks for spans in the order of their starts, so that all the
/// starts together cost one more reading of the file at most.
struct SpanChecksums {
    /// Where the registers start: the register there is zero.
    private let origin: Int
    /// The register of the bytes from `origin` to `origin + i · step`, for each i.
    private let registers: [UInt32]
    /// Reads for the spans' starts, which come in the order of the file: long ones, as for reading
    /// the file through.
    private var starts: FileWindow
    /// Reads for the spans' ends, which may be anywhere: no longer than two steps.
    private var ends: FileWindow

    /// The last span's start and the register there, which the next span's start carries on from
    /// when it is nearer than a kept register; the same for ends, which many headers in damaged
    /// bytes share (the end of the file, say).
    private var lastStart: (position: Int, register: UInt32)?
    private var lastEnd: (position: Int, register: UInt32)?

    /// How many bytes have gone through the checksum: those from `origin` on once, the starts
    /// together at most once more, and less than a step for each span's end.
    private(set) var checksummedBytes = 0

    /// How far apart the kept registers are: the most a span's end costs to read. The registers
    /// take a 256th of the bytes they cover.
    static let step = 1024

    /// Reads `file` from `origin` to `end` once, keeping the registers.
    init(file: any StoreFile, from origin: Int, to end: Int) throws {
        self.origin = origin
        starts = FileWindow(file: file, fileSize: end)
        ends = FileWindow(file: file, fileSize: end, minimumRead: 2 * Self.step)
        var registers: [UInt32] = []
        registers.reserveCapacity((end - origin) / Self.step + 1)
        var whole = FileWindow(file: file, fileSize: end)
        var crc = CRC32(register: 0)
        var position = origin
        registers.append(crc.register)
        while end - position >= Self.step {
            _ = try whole.withBytes(at: position, count: Self.step) { crc.update($0) }
            checksummedBytes += Self.step
            position += Self.step
            registers.append(crc.register)
        }
        self.registers = registers
    }

    /// The register of the bytes from `origin` to `position`, from zero, read through `window`:
    /// carried on from `nearer` when it is nearer than the kept register before `position`. Adds
    /// the bytes it runs through the checksum to `counted`.
    private static func register(
        at position: Int, origin: Int, registers: [UInt32], from nearer: (position: Int, register: UInt32)?,
        through window: inout FileWindow, counted: inout Int
    ) throws -> UInt32? {
        let kept = (position - origin) / step
        guard position >= origin, kept < registers.count else { return nil }
        var from = (position: origin + kept * step, register: registers[kept])
        if let nearer, nearer.position <= position, nearer.position > from.position { from = nearer }
        var crc = CRC32(register: from.register)
        let read: Void? = try window.withBytes(at: from.position, count: position - from.position) { crc.update($0) }
        counted += position - from.position
        return read.map { crc.register }
    }

    /// The checksum of `start` followed by the bytes in `span`; `nil` when the span is not within
    /// the bytes read.
    mutating func checksum(of span: Range<Int>, after start: CRC32) throws -> UInt32? {
        guard
            let first = try Self.register(
                at: span.lowerBound, origin: origin, registers: registers, from: lastStart, through: &starts,
                counted: &checksummedBytes),
            let last = try Self.register(
                at: span.upperBound, origin: origin, registers: registers, from: lastEnd, through: &ends,
                counted: &checksummedBytes)
        else { return nil }
        lastStart = (span.lowerBound, first)
        lastEnd = (span.upperBound, last)
        // Started from zero, the register over the span is `last ⊕ first · x^(8·count)`; started
        // from `start`'s register instead, it gains `start · x^(8·count)`.
        let advanced = CRC32.advance(start.register ^ first, byZeros: span.count)
        return CRC32(register: advanced ^ last).value
    }
}

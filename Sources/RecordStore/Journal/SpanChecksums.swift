/// The checksum of any span of the journal after a point, each for the cost of two short reads:
/// what lets the scan that looks for the next whole frame after damage check every frame header
/// it meets in time that grows with the file, not with the file times the headers.
///
/// Damaged bytes may hold many copies of a frame's magic, each declaring a long payload: user
/// data can hold anything, a record name included. Checking each by reading its payload would read
/// the same bytes once for every header before them. Instead, the file is read once from `origin`,
/// keeping the checksum register every ``step`` bytes. The register over any span then follows
/// from the registers at its two ends (see ``CRC32/advance(_:byZeros:)``), each of which is a
/// kept register carried on over less than a step.
struct SpanChecksums {
    /// Where the registers start: the register there is zero.
    private let origin: Int
    /// The register of the bytes from `origin` to `origin + i · step`, for each i.
    private var registers: [UInt32] = []
    /// Reads for the spans' starts, which come in the order of the file: long ones, as for reading
    /// the file through.
    private var starts: FileWindow
    /// Reads for the spans' ends, which may be anywhere: no longer than two steps.
    private var ends: FileWindow

    /// How many bytes have gone through the checksum: those from `origin` on once, and less than
    /// a step twice for each span.
    private(set) var checksummedBytes = 0

    /// How far apart the kept registers are: the most a span's end costs to read. The registers
    /// take a 256th of the bytes they cover.
    static let step = 1024

    /// Reads `file` from `origin` to `end` once, keeping the registers.
    init(file: any StoreFile, from origin: Int, to end: Int) throws {
        self.origin = origin
        starts = FileWindow(file: file, fileSize: end)
        ends = FileWindow(file: file, fileSize: end, minimumRead: 2 * Self.step)
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
    }

    /// The register of the bytes from `origin` to `position`, from zero, read through `window`.
    private func register(at position: Int, through window: inout FileWindow) throws -> UInt32? {
        let kept = (position - origin) / Self.step
        guard position >= origin, kept < registers.count else { return nil }
        let keptPosition = origin + kept * Self.step
        var crc = CRC32(register: registers[kept])
        let read: Void? = try window.withBytes(at: keptPosition, count: position - keptPosition) { crc.update($0) }
        return read.map { crc.register }
    }

    /// The checksum of `start` followed by the bytes in `span`; `nil` when the span is not within
    /// the bytes read.
    mutating func checksum(of span: Range<Int>, after start: CRC32) throws -> UInt32? {
        guard let first = try register(at: span.lowerBound, through: &starts),
            let last = try register(at: span.upperBound, through: &ends)
        else { return nil }
        // Each end was carried on from the kept register before it.
        checksummedBytes += (span.lowerBound - origin) % Self.step + (span.upperBound - origin) % Self.step
        // Started from zero, the register over the span is `last ⊕ first · x^(8·count)`; started
        // from `start`'s register instead, it gains `start · x^(8·count)`.
        let advanced = CRC32.advance(start.register ^ first, byZeros: span.count)
        return CRC32(register: advanced ^ last).value
    }
}

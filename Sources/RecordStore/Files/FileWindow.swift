/// Reads a file front to back a few megabytes at a time, so that opening a large journal costs
/// a few large reads instead of one small read for every frame and entry.
struct FileWindow {
    let file: any StoreFile
    /// The file's length when the window was made.
    let fileSize: Int
    /// How much the window reads at once, at least.
    private let minimumRead: Int
    /// The bytes read last; the first `loaded` of them are the file's from `start`. The memory
    /// is kept from one read to the next, so that reading a large file does not fault in new
    /// pages for every read.
    private var buffer: [UInt8] = []
    private var loaded = 0
    private var start = 0

    /// How much a window reads at once unless told otherwise: a few large reads for a file read
    /// front to back.
    static let readSize = 4 << 20

    init(file: any StoreFile, fileSize: Int, minimumRead: Int = FileWindow.readSize) {
        self.file = file
        self.fileSize = fileSize
        self.minimumRead = minimumRead
    }

    /// Calls `body` with the `count` bytes at `offset`, or returns `nil` when the file ends
    /// before them.
    mutating func withBytes<Result>(
        at offset: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result? {
        guard offset >= 0, count >= 0, offset <= fileSize, fileSize - offset >= count else { return nil }
        if offset < start || offset + count > start + loaded {
            try load(at: offset, count: min(max(count, minimumRead), fileSize - offset))
        }
        let relative = offset - start
        return try buffer.withUnsafeBytes { bytes in
            try body(UnsafeRawBufferPointer(rebasing: bytes[relative..<relative + count]))
        }
    }

    private mutating func load(at offset: Int, count: Int) throws {
        if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
        loaded = 0
        try buffer.withUnsafeMutableBytes { bytes in
            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]), at: offset)
        }
        loaded = count
        start = offset
    }
}

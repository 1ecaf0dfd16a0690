/// A PNG file's chunk headers in order, read in place without touching any chunk's data: what
/// finding the EXIF block and checking chunk lengths both walk. Valid only inside the
/// `withUnsafeBytes` that lent the bytes.
struct PNGChunkHeaders: Sequence, IteratorProtocol {
    struct Header {
        /// The four type letters; a byte that is not printable ASCII shows as "?".
        let type: String
        /// Where the chunk's data starts, and its length as the file claims it.
        let dataStart: Int
        let length: Int
        var dataEnd: Int { dataStart + length }
        /// Past the data and its 4-byte CRC: where the next chunk starts.
        var end: Int { dataEnd + 4 }
    }

    private let bytes: UnsafeRawBufferPointer
    private var offset = 8 // after the signature

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The next header, or nil when fewer than 8 bytes are left for one.
    mutating func next() -> Header? {
        guard offset + 8 <= bytes.count else { return nil }
        let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        let type = String(decoding: bytes[(offset + 4)..<(offset + 8)].map { (32...126).contains($0) ? $0 : 63 }, as: UTF8.self)
        let header = Header(type: type, dataStart: offset + 8, length: length)
        offset = header.end
        return header
    }
}

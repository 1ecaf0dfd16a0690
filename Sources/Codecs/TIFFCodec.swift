import CTIFFBridge
import Foundation
import Imaging

/// TIFF photos (from scanners and editors) through libtiff, which reads every layout it knows —
/// strips or tiles, 8 or 16 bits, RGB, grey, palette, CMYK, YCbCr, compressed or not — as RGBA.
/// Only the first image of a file is read. Its rows come as stored: the orientation tag is applied,
/// like a JPEG's, from the EXIF block `TIFFExif` makes of the file's own directories.
public struct TIFFCodec: Sendable {
    /// libtiff, loaded on first use.
    private let library: @Sendable () -> Result<TIFFLibrary, CodecError>

    public init() {
        self.init(library: { TIFFLibrary.loaded })
    }

    init(library: @escaping @Sendable () -> Result<TIFFLibrary, CodecError>) {
        self.library = library
    }

    /// The most any single allocation of libtiff may take (a strip, a tile, a table of offsets): a
    /// file that claims more, such as 2³¹ strips, is refused before anything is allocated.
    static let maximumAllocation: UInt64 = 64 << 20

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        guard !data.isEmpty else { throw CodecError.empty }
        let library = try library().get().table
        return try data.withUnsafeBytes { raw -> DecodedImage in
            var message = [CChar](repeating: 0, count: Int(SH_TIFF_MESSAGE_CAPACITY))
            var width: UInt32 = 0, height: UInt32 = 0, orientation: UInt16 = 0
            guard let reader = sh_tiff_open(library, raw.bindMemory(to: UInt8.self).baseAddress, raw.count, Self.maximumAllocation,
                                            &width, &height, &orientation, &message, message.count) else {
                throw Self.error(message)
            }
            defer { sh_tiff_close(reader) }
            let size = PixelSize(width: Int(width), height: Int(height))
            guard size.width > 0, size.height > 0 else { throw CodecError.corrupt(.tiff, "the image has no size") }
            guard size.pixelCount <= options.maximumPixelCount else {
                throw CodecError.tooManyPixels(width: size.width, height: size.height, limit: options.maximumPixelCount)
            }
            func read(_ rows: Range<Int>, into destination: UnsafeMutablePointer<UInt8>) throws {
                guard sh_tiff_read_rows(reader, UInt32(rows.lowerBound), UInt32(rows.count), destination, &message, message.count) == 0 else {
                    throw Self.error(message)
                }
            }
            let image: RGBAImage
            if let longSide = options.minimumLongSide, max(size.width, size.height) > 2 * longSide {
                // Analysis reads a band of rows at a time and averages it into blocks: the full-size
                // picture is never held.
                let factor = max(size.width, size.height) / (2 * longSide)
                // Rows are read a chunk at a time, at least a strip's or a tile's height where memory
                // allows, and the bands of `factor` rows averaged from it: libtiff decodes a strip from
                // its start through the rows asked for, and reading 672-row strips a row at a time
                // took 1.3 s for a 512 × 768 photo.
                let chunk = Self.chunkRows(factor: factor, rowsPerChunk: Int(sh_tiff_rows_per_chunk(reader)),
                                           rowBytes: size.width * 4, height: size.height)
                var buffer = [UInt8](repeating: 0, count: size.width * 4 * chunk)
                var first: Int?
                image = try BlockAverage.image(width: size.width, height: size.height, factor: factor,
                                               rowBytes: size.width * 4) { rows, body in
                    try buffer.withUnsafeMutableBufferPointer { buffer in
                        let start = rows.lowerBound / chunk * chunk
                        if first != start {
                            try read(start..<min(size.height, start + chunk), into: buffer.baseAddress!)
                            first = start
                        }
                        body(UnsafeRawPointer(buffer.baseAddress! + (rows.lowerBound - start) * size.width * 4))
                    }
                }.downscaled(toLongSide: 2 * longSide)
            } else {
                image = try RGBAImage(width: size.width, height: size.height) { destination in
                    try read(0..<size.height, into: destination.baseAddress!)
                }
            }
            return DecodedImage(format: .tiff, originalSize: size, image: image)
        }
    }

    /// How many rows to read at a time when a picture is averaged into blocks of `factor` rows: a whole
    /// number of blocks covering at least `rowsPerChunk` (what libtiff decodes together), unless that
    /// would hold more than `maximumAllocation` bytes of RGBA; at least one block (over that limit if
    /// a block is), or all of a picture less tall than that (a 60000 × 1 strip). Chunks are not aligned
    /// to strips, so a strip's start may be decoded twice: 1.1–1.3 times the rows, not hundreds.
    static func chunkRows(factor: Int, rowsPerChunk: Int, rowBytes: Int, height: Int) -> Int {
        let affordable = max(1, Int(maximumAllocation) / max(rowBytes, 1) / factor)
        let blocks = min((max(rowsPerChunk, 1) + factor - 1) / factor, affordable)
        return min(blocks * factor, height)
    }

    /// The name `CTIFFBridge` opens every file under.
    static let openedName = "photo"

    private static func error(_ message: [CChar]) -> CodecError {
        error(String(cMessage: message))
    }

    static func error(_ message: String) -> CodecError {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        // libtiff starts many messages with the name the file was opened under.
        if text.hasPrefix(Self.openedName + ": ") { text.removeFirst(Self.openedName.count + 2) }
        if text.hasSuffix(".") { text.removeLast() }
        if let first = text.first { text = first.lowercased() + text.dropFirst() }
        // A strip (or tile) past the allocation cap is a picture saved in one piece, not a broken one.
        if text.hasPrefix("memory allocation of "), text.contains("byte limit") {
            let bytes = text.dropFirst("memory allocation of ".count).prefix { $0.isNumber }
            return .unsupported(.tiff, "a strip or tile of \(bytes) bytes is more than showhide reads at once (\(maximumAllocation >> 20) MB): "
                                + "save the picture in strips of fewer rows, as most programs do")
        }
        let unsupported = text.contains("not supported") || text.contains("can not handle") || text.contains("sorry")
        return unsupported ? .unsupported(.tiff, text) : .corrupt(.tiff, text.isEmpty ? "cannot read the image" : text)
    }
}

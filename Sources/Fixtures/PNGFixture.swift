import Foundation

/// Writes PNG files of any colour type, bit depth and interlacing from raw samples, with stored
/// (uncompressed) deflate blocks, so tests can make every kind of PNG the decoder must read.
public struct PNGFixture {
    public enum ColourType: UInt8 {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        var channels: Int {
            switch self {
            case .grey, .palette: return 1
            case .greyAlpha: return 2
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    public var width: Int
    public var height: Int
    public var colourType: ColourType
    public var bitDepth: Int
    public var interlaced = false
    /// PLTE entries (r, g, b) for palette images.
    public var palette: [(UInt8, UInt8, UInt8)] = []
    /// tRNS bytes: alpha per palette entry, or the transparent grey/RGB sample.
    public var transparency: [UInt8]?
    /// Samples row by row, `channels` per pixel, each at most 2^bitDepth − 1.
    public var samples: [Int]

    public init(width: Int, height: Int, colourType: ColourType, bitDepth: Int = 8, samples: [Int]) {
        precondition(samples.count == width * height * colourType.channels, "sample count does not match the size")
        self.width = width
        self.height = height
        self.colourType = colourType
        self.bitDepth = bitDepth
        self.samples = samples
    }

    public func encoded() -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = be32(UInt32(width)) + be32(UInt32(height))
        header += [UInt8(bitDepth), colourType.rawValue, 0, 0, interlaced ? 1 : 0]
        png += chunk("IHDR", header)
        if colourType == .palette { png += chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }) }
        if let transparency { png += chunk("tRNS", transparency) }
        png += chunk("IDAT", zlibStored(scanlines()))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// The filtered (filter type 0) scanlines of every pass.
    func scanlines() -> [UInt8] {
        let passes: [(x0: Int, y0: Int, dx: Int, dy: Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var output: [UInt8] = []
        for pass in passes {
            let columns = Array(stride(from: pass.x0, to: width, by: pass.dx))
            guard !columns.isEmpty else { continue }
            for y in stride(from: pass.y0, to: height, by: pass.dy) {
                output.append(0)
                output += pack(columns.flatMap { x in
                    let start = (y * width + x) * colourType.channels
                    return Array(samples[start..<(start + colourType.channels)])
                })
            }
        }
        return output
    }

    func pack(_ row: [Int]) -> [UInt8] {
        switch bitDepth {
        case 16: return row.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: return row.map { UInt8($0) }
        default:
            var bytes: [UInt8] = []
            var current = 0, used = 0
            for sample in row {
                current = current << bitDepth | sample
                used += bitDepth
                if used == 8 { bytes.append(UInt8(current)); current = 0; used = 0 }
            }
            if used > 0 { bytes.append(UInt8(current << (8 - used))) }
            return bytes
        }
    }

    public func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65535, data.count - offset)
            let final: UInt8 = offset + length == data.count ? 1 : 0
            output += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)]
            output += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return output + be32(b << 16 | a)
    }

    public func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    public func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

extension Data {
    /// The PNG with an uncompressed iTXt chunk holding `text` under `keyword`, after IHDR.
    public func insertingPNGText(_ text: String, keyword: String) -> Data {
        let ihdrEnd = 8 + 8 + 13 + 4
        let fixture = PNGFixture(width: 1, height: 1, colourType: .grey, samples: [0])
        // keyword \0, not compressed (0, 0), no language \0, no translated keyword \0, the text
        let body = Array(keyword.utf8) + [0, 0, 0, 0, 0] + Array(text.utf8)
        return Data(self.prefix(ihdrEnd)) + Data(fixture.chunk("iTXt", body)) + self.dropFirst(ihdrEnd)
    }

    /// These bytes with an "eXIf" chunk holding `tiff` inserted right after IHDR (a PNG's first chunk).
    public func insertingPNGExif(_ tiff: Data) -> Data {
        let ihdrEnd = 8 + 8 + 13 + 4
        let fixture = PNGFixture(width: 1, height: 1, colourType: .grey, samples: [0])
        var output = Data(self.prefix(ihdrEnd))
        output += Data(fixture.chunk("eXIf", [UInt8](tiff)))
        output += self.dropFirst(ihdrEnd)
        return output
    }
}

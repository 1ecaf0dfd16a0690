import Foundation
import Imaging

/// Writes uncompressed TIFF files of known pixels, with chosen metadata (IFD0 tags, EXIF and GPS
/// directories from an `ExifFixture`) and, for hostile tests, entries that lie.
public enum TIFFFixture {
    /// A TIFF of `image`: 8-bit RGB (RGBA with `alpha`), in strips of `rowsPerStrip` rows, the
    /// pixels after the directories. `adjust` may change the entries last (a lying strip count).
    public static func encode(_ image: RGBAImage, metadata: ExifFixture = ExifFixture(), alpha: Bool = false, rowsPerStrip: Int = 16,
                              adjust: (inout [ExifFixture.Entry]) -> Void = { _ in }) -> Data {
        let samples = alpha ? 4 : 3
        let rowsPerStrip = max(1, min(rowsPerStrip, image.height))
        var pixels: [UInt8] = []
        pixels.reserveCapacity(image.width * image.height * samples)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = image[x, y]
                pixels += alpha ? [pixel.red, pixel.green, pixel.blue, pixel.alpha] : [pixel.red, pixel.green, pixel.blue]
            }
        }
        let stripBytes = stride(from: 0, to: image.height, by: rowsPerStrip).map {
            UInt32(min(rowsPerStrip, image.height - $0) * image.width * samples)
        }
        func fixture(firstStrip: UInt32) -> ExifFixture {
            var fixture = metadata
            var offsets: [UInt32] = []
            var offset = firstStrip
            for bytes in stripBytes {
                offsets.append(offset)
                offset += bytes
            }
            var structure = [
                fixture.long(0x0100, UInt32(image.width)),
                fixture.long(0x0101, UInt32(image.height)),
                fixture.shorts(0x0102, [UInt16](repeating: 8, count: samples)),
                fixture.short(0x0103, 1),
                fixture.short(0x0106, 2),
                fixture.longs(0x0111, offsets),
                fixture.short(0x0115, UInt16(samples)),
                fixture.long(0x0116, UInt32(rowsPerStrip)),
                fixture.longs(0x0117, stripBytes),
                fixture.short(0x011C, 1),
            ]
            if alpha { structure.append(fixture.short(0x0152, 2)) } // unassociated alpha
            fixture.ifd0 = metadata.ifd0 + structure
            adjust(&fixture.ifd0)
            return fixture
        }
        // The pixels go after the directories and their values, whose length the offsets do not change.
        let structureLength = fixture(firstStrip: 0).encoded().count - ExifFixture.header.count
        let tiff = fixture(firstStrip: UInt32(structureLength)).encoded().dropFirst(ExifFixture.header.count)
        return Data(tiff) + Data(pixels)
    }
}

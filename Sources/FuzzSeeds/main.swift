import Codecs
import Foundation
import Imaging
import Fixtures

// Seed inputs for scripts/fuzz, made in code like the tests' fixtures: small JPEGs and PNGs, and
// EXIF in both byte orders: in JPEGs, in PNGs' eXIf chunks, and bare; HEIC and AVIF, WebP and TIFF with
// EXIF. Usage: FuzzSeeds FOLDER (writes FOLDER/jpeg, png, exif, heif, webp, tiff).
// An option (a tool asking every executable for `--experimental-dump-help`, say) is no folder: writing
// seeds into a folder of that name once left one in the repository.
guard CommandLine.arguments.count == 2, !CommandLine.arguments[1].hasPrefix("-") else {
    FileHandle.standardError.write(Data("usage: FuzzSeeds FOLDER\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: CommandLine.arguments[1])
let codec = ImageCodec()
let images = [
    TestImage.solid(.red, width: 8, height: 8),
    TestImage.twoByTwo(.red, .green, .blue, .white),
    TestImage.gradient(width: 37, height: 21),
    TestImage.distinctPixels(width: 16, height: 16),
]
func write(_ data: Data, _ folder: String, _ name: String) throws {
    let url = root.appendingPathComponent(folder)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try data.write(to: url.appendingPathComponent(name))
}
for (index, image) in images.enumerated() {
    try write(try codec.encode(image, as: .jpeg, options: EncodeOptions(quality: 90)), "jpeg", "seed\(index).jpg")
    try write(try codec.encode(image, as: .png, options: EncodeOptions()), "png", "seed\(index).png")
}
for (index, order) in [ExifFixture.ByteOrder.little, .big].enumerated() {
    let exif = ExifFixture.camera(byteOrder: order).encoded()
    try write(try codec.encode(images[0], as: .jpeg, options: EncodeOptions(quality: 50, exif: exif)), "exif", "camera\(index).jpg")
    // The same block in a PNG's eXIf chunk (TIFF data without the "Exif\0\0" header), and bare.
    let tiff = exif.dropFirst(ExifLocator.exifHeader.count)
    try write(try codec.encode(images[0], as: .png, options: EncodeOptions()).insertingPNGExif(Data(tiff)), "exif", "camera\(index).png")
    try write(exif, "exif", "camera\(index).exif")
}
for (index, image) in images.enumerated() {
    let exif = ExifFixture.camera(byteOrder: index % 2 == 0 ? .little : .big).encoded()
    try write(try HEIFFixture.encode(image, exif: exif), "heif", "seed\(index).heic")
    try write(try HEIFFixture.encode(image, avif: true, orientation: .right), "heif", "seed\(index).avif")
    try write(try codec.encode(image, as: .webp, options: EncodeOptions(quality: 70, exif: exif)), "webp", "seed\(index).webp")
    try write(TIFFFixture.encode(image, metadata: ExifFixture.camera(byteOrder: index % 2 == 0 ? .little : .big), alpha: index == 1,
                                 rowsPerStrip: 3), "tiff", "seed\(index).tif")
}
print("seeds written to \(root.path)")

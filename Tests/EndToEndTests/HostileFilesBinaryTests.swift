import CJPEGFixtures
import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// A library of hostile files, made here, imported by the built binary: the process survives,
/// every file is imported (a valid picture) or listed as a failure with a reason, the good photos
/// around them are imported, and memory stays bounded.
final class HostileFilesBinaryTests: XCTestCase {
    var directory: URL!
    var photos: URL { directory.appendingPathComponent("photos") }
    let binary = ShowhideBinary()
    let codec = ImageCodec()
    /// Hostile files that are valid pictures and must be imported, by file name.
    var mustImport: Set<String> = []
    /// Hostile files that must fail, by file name, with a word their reason must contain.
    var mustFail: [String: String] = [:]
    var written = 0

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        _ = try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: photos.appendingPathComponent("unreadable.jpg").path)
        try? FileManager.default.removeItem(at: directory)
    }

    func write(_ data: Data, _ name: String) throws {
        try data.write(to: photos.appendingPathComponent(name))
        written += 1
    }

    func jpeg(exif: ExifFixture? = ExifFixture.camera(), width: Int = 64, height: Int = 48) throws -> Data {
        try codec.encode(TestImage.gradient(width: width, height: height), as: .jpeg,
                         options: EncodeOptions(quality: 85, exif: exif?.encoded()))
    }

    func hostileEXIF() -> [String: ExifFixture] {
        var outside = ExifFixture()
        // An ASCII value 200 bytes long at an offset far past the end of the block.
        outside.ifd0 = [ExifFixture.Entry(tag: 0x010F, type: 2, count: 200, value: [0xFF, 0xFF, 0xFF, 0x0F])]
        var zero = ExifFixture()
        zero.exif = [zero.rational(0x829A, [(1, 0)]), zero.rational(0x829D, [(0, 0)]), zero.rational(0x920A, [(UInt32.max, 0)])]
        zero.gps = [zero.ascii(0x0001, "N"), zero.rational(0x0002, [(1, 0), (0, 0), (5, 0)])]
        var unterminated = ExifFixture()
        unterminated.ifd0 = [unterminated.asciiBytes(0x010F, Array(repeating: 0x41, count: 300)),
                             unterminated.asciiBytes(0x0110, [0xC3, 0x28, 0xFF, 0x1B, 0x5B])]
        var huge = ExifFixture()
        huge.ifd0 = [ExifFixture.Entry(tag: 0x0110, type: 2, count: UInt32.max, value: [8, 0, 0, 0])]
        return ["exif-offset-outside.jpg": outside, "exif-zero-denominators.jpg": zero,
                "exif-unterminated.jpg": unterminated, "exif-huge-count.jpg": huge]
    }

    /// EXIF whose IFD0 says the next IFD is itself, and whose EXIF pointer points back at IFD0.
    func loopingEXIF() -> Data {
        var fixture = ExifFixture.camera()
        fixture.gps = []
        var block = [UInt8](fixture.encoded())
        // "Exif\0\0" (6) + TIFF header (8): IFD0 at TIFF offset 8; its entry count, entries, next pointer.
        let ifd0 = 6 + 8
        let count = Int(block[ifd0]) | Int(block[ifd0 + 1]) << 8
        let next = ifd0 + 2 + 12 * count
        block[next] = 8; block[next + 1] = 0; block[next + 2] = 0; block[next + 3] = 0
        for entry in 0..<count where block[ifd0 + 2 + 12 * entry] == 0x69 && block[ifd0 + 3 + 12 * entry] == 0x87 {
            let value = ifd0 + 2 + 12 * entry + 8
            block[value] = 8; block[value + 1] = 0; block[value + 2] = 0; block[value + 3] = 0
        }
        return Data(block)
    }

    func writeCorpus() throws -> (good: Int, hostile: Int) {
        var random = SeededGenerator(state: 20_261_122)
        // Good photos around the hostile ones: the import must go on past each failure.
        for index in 0..<5 {
            try write(try codec.encode(TestImage.solid(RGBA(red: UInt8(40 * index), green: 90, blue: 200), width: 32, height: 24),
                                       as: .jpeg, options: EncodeOptions()), "good\(index).jpg")
        }
        let valid = try jpeg()
        let png = try codec.encode(TestImage.gradient(width: 40, height: 30), as: .png, options: EncodeOptions())
        let hostileStart = written

        // Truncated at many offsets.
        for offset in stride(from: 1, to: valid.count, by: max(1, valid.count / 40)) {
            try write(valid.prefix(offset), "cut-jpeg-\(offset).jpg")
        }
        for offset in stride(from: 1, to: png.count, by: max(1, png.count / 15)) {
            try write(png.prefix(offset), "cut-png-\(offset).png")
        }
        // Bit flips in the headers (the first 700 bytes: markers, EXIF, tables) and in the scan.
        for index in 0..<60 {
            var bytes = [UInt8](valid)
            let range = index < 30 ? 2..<min(700, bytes.count) : max(2, bytes.count - 400)..<(bytes.count - 2)
            for _ in 0..<(1 + index % 4) {
                bytes[Int.random(in: range, using: &random)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            }
            try write(Data(bytes), "flipped-\(index).jpg")
        }
        for index in 0..<20 {
            var bytes = [UInt8](png)
            bytes[Int.random(in: 8..<bytes.count, using: &random)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            try write(Data(bytes), "flipped-\(index).png")
        }
        // WebP, TIFF and HEIC: cut at a dozen offsets and 1–4 bits flipped, a dozen times each.
        let picture = TestImage.gradient(width: 64, height: 48)
        let others = [
            ("webp", try codec.encode(picture, as: .webp, options: EncodeOptions(quality: 80, exif: ExifFixture.camera().encoded()))),
            ("tif", TIFFFixture.encode(picture, metadata: ExifFixture.camera(), rowsPerStrip: 7)),
            ("heic", try HEIFFixture.encode(picture, exif: ExifFixture.camera().encoded())),
        ]
        for (kind, data) in others {
            try write(data, "intact.\(kind)")
            mustImport.insert("intact.\(kind)")
            for offset in stride(from: 1, to: data.count, by: max(1, data.count / 12)) {
                try write(data.prefix(offset), "cut-\(kind)-\(offset).\(kind)")
            }
            for index in 0..<12 {
                var bytes = [UInt8](data)
                for _ in 0..<(1 + index % 4) {
                    bytes[Int.random(in: 12..<bytes.count, using: &random)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
                }
                try write(Data(bytes), "flipped-\(index).\(kind)")
            }
        }
        // Their bombs: a WebP canvas of 16383 × 16383, a HEIC whose image claims 50000 × 50000, a
        // TIFF claiming 50000 × 50000 and one claiming 2³¹ strips.
        var webpBomb = [UInt8](others[0].1)
        XCTAssertEqual(String(decoding: webpBomb[12..<16], as: UTF8.self), "VP8X")
        webpBomb.replaceSubrange(24..<30, with: [0xFE, 0x3F, 0x00, 0xFE, 0x3F, 0x00])
        try write(Data(webpBomb), "bomb.webp")
        mustFail["bomb.webp"] = "corrupt WebP data" // libwebp finds the canvas larger than its one picture
        // (64 × 64: coded as it is, with no clean aperture box to crop the size the ispe box claims.)
        var heifBomb = [UInt8](try HEIFFixture.encode(TestImage.gradient(width: 64, height: 64)))
        let ispe = try XCTUnwrap(Data(heifBomb).range(of: Data("ispe".utf8))).upperBound + 4
        heifBomb.replaceSubrange(ispe..<ispe + 8, with: [0, 0, 0xC3, 0x50, 0, 0, 0xC3, 0x50])
        try write(Data(heifBomb), "bomb.heic")
        mustFail["bomb.heic"] = "50000×50000 pixels, more than the limit"
        try write(TIFFFixture.encode(picture) { entries in
            for index in entries.indices where [0x0100, 0x0101].contains(entries[index].tag) {
                entries[index] = ExifFixture().long(entries[index].tag, 50_000)
            }
        }, "bomb.tif")
        mustFail["bomb.tif"] = "50000×50000 pixels, more than the limit"
        try write(TIFFFixture.encode(picture) { entries in
            for index in entries.indices where [0x0111, 0x0117].contains(entries[index].tag) {
                entries[index] = ExifFixture.Entry(tag: entries[index].tag, type: 4, count: 1 << 31, value: [8, 0, 0, 0])
            }
        }, "strips.tif")
        mustFail["strips.tif"] = "corrupt TIFF data"

        // Empty, random, random behind a JPEG or PNG signature.
        try write(Data(), "empty.jpg")
        mustFail["empty.jpg"] = "empty"
        try write(Data(), "empty.png")
        for index in 0..<10 {
            let noise = (0..<Int.random(in: 1...4000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            try write(Data(noise), "random-\(index).jpg")
            try write(Data([0xFF, 0xD8, 0xFF] + noise), "random-after-soi-\(index).jpg")
            try write(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise), "random-after-signature-\(index).png")
        }
        // Named as the other format: the content decides, both import.
        try write(png, "really-a-png.jpg")
        try write(valid, "really-a-jpeg.png")
        mustImport.formUnion(["really-a-png.jpg", "really-a-jpeg.png"])
        // Decompression bombs: headers claiming 65,535 × 65,535 pixels.
        try write(replacingJPEGSize(valid, width: 65_535, height: 65_535), "bomb.jpg")
        mustFail["bomb.jpg"] = "65500 pixels"
        try write(replacingJPEGSize(valid, width: 65_000, height: 65_000), "bomb-65000.jpg")
        mustFail["bomb-65000.jpg"] = "65000×65000 pixels, more than the limit"
        // The PNG header with its checksum made right, so that only the size is a lie.
        var pngBomb = [UInt8](png)
        pngBomb.replaceSubrange(16..<24, with: [0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF])
        let crc = Self.crc32(pngBomb[12..<29])
        pngBomb.replaceSubrange(29..<33, with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        try write(Data(pngBomb), "bomb.png")
        mustFail["bomb.png"] = "65535×65535 pixels, more than the limit"
        // A chunk claiming 1.6 GB in a file of 66 bytes (found by the fuzzer): libpng allocated and
        // touched the claimed size before finding the file short, so the peak RSS below catches it.
        try write(Data([UInt8](png.prefix(33)) + [0x60, 0x96, 0x5C, 0xA6] + Array("sPLT".utf8) + [UInt8](repeating: 0x1C, count: 25)),
                  "chunk-claims-gigabytes.png")
        mustFail["chunk-claims-gigabytes.png"] = "the sPLT chunk claims 1620466854 bytes"
        // 12-bit samples (unsupported here), arithmetic coding and CMYK (supported).
        try write(replacingJPEGPrecision(valid, bits: 12), "twelve-bit.jpg")
        mustFail["twelve-bit.jpg"] = "12"
        var rgb: [UInt8] = []
        for index in 0..<256 { rgb += [UInt8(index), 100, UInt8(255 - index)] }
        try write(try fixture(SHFX_ARITHMETIC, rgb), "arithmetic.jpg")
        try write(try fixture(SHFX_ADOBE_CMYK, [UInt8](repeating: 120, count: 16 * 16 * 4)), "cmyk.jpg")
        mustImport.formUnion(["arithmetic.jpg", "cmyk.jpg"])
        // EXIF that lies: offsets outside the block, loops, zero denominators, no terminators.
        for (name, exif) in hostileEXIF() {
            try write(try jpeg(exif: exif), name)
            mustImport.insert(name)
        }
        try write(try codec.encode(TestImage.gradient(width: 64, height: 48), as: .jpeg,
                                   options: EncodeOptions(quality: 85, exif: loopingEXIF())), "exif-loop.jpg")
        mustImport.insert("exif-loop.jpg")
        // Unreadable (as root it reads all the same), a link to nowhere, links in a loop, a name
        // that is not UTF-8, a folder that contains itself.
        try write(valid.prefix(valid.count - 1) + Data([0x00]), "unreadable.jpg")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: photos.appendingPathComponent("unreadable.jpg").path)
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("dangling.jpg").path, withDestinationPath: "/nonexistent/x.jpg")
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("loop-a.jpg").path, withDestinationPath: "loop-b.jpg")
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("loop-b.jpg").path, withDestinationPath: "loop-a.jpg")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("folder"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: photos.appendingPathComponent("folder/itself").path, withDestinationPath: "..")
        mustFail["dangling.jpg"] = "link"
        mustFail["loop-a.jpg"] = "loop"
        let badName = Array(photos.path.utf8) + Array("/bad-".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8) + [0]
        let descriptor = badName.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        }
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        _ = valid.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        mustFail["bad-\u{FFFD}\u{FFFD}.jpg"] = "UTF-8"
        return (good: 5, hostile: written - hostileStart + 5)
    }

    func fixture(_ kind: shfx_kind, _ samples: [UInt8]) throws -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let status = samples.withUnsafeBufferPointer { shfx_jpeg_encode(kind, $0.baseAddress, 16, 16, 90, &output, &size) }
        guard status == 0, let output else { throw XCTSkip("this libjpeg cannot write kind \(kind.rawValue)") }
        defer { shfx_free(output) }
        return Data(bytes: output, count: size)
    }

    func replacingJPEGSize(_ data: Data, width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](data)
        for index in 0..<(bytes.count - 9) where bytes[index] == 0xFF && bytes[index + 1] == 0xC0 {
            bytes.replaceSubrange((index + 5)..<(index + 9), with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
            break
        }
        return Data(bytes)
    }

    func replacingJPEGPrecision(_ data: Data, bits: UInt8) -> Data {
        var bytes = [UInt8](data)
        if let index = (0..<(bytes.count - 5)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) { bytes[index + 4] = bits }
        return Data(bytes)
    }

    /// The CRC-32 of PNG chunks (ISO 3309), bit by bit: a few bytes only.
    static func crc32<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    func testStripsOfAPixelOrTwoAreImportedAndSplashedInBothModes() throws {
        // Narrower than the eye's raster blocks: 4000 × 1 read 15 rows past its pixels in object mode
        // and ended in a segmentation fault; 3000 × 2 had no colours.
        func strip(width: Int, height: Int) throws -> Data {
            try codec.encode(TestImage.halves(.red, .blue, width: width, height: height), as: .png, options: EncodeOptions())
        }
        try write(try strip(width: 4000, height: 1), "wide.png")
        try write(try strip(width: 1, height: 4000), "tall.png")
        try write(try strip(width: 3000, height: 2), "two-rows.png")
        let library = directory.appendingPathComponent("library").path
        let imported = try binary.run(["gallery", "import", photos.path, "--library", library])
        XCTAssertEqual([imported.reason == .exit ? imported.status : -1], [0], imported.errors)
        let listed = try XCTUnwrap(try json(try binary.run(["gallery", "list", "--library", library, "--json"]).output) as? [[String: Any]])
        XCTAssertEqual(listed.count, 3)
        for mode in ["object", "hue"] {
            let run = try binary.run(["gallery", "process", "--all", "--colour", "red", "--mode", mode, "--library", library, "--json"])
            XCTAssertEqual(run.reason, .exit, "\(mode): the process survives: \(run.errors.suffix(500))")
            XCTAssertEqual(run.status, 0, "\(mode): \(run.errors)")
            let made = try XCTUnwrap(try json(run.output) as? [String: Any])["made"] as? [[String: Any]]
            XCTAssertEqual(made?.count, 6, "\(mode): a show and a hide of each")
        }
    }

    func testEveryHostileFileIsImportedOrFailsWithAReasonAndTheRestIsImported() throws {
        let corpus = try writeCorpus()
        let library = directory.appendingPathComponent("library").path
        // Its peak memory is read by a launcher that waits for it alone: what this test process ran before
        // (a browser, in BrowserTests) does not count.
        let peakFile = directory.appendingPathComponent("peak-rss").path
        let measuring = ["/usr/bin/env", "python3", "-c", "import resource, subprocess, sys; done = subprocess.run(sys.argv[2:]); "
                         + "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(done.returncode)",
                         peakFile]
        let run = try binary.run(["gallery", "import", photos.path, "--library", library, "--json"], launcher: measuring)
        XCTAssertEqual(run.reason, .exit, "the process survives: \(run.errors.suffix(2000))")
        XCTAssertEqual(run.status, 1, "some files failed")

        let listed = try XCTUnwrap(try json(try binary.run(["gallery", "list", "--library", library, "--json"]).output) as? [[String: Any]])
        let imported = Set(listed.compactMap { ($0["path"] as? String).map { ($0 as NSString).lastPathComponent } })
        let failureList = try XCTUnwrap(try json(try binary.run(["gallery", "failures", "--library", library, "--json"]).output) as? [[String: String]])
        var failures: [String: String] = [:]
        for failure in failureList { failures[(failure["path"]! as NSString).lastPathComponent] = failure["reason"] }

        for index in 0..<5 { XCTAssertTrue(imported.contains("good\(index).jpg"), "good\(index).jpg") }
        XCTAssertTrue(mustImport.isSubset(of: imported), "not imported: \(mustImport.subtracting(imported).sorted()), failures: \(failures)")
        for (name, word) in mustFail {
            let reason = try XCTUnwrap(failures[name], "\(name) is not listed as a failure: \(failures.keys.sorted())")
            XCTAssertTrue(word.isEmpty || reason.contains(word), "\(name): \(reason)")
        }
        // Every file is accounted for, and every reason says something.
        let names = try FileManager.default.contentsOfDirectory(atPath: photos.path).filter { $0 != "folder" }
        for name in names where !imported.contains(name) && failures[name] == nil {
            XCTFail("\(name) is neither imported nor a failure")
        }
        XCTAssertTrue(failures.values.allSatisfy { $0.count > 8 }, "\(failures.filter { $0.value.count <= 8 })")
        XCTAssertTrue(failures["itself"]?.contains("loop") == true, "the folder that contains itself is reported: \(failures["itself"] ?? "")")
        XCTAssertGreaterThan(corpus.hostile, 150)
        print("hostile corpus: \(corpus.hostile) files, \(imported.count) imported, \(failures.count) failures")
        if ProcessInfo.processInfo.environment["SHOWHIDE_PRINT_FAILURES"] != nil { for (name, reason) in failures.sorted(by: { $0.key < $1.key }) { print("  \(name): \(reason)") } }

        // Memory: the bombs were refused before any pixel was allocated. (Not under the address
        // sanitizer, whose shadow memory and quarantine are not the product's.)
        if ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil {
            let peak = try XCTUnwrap(Int(try String(contentsOfFile: peakFile, encoding: .utf8)), "the launcher wrote the peak")
            XCTAssertGreaterThan(peak, 1024, "a peak of the import itself, in KB")
            XCTAssertLessThan(peak, 256 * 1024, "peak RSS of the import, in KB")
        }

        // The catalogue is sound, and a second import changes nothing.
        try LibraryFixture.assertSound(library + "/catalogue.sqlite")
        let again = try binary.run(["gallery", "import", photos.path, "--library", library, "--json"])
        XCTAssertEqual(again.reason, .exit)
        let summary = try XCTUnwrap(try json(again.output) as? [String: Any])
        XCTAssertEqual(summary["imported"] as? Int, 0)
    }
}

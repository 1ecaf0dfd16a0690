import Codecs
import Foundation
import Imaging
import TestSupport
import XCTest

/// One rule for sizes in every format: `width` and `height` are the stored size, `exif.orientation`
/// the turn a viewer must still give it. The upright size that makes is exiftool's, for photos on
/// their side made here in every format showhide reads.
final class OrientationBinaryTests: XCTestCase {
    var directory: URL!
    let binary = ShowhideBinary()
    let codec = ImageCodec()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("showhide-orientation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("photos"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A 60 × 40 picture stored as it was taken with the camera turned (EXIF orientation 6: to be
    /// turned a quarter clockwise, 40 × 60 upright), in each format; the HEIF ones say so in their
    /// container too (`irot`), as phones do.
    func samples() throws -> [String: Data] {
        let picture = TestImage.gradient(width: 60, height: 40)
        let exif = ExifFixture.camera().encoded()
        let tiffBlock = exif.dropFirst(ExifFixture.header.count)
        return [
            "turned.jpg": try codec.encode(picture, as: .jpeg, options: EncodeOptions(quality: 90, exif: exif)),
            "turned.png": try codec.encode(picture, as: .png, options: EncodeOptions()).insertingPNGExif(Data(tiffBlock)),
            "turned.webp": try codec.encode(picture, as: .webp, options: EncodeOptions(quality: 90, exif: exif)),
            "turned.tif": TIFFFixture.encode(picture, metadata: ExifFixture.camera()),
            "turned.heic": try HEIFFixture.encode(picture, orientation: .right, exif: exif),
            "turned.avif": try HEIFFixture.encode(picture, avif: true, orientation: .right, exif: exif),
        ]
    }

    /// Width and height upright by exiftool's own reading: ImageWidth and ImageHeight turned by EXIF's
    /// Orientation; for HEIF, ImageWidth and ImageHeight as exiftool reports them, the container's
    /// rotation (`irot`, its Rotation) already applied, as HEIF readers show them.
    func exiftoolUprightSizes(_ paths: [String]) throws -> [String: [Int]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-json", "-n", "-ImageWidth", "-ImageHeight", "-Orientation", "-FileType"] + paths
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var sizes: [String: [Int]] = [:]
        for row in rows {
            let name = ((row["SourceFile"] as? String ?? "") as NSString).lastPathComponent
            let width = try XCTUnwrap(row["ImageWidth"] as? Int, name), height = try XCTUnwrap(row["ImageHeight"] as? Int, name)
            let isHEIF = ["HEIC", "AVIF", "HEIF"].contains(row["FileType"] as? String ?? "")
            let turned = !isHEIF && (5...8).contains(row["Orientation"] as? Int ?? 1)
            sizes[name] = turned ? [height, width] : [width, height]
        }
        return sizes
    }

    func testTheUprightSizeOfEveryFormatIsExiftools() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/exiftool") else {
            return XCTFail("exiftool is not installed: scripts/install-dependencies installs it with the test tools")
        }
        let photos = directory.appendingPathComponent("photos")
        for (name, data) in try samples() { try data.write(to: photos.appendingPathComponent(name)) }
        let library = directory.appendingPathComponent("library").path
        XCTAssertEqual(try binary.run(["gallery", "import", photos.path, "--library", library]).status, 0)
        let list = try binary.run(["gallery", "list", "--json", "--library", library])
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
        XCTAssertEqual(listed.count, 6)

        let expected = try exiftoolUprightSizes(try samples().keys.sorted().map { photos.appendingPathComponent($0).path })
        // `inspect --json` reads the files as import does, and follows the same rule.
        let inspect = try binary.run(["inspect", "--json"] + (try samples().keys.sorted().map { photos.appendingPathComponent($0).path }))
        let inspected = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(inspect.output.utf8)) as? [String: Any])?["photos"]
            as? [[String: Any]], inspect.output)
        XCTAssertEqual(inspected.count, 6)
        for photo in listed + inspected {
            let name = ((photo["path"] as? String ?? "") as NSString).lastPathComponent
            let width = try XCTUnwrap(photo["width"] as? Int), height = try XCTUnwrap(photo["height"] as? Int)
            let orientation = (photo["exif"] as? [String: Any])?["orientation"] as? Int ?? 1
            let upright = (5...8).contains(orientation) ? [height, width] : [width, height]
            XCTAssertEqual(upright, expected[name], "\(name): stored \(width) × \(height), orientation \(orientation)")
            XCTAssertEqual(upright, [40, 60], name)
        }
    }
}

import Codecs
import Foundation
import Imaging

/// What each fuzz target feeds its input to: the decoders and the EXIF reader, as an import and
/// an export would call them. Every input must come back as a value or a thrown error, nothing else.
enum FuzzTarget: String, CaseIterable {
    case jpeg, png, exif, heif, webp, tiff

    /// Small enough that a header claiming a huge picture is refused before any allocation, as on import.
    static let decodeOptions = DecodeOptions(maximumPixelCount: 4_000_000, minimumLongSide: 256)

    func run(_ data: Data) {
        switch self {
        case .jpeg:
            _ = try? JPEGCodec().decode(data, options: Self.decodeOptions)
            _ = try? JPEGCodec().decode(data, options: DecodeOptions(maximumPixelCount: 1_000_000, appliesOrientation: true))
        case .png:
            _ = try? PNGCodec().decode(data, options: Self.decodeOptions)
        case .heif:
            _ = try? HEIFCodec().decode(data, options: Self.decodeOptions)
            _ = ExifLocator.exifBlock(in: data).map { LibExifReader().readExifBlock($0) }
        case .webp:
            _ = try? WebPCodec().decode(data, options: Self.decodeOptions)
            _ = try? WebPCodec().decode(data, options: DecodeOptions(maximumPixelCount: 1_000_000))
            _ = ExifLocator.exifBlock(in: data).map { LibExifReader().readExifBlock($0) }
        case .tiff:
            _ = try? TIFFCodec().decode(data, options: Self.decodeOptions)
            _ = try? TIFFCodec().decode(data, options: DecodeOptions(maximumPixelCount: 1_000_000))
            _ = ExifLocator.exifBlock(in: data).map { LibExifReader().readExifBlock($0) }
        case .exif:
            let reader = LibExifReader()
            _ = try? reader.readExif(from: data)
            _ = reader.readExifBlock(data)
            if let block = reader.uprightExifBlock(from: data) { _ = reader.removingGPS(from: block) }
            _ = reader.removingGPS(fromJPEG: data)
            _ = reader.removingGPS(from: data)
        }
    }

    /// The target named by `SHOWHIDE_FUZZ_TARGET` (jpeg, png, exif, heif, webp or tiff), read once.
    static let selected = named()

    private static func named() -> FuzzTarget {
        let name = ProcessInfo.processInfo.environment["SHOWHIDE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("set SHOWHIDE_FUZZ_TARGET to jpeg, png, exif, heif, webp or tiff\n".utf8))
            exit(64)
        }
        return target
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The package manager names an executable's entry point after its target; with libFuzzer linked
/// (scripts/fuzz: `-sanitize=fuzzer,address`) it hands over to libFuzzer's driver, which calls
/// the target with each input.
@_cdecl("showhide_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    let target = FuzzTarget.selected
    var count = argc
    var arguments = argv
    return withExtendedLifetime(target) {
        LLVMFuzzerRunDriver(&count, &arguments) { bytes, count in
            FuzzTarget.selected.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        }
    }
}
#else
/// Without libFuzzer: replays files through a target (`showhide-fuzz jpeg FILE…`), so that inputs a
/// fuzzer kept can be run again in an ordinary build.
@main
enum FuzzReplay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: showhide-fuzz jpeg|png|exif|heif|webp|tiff FILE…")
            exit(64)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            target.run(data)
        }
        print("ran \(arguments.count - 1) inputs through \(name)")
    }
}
#endif

import CHEIFBridge
import Foundation
import Imaging

/// HEIF photos — HEIC from phones (HEVC) and AVIF (AV1) — through libheif, which decodes the
/// primary image with the container's rotation and mirroring (`irot`, `imir`) applied: such a
/// photo comes out upright, and its EXIF orientation must not be applied again.
public struct HEIFCodec: Sendable {
    /// libheif, loaded on first use.
    private let library: @Sendable () -> Result<HEIFLibrary, CodecError>

    public init() {
        self.init(library: { HEIFLibrary.loaded })
    }

    init(library: @escaping @Sendable () -> Result<HEIFLibrary, CodecError>) {
        self.library = library
    }

    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage {
        guard !data.isEmpty else { throw CodecError.empty }
        guard !HEIFReferences.haveALoop(in: data) else {
            throw CodecError.corrupt(.heif, "its images are made from each other in a loop")
        }
        let heif = try library().get().functions
        guard let context = heif.context_alloc() else { throw CodecError.corrupt(.heif, "out of memory") }
        defer { heif.context_free(context) }
        // libheif's own check, on each side, before it allocates; the pixel count is checked below.
        heif.context_set_maximum_image_size_limit(context, Self.longestSide)
        return try data.withUnsafeBytes { raw in
            try Self.check(heif.context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil))
            var handle: OpaquePointer?
            try Self.check(heif.context_get_primary_image_handle(context, &handle))
            defer { heif.image_handle_release(handle) }
            let size = PixelSize(width: Int(heif.image_handle_get_width(handle)), height: Int(heif.image_handle_get_height(handle)))
            guard size.width > 0, size.height > 0 else { throw CodecError.corrupt(.heif, "the primary image has no size") }
            // The size shown may be a crop (clap) of a larger coded picture, which libheif allocates
            // whole: both are checked.
            let coded = PixelSize(width: Int(heif.image_handle_get_ispe_width(handle)), height: Int(heif.image_handle_get_ispe_height(handle)))
            for claimed in [size, coded] where claimed.pixelCount > options.maximumPixelCount {
                throw CodecError.tooManyPixels(width: claimed.width, height: claimed.height, limit: options.maximumPixelCount)
            }
            // The coded stream may claim a larger picture still than its item does (found by the
            // fuzzer: an 8 × 8 item whose HEVC stream said 65271 × 26991, 1.76 GB). libheif refuses
            // a decoded side over its limit: no side may exceed the largest side declared, with room
            // for the codec's padding to whole blocks.
            let declaredSide = max(size.width, size.height, coded.width, coded.height)
            heif.context_set_maximum_image_size_limit(context, Int32(min(Int(Self.longestSide), declaredSide + Self.paddingAllowance)))
            var decoded: OpaquePointer?
            try Self.check(heif.decode_image(handle, &decoded, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, nil))
            defer { heif.image_release(decoded) }
            let width = Int(heif.image_get_width(decoded, heif_channel_interleaved))
            let height = Int(heif.image_get_height(decoded, heif_channel_interleaved))
            var stride: Int32 = 0
            guard width > 0, height > 0, let plane = heif.image_get_plane_readonly(decoded, heif_channel_interleaved, &stride),
                  Int(stride) >= width * 4 else {
                throw CodecError.corrupt(.heif, "the decoded image has no pixels")
            }
            let pixels = UnsafeRawPointer(plane), rowBytes = Int(stride)
            let image: RGBAImage
            if let longSide = options.minimumLongSide, max(width, height) > 2 * longSide {
                // libheif cannot decode at a reduced size: analysis gets the picture averaged over
                // whole blocks straight from libheif's buffer (no full-size copy), then made small.
                image = try BlockAverage.image(width: width, height: height, factor: max(width, height) / (2 * longSide),
                                               rowBytes: rowBytes) { rows, body in body(pixels + rows.lowerBound * rowBytes) }
                    .downscaled(toLongSide: 2 * longSide)
            } else {
                image = try RGBAImage(width: width, height: height) { destination in
                    for row in 0..<height {
                        UnsafeMutableRawPointer(destination.baseAddress! + row * width * 4)
                            .copyMemory(from: pixels + row * rowBytes, byteCount: width * 4)
                    }
                }
            }
            return DecodedImage(format: .heif, originalSize: PixelSize(width: width, height: height), image: image)
        }
    }

    /// The EXIF block ("Exif\0\0" + TIFF data) of the primary image, or nil when it has none. HEIF
    /// stores it as an item that starts with a 4-byte offset to the TIFF header.
    public static func exifBlock(in data: Data) -> Data? {
        withPrimaryImage(of: data) { handle, heif -> Data? in
            var id: heif_item_id = 0
            guard heif.image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return nil }
            let size = heif.image_handle_get_metadata_size(handle, id)
            guard size > 4, size <= 1 << 24 else { return nil }
            var item = [UInt8](repeating: 0, count: size)
            guard heif.image_handle_get_metadata(handle, id, &item).code == heif_error_Ok else { return nil }
            let offset = Int(item[0]) << 24 | Int(item[1]) << 16 | Int(item[2]) << 8 | Int(item[3])
            guard offset <= size - 4 - 8 else { return nil }
            let tiff = item[(4 + offset)...]
            // Some writers put "Exif\0\0" before the TIFF header and count it in the offset, some not.
            return tiff.starts(with: ExifLocator.exifHeader) ? Data(tiff) : Data(ExifLocator.exifHeader) + Data(tiff)
        }
    }

    /// `body`'s answer about the primary image's handle, given libheif's functions; nil when the file's
    /// boxes cannot be read, or libheif cannot be loaded (the decode then says so).
    static func withPrimaryImage<Result>(of data: Data, _ body: (OpaquePointer?, sh_heif_functions) -> Result?) -> Result? {
        guard case let .success(library) = HEIFLibrary.loaded else { return nil }
        let heif = library.functions
        guard let context = heif.context_alloc() else { return nil }
        defer { heif.context_free(context) }
        return data.withUnsafeBytes { raw -> Result? in
            guard heif.context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil).code == heif_error_Ok else { return nil }
            var handle: OpaquePointer?
            guard heif.context_get_primary_image_handle(context, &handle).code == heif_error_Ok else { return nil }
            defer { heif.image_handle_release(handle) }
            return body(handle, heif)
        }
    }

    /// The longest side libheif is let decode.
    static let longestSide: Int32 = 65_535
    /// How much larger than declared a coded side may be: HEVC and AV1 code whole blocks of up to 64 pixels.
    static let paddingAllowance = 64

    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        // libheif's messages may end in a newline (or a literal "\n"), and start with a capital.
        var message = error.message.map { String(cString: $0) } ?? "error \(error.code.rawValue)"
        while message.hasSuffix("\\n") { message.removeLast(2) }
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = message.first { message = first.lowercased() + message.dropFirst() }
        switch error.code {
        case heif_error_Unsupported_feature, heif_error_Unsupported_filetype:
            throw CodecError.unsupported(.heif, message)
        default:
            throw CodecError.corrupt(.heif, message)
        }
    }
}

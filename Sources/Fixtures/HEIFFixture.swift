import CHEIF
import Foundation
import Imaging

/// HEIF files made in the test by libheif's own encoders (x265 for HEIC, aom for AVIF), with the
/// container's orientation and an EXIF block when asked.
public enum HEIFFixture {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private final class Output {
        var data = Data()
    }

    public static func encode(_ image: RGBAImage, avif: Bool = false, orientation: Orientation = .up, exif: Data? = nil,
                              xmp: String? = nil) throws -> Data {
        func check(_ error: heif_error, _ step: String) throws {
            guard error.code != heif_error_Ok else { return }
            throw Failure(description: "\(step): \(error.message.map { String(cString: $0) } ?? "")")
        }
        let context = heif_context_alloc()
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder), "encoder")
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 95), "quality")
        var picture: OpaquePointer?
        try check(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, heif_chroma_interleaved_RGBA, &picture), "image")
        defer { heif_image_release(picture) }
        try check(heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8), "plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(picture, heif_channel_interleaved, &stride) else {
            throw Failure(description: "heif_image_get_plane gave no plane")
        }
        image.bytes.withUnsafeBytes { source in
            for row in 0..<image.height {
                (plane + row * Int(stride)).update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + row * image.rowStride,
                                                   count: image.rowStride)
            }
        }
        let options = heif_encoding_options_alloc()
        defer { heif_encoding_options_free(options) }
        options?.pointee.image_orientation = heif_orientation(rawValue: UInt32(orientation.rawValue))
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, picture, encoder, options, &handle), "encode")
        defer { heif_image_handle_release(handle) }
        if let exif {
            // libheif wants the TIFF data and writes the offset header itself.
            let tiff = exif.starts(with: Array("Exif\0\0".utf8)) ? exif.dropFirst(6) : exif[...]
            try tiff.withUnsafeBytes { try check(heif_context_add_exif_metadata(context, handle, $0.baseAddress, Int32($0.count)), "EXIF") }
        }
        if let xmp {
            try Array(xmp.utf8).withUnsafeBytes { try check(heif_context_add_XMP_metadata(context, handle, $0.baseAddress, Int32($0.count)), "XMP") }
        }
        let output = Output()
        var writer = heif_writer(writer_api_version: 1) { _, data, size, userdata in
            let output = Unmanaged<Output>.fromOpaque(userdata!).takeUnretainedValue()
            output.data.append(data!.assumingMemoryBound(to: UInt8.self), count: size)
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        try check(heif_context_write(context, &writer, Unmanaged.passUnretained(output).toOpaque()), "write")
        return output.data
    }
}

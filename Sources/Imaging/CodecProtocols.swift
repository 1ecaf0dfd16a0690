import Foundation

/// How to decode: the safety limit on pixels and how far a JPEG may be scaled down while decoding.
public struct DecodeOptions: Equatable, Sendable {
    /// The default refusal limit: 100 megapixels.
    public static let defaultMaximumPixelCount = 100_000_000

    /// Images whose header claims more pixels are refused before anything is allocated.
    public var maximumPixelCount: Int
    /// When set, a JPEG is decoded at the smallest DCT scale (1/8, 1/4, 1/2) whose long side
    /// is still at least this many pixels. Other formats decode at full size.
    public var minimumLongSide: Int?

    /// When true, the pixels are turned upright according to the file's EXIF orientation.
    public var appliesOrientation: Bool

    public init(
        maximumPixelCount: Int = DecodeOptions.defaultMaximumPixelCount,
        minimumLongSide: Int? = nil,
        appliesOrientation: Bool = false
    ) {
        self.maximumPixelCount = maximumPixelCount
        self.minimumLongSide = minimumLongSide
        self.appliesOrientation = appliesOrientation
    }

    public static let fullSize = DecodeOptions()
}

/// The result of a decode: the pixels (scaled when asked) and what the file said of itself.
public struct DecodedImage: Equatable, Sendable {
    public var format: ImageFormat
    /// The size the file declares, before any scaling or turning.
    public var originalSize: PixelSize
    public var image: RGBAImage
    /// The orientation that was applied to `image` (`.up` when none was asked for or found).
    public var appliedOrientation: Orientation

    public init(format: ImageFormat, originalSize: PixelSize, image: RGBAImage, appliedOrientation: Orientation = .up) {
        self.format = format
        self.originalSize = originalSize
        self.image = image
        self.appliedOrientation = appliedOrientation
    }
}

/// How to encode.
public struct EncodeOptions: Equatable, Sendable {
    /// JPEG and WebP quality, 1–100.
    public var quality: Int
    /// A TIFF/EXIF block ("Exif\0\0" and what follows) to embed in a JPEG or WebP output.
    public var exif: Data?
    /// An XMP packet to embed in a JPEG, PNG or WebP output: `ShowhidePictureMark`'s, on a picture showhide made.
    public var xmp: String?

    public init(quality: Int = 90, exif: Data? = nil, xmp: String? = nil) {
        self.quality = quality
        self.exif = exif
        self.xmp = xmp
    }
}

/// Turns encoded bytes into pixels.
public protocol ImageDecoding: Sendable {
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodedImage
}

/// Turns pixels into encoded bytes.
public protocol ImageEncoding: Sendable {
    func encode(_ image: RGBAImage, as format: ImageFormat, options: EncodeOptions) throws -> Data
    /// The same for an image handed over a band of rows at a time.
    func encode(_ rows: RowSource, as format: ImageFormat, options: EncodeOptions) throws -> Data
}

extension ImageEncoding {
    /// Encoders that need the whole image get it made first.
    public func encode(_ rows: RowSource, as format: ImageFormat, options: EncodeOptions) throws -> Data {
        try encode(rows.image(), as: format, options: options)
    }
}

/// An image handed over a band of rows at a time, so that it need never be whole in memory: a
/// variant is computed as the JPEG encoder asks for its rows, instead of into a copy of the photo.
public struct RowSource: Sendable {
    public let width: Int
    public let height: Int
    /// Writes the RGBA pixels of `rows` into `destination`, one row every `rowStride` bytes.
    public let fill: @Sendable (_ rows: Range<Int>, _ destination: UnsafeMutablePointer<UInt8>, _ rowStride: Int) -> Void

    public init(width: Int, height: Int,
                fill: @escaping @Sendable (_ rows: Range<Int>, _ destination: UnsafeMutablePointer<UInt8>, _ rowStride: Int) -> Void) {
        self.width = width
        self.height = height
        self.fill = fill
    }

    /// The rows of an image that is whole already.
    public init(_ image: RGBAImage) {
        self.init(width: image.width, height: image.height) { rows, destination, rowStride in
            image.bytes.withUnsafeBufferPointer { bytes in
                for (index, row) in rows.enumerated() {
                    (destination + index * rowStride).update(from: bytes.baseAddress! + row * image.rowStride, count: image.rowStride)
                }
            }
        }
    }

    /// The whole image.
    public func image() throws -> RGBAImage {
        try RGBAImage(width: width, height: height) { buffer in fill(0..<height, buffer.baseAddress!, width * RGBAImage.bytesPerPixel) }
    }
}

/// Reads the EXIF data of an encoded photo.
public protocol ExifReading: Sendable {
    /// The photo's EXIF metadata, or nil when it has none.
    func readExif(from data: Data) throws -> ExifMetadata?
    /// The photo's XMP packet as text, or nil when it has none.
    func xmpPacket(from data: Data) -> String?
    /// The photo's EXIF block as found ("Exif\0\0" and what follows), with its orientation set to 1:
    /// what a copy of the photo whose pixels were turned upright should carry. nil when it has none.
    func uprightExifBlock(from data: Data) -> Data?
    /// An EXIF block ("Exif\0\0" and what follows) without its GPS data; nil when it cannot be rewritten.
    func removingGPS(from block: Data) -> Data?
    /// A JPEG file without its GPS data, in its EXIF block and in its XMP packet, and with every other
    /// byte its own (the image data untouched); nil when it has no position to remove in place.
    func removingGPS(fromJPEG data: Data) -> Data?
}

import Foundation
import Imaging

/// What one file turned out to be.
public struct PhotoInspection: Equatable, Sendable {
    public var path: String
    public var format: ImageFormat
    public var fileSize: Int
    public var pixelSize: PixelSize
    public var exif: ExifMetadata?
    /// The XMP packet, as text.
    public var xmp: String?
    /// The scaled decode, upright (long side at least `PhotoInspector.analysisLongSide` when the file is
    /// that large), which every analysis of the photo reuses.
    public var analysisImage: RGBAImage

    public init(path: String, format: ImageFormat, fileSize: Int, pixelSize: PixelSize, exif: ExifMetadata?, xmp: String? = nil,
                analysisImage: RGBAImage) {
        self.path = path
        self.format = format
        self.fileSize = fileSize
        self.pixelSize = pixelSize
        self.exif = exif
        self.xmp = xmp
        self.analysisImage = analysisImage
    }

    /// The size a person sees: width and height swapped when EXIF says the photo is on its side.
    public var uprightSize: PixelSize {
        guard format.isTurnedByExif, exif?.orientation?.swapsDimensions == true else { return pixelSize }
        return PixelSize(width: pixelSize.height, height: pixelSize.width)
    }
}

/// Why a photo could not be read; every case names the file.
public enum PhotoError: Error, Equatable, LocalizedError {
    case unreadable(path: String, reason: String)
    case notAPhoto(path: String)
    case undecodable(path: String, reason: String)

    public var path: String {
        switch self {
        case let .unreadable(path, _), let .notAPhoto(path), let .undecodable(path, _): return path
        }
    }

    /// The reason without the path, for tables that show the path in a column of its own.
    public var reason: String {
        switch self {
        case let .unreadable(_, reason): return "cannot read the file: \(reason)"
        case .notAPhoto: return "not a JPEG, PNG, HEIC, AVIF, WebP or TIFF file (unrecognised first bytes)"
        case let .undecodable(_, reason): return reason
        }
    }

    public var errorDescription: String? { "\(path): \(reason)" }
}

/// Reads one file once and decodes it once, at the smallest size analysis needs, to learn what it is.
public struct PhotoInspector: Sendable {
    /// Long side of the scaled decode used to check and analyse a photo.
    public static let analysisLongSide = 256

    private let fileSystem: any FileSystem
    private let decoder: any ImageDecoding
    private let exifReader: any ExifReading
    private let maximumPixelCount: Int

    public init(
        fileSystem: any FileSystem, decoder: any ImageDecoding, exifReader: any ExifReading,
        maximumPixelCount: Int = DecodeOptions.defaultMaximumPixelCount
    ) {
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.exifReader = exifReader
        self.maximumPixelCount = maximumPixelCount
    }

    /// Reads the file at `path` once and learns what the catalogue needs from that one read.
    /// - Parameter path: an absolute path.
    /// - Returns: the format, the pixel size, the EXIF metadata, the XMP packet and the picture at analysis size.
    /// - Throws: `PhotoError` saying why the file is not a readable photo, naming it.
    public func inspect(path: String) throws(PhotoError) -> PhotoInspection {
        let data: Data
        do {
            data = try fileSystem.contents(of: path)
        } catch {
            // A name that is not UTF-8 reaches us with U+FFFD for its bytes, and so names no file.
            if path.contains("\u{FFFD}") && !fileSystem.exists(path) {
                throw .unreadable(path: path, reason: "the name is \(notUTF8), "
                                  + "so it cannot be opened by it: rename the file")
            }
            if error.posixErrorCode == EISDIR {
                throw .unreadable(path: path, reason: "it is a folder: inspect reads photo files, and showhide gallery import imports a folder")
            }
            throw .unreadable(path: path, reason: error.plainDescription)
        }
        return try inspect(data, path: path)
    }

    /// Inspects bytes already read from `path`.
    public func inspect(_ data: Data, path: String) throws(PhotoError) -> PhotoInspection {
        let decoded = try analysisDecode(of: data, path: path)
        // A photo whose EXIF cannot be parsed is still a photo.
        let exif = try? exifReader.readExif(from: data)
        return PhotoInspection(
            path: path, format: decoded.format, fileSize: data.count, pixelSize: decoded.originalSize, exif: exif ?? nil,
            xmp: exifReader.xmpPacket(from: data), analysisImage: decoded.image
        )
    }

    /// The scaled, upright decode that checks and analyses a photo, from bytes already read from `path`.
    public func analysisDecode(of data: Data, path: String) throws(PhotoError) -> DecodedImage {
        guard !data.isEmpty else { throw .undecodable(path: path, reason: "the file is empty") }
        guard ImageFormat.sniff(data.prefix(ImageFormat.signatureLength)) != nil else { throw .notAPhoto(path: path) }
        do {
            // Upright, so that the same picture stored in any of the eight orientations is analysed alike.
            let options = DecodeOptions(maximumPixelCount: maximumPixelCount, minimumLongSide: Self.analysisLongSide,
                                        appliesOrientation: true)
            return try decoder.decode(data, options: options)
        } catch {
            throw .undecodable(path: path, reason: error.plainDescription)
        }
    }
}

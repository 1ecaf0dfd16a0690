import Codecs
import Foundation
import Imaging
import Services

/// Everything a command needs from the outside world. `live()` is the one place where the
/// real implementations are chosen; tests build their own with fakes and spies.
public struct AppEnvironment: Sendable {
    public var console: Console
    public var fileSystem: any FileSystem
    public var decoder: any ImageDecoding
    public var encoder: any ImageEncoding
    public var exifReader: any ExifReading
    public var variables: [String: String]

    public init(
        console: Console, fileSystem: any FileSystem, decoder: any ImageDecoding,
        encoder: any ImageEncoding, exifReader: any ExifReading, variables: [String: String]
    ) {
        self.console = console
        self.fileSystem = fileSystem
        self.decoder = decoder
        self.encoder = encoder
        self.exifReader = exifReader
        self.variables = variables
    }

    /// The real file system, libjpeg/libpng/libexif, and this process's terminal and environment.
    public static func live() -> AppEnvironment {
        let variables = ProcessInfo.processInfo.environment
        let codec = ImageCodec()
        return AppEnvironment(
            console: .standard(environment: variables),
            fileSystem: LocalFileSystem(),
            decoder: codec,
            encoder: codec,
            exifReader: LibExifReader(),
            variables: variables
        )
    }

    func photoInspector() -> PhotoInspector {
        PhotoInspector(fileSystem: fileSystem, decoder: decoder, exifReader: exifReader)
    }
}

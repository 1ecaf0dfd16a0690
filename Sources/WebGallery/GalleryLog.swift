import Logging

/// The web framework's log, said as the gallery says its own lines: the message alone, without the
/// framework's label, level and request ids.
struct GalleryLogHandler: LogHandler {
    let say: @Sendable (String) -> Void
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .warning

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
             function: String, line: UInt) {
        say("\(message)")
    }
}

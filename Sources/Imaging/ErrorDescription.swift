import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Error {
    /// The error in words a person can act on: its own description when it has one, and for
    /// Foundation's and the system's errors the system's reason ("no such file or directory"),
    /// never an `NSError` dump.
    public var plainDescription: String {
        if let localized = self as? LocalizedError, let description = localized.errorDescription { return description }
        let error = self as NSError
        guard error.domain == NSCocoaErrorDomain || error.domain == NSPOSIXErrorDomain else {
            let text = String(describing: self)
            return text.contains("Domain=") ? "an unexpected error (\(error.domain) \(error.code))" : text
        }
        if let description = error.userInfo[NSLocalizedDescriptionKey] as? String { return description }
        if let code = Self.posixCode(of: error) { return systemErrorReason(code) }
        return Self.cocoaReasons[error.code] ?? "the system reported error \(error.code)"
    }

    /// The POSIX error number behind a Foundation or system error (`ENOENT`…), when there is one:
    /// its own, or that of the error under it.
    public var posixErrorCode: Int32? { Self.posixCode(of: self as NSError) }

    /// The POSIX error number behind a Foundation error, when there is one.
    private static func posixCode(of error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        guard let underlying = error.userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
        return posixCode(of: underlying as NSError)
    }

    private static var cocoaReasons: [Int: String] {
        [
            CocoaError.fileNoSuchFile.rawValue: "no such file or directory",
            CocoaError.fileReadNoSuchFile.rawValue: "no such file or directory",
            CocoaError.fileReadNoPermission.rawValue: "permission denied",
            CocoaError.fileWriteNoPermission.rawValue: "permission denied",
            CocoaError.fileWriteFileExists.rawValue: "a file with that name exists",
            CocoaError.fileWriteOutOfSpace.rawValue: "no space left on device",
            CocoaError.fileWriteVolumeReadOnly.rawValue: "read-only file system",
            CocoaError.fileReadTooLarge.rawValue: "the file is too large",
        ]
    }
}

/// The system's reason for the error number `code`, as the end of a sentence of ours:
/// "no such file or directory" (strerror, its first letter lowercased).
public func systemErrorReason(_ code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
}

import Foundation

/// Somewhere text goes: standard output, standard error, or a spy in tests.
public protocol TextOutput: AnyObject, Sendable {
    func write(_ text: String)
}

/// A file descriptor of this process.
public final class FileDescriptorOutput: TextOutput, @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
        self.handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
    }

    public func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        handle.write(Data(text.utf8))
    }

    public var isTerminal: Bool { isatty(descriptor) == 1 }
}

/// Where commands write: results to `output`, diagnostics and progress to `errors`.
public struct Console: Sendable {
    public let output: any TextOutput
    public let errors: any TextOutput
    /// Progress bars are drawn only when standard error is a terminal.
    public let errorsIsTerminal: Bool
    /// ANSI colour, off when `NO_COLOR` is set or output is not a terminal.
    public let usesColour: Bool

    public init(output: any TextOutput, errors: any TextOutput, errorsIsTerminal: Bool = false, usesColour: Bool = false) {
        self.output = output
        self.errors = errors
        self.errorsIsTerminal = errorsIsTerminal
        self.usesColour = usesColour
    }

    /// The process's own standard output and error, honouring `NO_COLOR` (https://no-color.org).
    public static func standard(environment: [String: String]) -> Console {
        let output = FileDescriptorOutput(descriptor: STDOUT_FILENO)
        let errors = FileDescriptorOutput(descriptor: STDERR_FILENO)
        let colourAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        return Console(
            output: output, errors: errors,
            errorsIsTerminal: errors.isTerminal,
            usesColour: colourAllowed && output.isTerminal
        )
    }

    /// Prints one line to standard output.
    public func print(_ line: String) {
        output.write(line + "\n")
    }

    /// Prints one diagnostic line to standard error.
    public func warn(_ line: String) {
        errors.write(line + "\n")
    }

    /// `text` in bold, when colour is on.
    public func bold(_ text: String) -> String {
        usesColour ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }
}

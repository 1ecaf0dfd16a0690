import Foundation
import Imaging

/// Somewhere text goes: standard output, standard error, or a spy in tests.
public protocol TextOutput: AnyObject, Sendable {
    func write(_ text: String)
}

/// A file descriptor of this process.
public final class FileDescriptorOutput: TextOutput, @unchecked Sendable {
    private let lock = NSLock()
    public let descriptor: Int32

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard written >= 0 else {
                if errno == EINTR { continue }
                // Standard output's failure is said on standard error and ends the process (FileHandle's
                // own write traps); standard error's has nowhere to be said.
                if descriptor != STDERR_FILENO { Self.endForFailedOutput(errno) }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Says on standard error that the output could not be written, and why, then ends the process (74).
    static func endForFailedOutput(_ code: Int32) {
        let message = Array("showhide: cannot write the output: \(systemErrorReason(code))\n".utf8)
        _ = message.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(ExitStatus.outputFailed.rawValue)
    }

    public var isTerminal: Bool { isatty(descriptor) == 1 }
}

/// Where commands write: results to `output`, diagnostics and progress to `errors`. Lines are
/// written with their control characters escaped, so a file name cannot drive the terminal.
public struct Console: Sendable {
    public let output: any TextOutput
    public let errors: any TextOutput
    /// Progress bars are drawn only when standard error is a terminal.
    public let errorsIsTerminal: Bool
    /// ANSI colour, off when `NO_COLOR` is set or output is not a terminal.
    public let usesColour: Bool
    /// The columns tables must fit in; nil when output is not a terminal (a pipe gets whole lines).
    public let width: Int?
    /// The columns of the terminal standard error draws on (`COLUMNS` first), for the progress bar's line.
    public let errorsWidth: Int?
    let text: TerminalText

    public init(output: any TextOutput, errors: any TextOutput, errorsIsTerminal: Bool = false, usesColour: Bool = false,
                width: Int? = nil, errorsWidth: Int? = nil) {
        self.output = output
        self.errors = errors
        self.errorsIsTerminal = errorsIsTerminal
        self.usesColour = usesColour
        self.width = width
        self.errorsWidth = errorsWidth
        text = TerminalText()
    }

    /// The process's own standard output and error, honouring `NO_COLOR` (https://no-color.org) and
    /// `COLUMNS`. `isTerminal` and `terminalWidth` ask about a file descriptor (injected for tests).
    public static func standard(environment: [String: String],
                                isTerminal: (Int32) -> Bool = { isatty($0) == 1 },
                                terminalWidth: (Int32) -> Int? = Console.terminalWidth) -> Console {
        let colourAllowed = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        let outputIsTerminal = isTerminal(STDOUT_FILENO), errorsIsTerminal = isTerminal(STDERR_FILENO)
        let columns = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        return Console(
            output: FileDescriptorOutput(descriptor: STDOUT_FILENO), errors: FileDescriptorOutput(descriptor: STDERR_FILENO),
            errorsIsTerminal: errorsIsTerminal,
            usesColour: colourAllowed && outputIsTerminal,
            width: outputIsTerminal ? columns ?? terminalWidth(STDOUT_FILENO) : columns,
            errorsWidth: errorsIsTerminal ? columns ?? terminalWidth(STDERR_FILENO) : nil
        )
    }

    /// The columns of the terminal on `descriptor`, as the kernel reports them.
    public static func terminalWidth(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Prints one line to standard output.
    public func print(_ line: String) {
        output.write(text.rendered(line) + "\n")
    }

    /// Prints one diagnostic line to standard error.
    public func warn(_ line: String) {
        errors.write(text.rendered(line) + "\n")
    }

    /// Prints JSON (or other text that is escaped already) as it is.
    public func printJSON(_ json: String) {
        output.write(json + "\n")
    }

    /// Prints a table fitted to the terminal's width.
    func print(_ table: TextTable) {
        table.render(width: width, bold: bold).forEach(print)
    }

    /// `text` in lines that fit the terminal after `indent` columns (at least 20 of them), between words
    /// where it can be; whole in a pipe.
    func fitted(_ text: String, after indent: Int) -> [String] {
        guard let width else { return [text] }
        return TerminalText.wrapped(text, to: max(20, width - indent))
    }

    /// `text` in bold, when colour is on.
    public func bold(_ text: String) -> String {
        style(text, "1")
    }

    /// `text` with the background colour `red`, `green`, `blue`, when colour is on.
    func background(_ text: String, red: UInt8, green: UInt8, blue: UInt8) -> String {
        style(text, "48;2;\(red);\(green);\(blue)")
    }

    private func style(_ text: String, _ code: String) -> String {
        usesColour ? self.text.mark(code) + text + self.text.mark("0") : text
    }
}

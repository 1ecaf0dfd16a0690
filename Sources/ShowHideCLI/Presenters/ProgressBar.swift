import Catalogue
import ColourScience
import Foundation
import Imaging
import Services

/// A one-line progress bar on standard error (only used when it is a terminal).
final class ProgressBar: ImportProgress, @unchecked Sendable {
    private let console: Console
    private let clock: any WallClock
    private let lock = NSLock()
    private var started: Date?
    private var lastDrawn: Date?
    /// The columns the last line drawn took, overwritten with spaces when the next is shorter: no
    /// terminal control but the carriage return, which a dumb terminal has too.
    private var lastLength = 0
    /// The bar's width where the terminal has room for it all.
    static let width = 30

    init(console: Console, clock: any WallClock) {
        self.console = console
        self.clock = clock
    }

    func update(completed: Int, total: Int) {
        lock.lock()
        defer { lock.unlock() }
        let now = clock.now()
        if started == nil { started = now }
        // Redraw at most ten times a second, and always at the end.
        if let lastDrawn, now.timeIntervalSince(lastDrawn) < 0.1, completed < total { return }
        lastDrawn = now
        let text = Self.fitted(completed: completed, total: total, elapsed: now.timeIntervalSince(started!), columns: console.errorsWidth)
        console.errors.write("\r" + text + String(repeating: " ", count: max(0, lastLength - text.count)))
        lastLength = text.count
    }

    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if lastDrawn != nil { console.errors.write("\r" + String(repeating: " ", count: lastLength) + "\r") }
    }

    /// `line` narrowed to fit `columns` less one (a line that fills the last column wraps on some
    /// terminals, and every redraw would then start a new line): the bar shorter, down to 5; then the
    /// counts alone; then the count done alone; never a number cut short (1234/9999 for 1234/99999).
    static func fitted(completed: Int, total: Int, elapsed: TimeInterval, columns: Int?) -> String {
        guard let columns else { return line(completed: completed, total: total, elapsed: elapsed, width: width) }
        for barWidth in stride(from: width, through: 5, by: -1) {
            let text = line(completed: completed, total: total, elapsed: elapsed, width: barWidth)
            if text.count < columns { return text }
        }
        return ["\(completed)/\(total)", "\(completed)"].first { $0.count < columns } ?? ""
    }

    /// "[=========>          ]  120/500  24.0/s  ETA 0:16"
    static func line(completed: Int, total: Int, elapsed: TimeInterval, width: Int) -> String {
        let fraction = total > 0 ? Double(completed) / Double(total) : 1
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "=", count: filled) + (filled < width ? ">" + String(repeating: " ", count: width - filled - 1) : "")
        let rate = elapsed > 0 ? Double(completed) / elapsed : 0
        var text = "[\(bar)] \(completed)/\(total)"
        text += String(format: "  %.1f/s", rate)
        if rate > 0, completed < total {
            let remaining = Int((Double(total - completed) / rate).rounded())
            text += String(format: "  ETA %d:%02d", remaining / 60, remaining % 60)
        }
        return text
    }
}

import Foundation

/// A picture's rows split into bands worked on every core at once: two bands a core, so that one slow
/// band does not leave a core idle, and at least 16 rows a band, so that a small picture is not split
/// into more work than it is.
public enum ParallelBands {
    /// `body` on each band of the rows `0..<height`, in parallel; returns when every band is done.
    public static func forEach(rowsOf height: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 2, height / 16))
        let rowsPerBand = (height + bands - 1) / bands
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            body(min(height, band * rowsPerBand)..<min(height, (band + 1) * rowsPerBand))
        }
    }
}

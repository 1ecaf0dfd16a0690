import Imaging

/// Straight seams in a show picture: lines along which the kept colour jumps where the photo draws no
/// line (issue #32's measure, Docs/Quality.md "Seams"). The evaluation counts them on real photos at
/// 800 px; the tests hold generated scenes to none.
public struct SeamMeasure: Sendable {
    /// Pixels this close to the frame's edge are left out.
    public var border = 16
    /// The kept map must change this much…
    public var jump = 0.35
    /// …between pixels this far apart across the line (half on each side).
    public var across = 6
    /// A seam runs straight for at least this many pixels.
    public var minimumRun = 40
    /// The photo's own change is measured between pixels this far apart…
    public var photoAcross = 12
    /// …and compared with parallel lines this far to either side.
    public var parallelOffset = 14
    /// The photo draws no line when its change there is at most this many times…
    public var photoRatio = 1.3
    /// …plus this many ΔE00 the parallel lines' change.
    public var photoSlack = 2.0
    /// Only pixels of at least this chroma in the original have a kept map.
    public var minimumChroma = 10.0
    /// A photo is seamed when its runs add up to this many pixels (a sharp edge jumps across several
    /// neighbouring lines, each its own run, as the measure counts them).
    public var seamedLength = 200

    public struct Seam: Equatable, Sendable {
        public var vertical: Bool
        /// The column of a vertical seam, the row of a horizontal one.
        public var position: Int
        public var start: Int
        public var length: Int
    }

    public init() {}

    /// The seams of `show` against `original`, both upright at the same size.
    public func seams(original: RGBAImage, show: RGBAImage) -> [Seam] {
        let width = original.width, height = original.height
        let labs = original.pixels.map(Lab.init)
        let showChroma = show.pixels.map { Lab($0).lch.c }
        let kept: [Double?] = labs.indices.map { index in
            let chroma = labs[index].lch.c
            return chroma >= minimumChroma ? min(max(showChroma[index] / chroma, 0), 1) : nil
        }
        var found: [Seam] = []
        // Vertical seams: the kept map jumps between columns x − 3 and x + 3 along a column x.
        for vertical in [true, false] {
            let lines = vertical ? width : height, along = vertical ? height : width
            func index(_ line: Int, _ step: Int) -> Int { vertical ? step * width + line : line * width + step }
            func change(_ line: Int, _ step: Int) -> Double? {
                let half = across / 2
                guard line - half >= 0, line + half < lines, let before = kept[index(line - half, step)],
                      let after = kept[index(line + half, step)] else { return nil }
                return abs(after - before)
            }
            func photoChange(_ line: Int, _ step: Int) -> Double? {
                let half = photoAcross / 2
                guard line - half >= 0, line + half < lines else { return nil }
                return deltaE2000(labs[index(line - half, step)], labs[index(line + half, step)])
            }
            for line in border..<(lines - border) {
                var runStart: Int?
                func close(at end: Int) {
                    guard let start = runStart else { return }
                    runStart = nil
                    guard end - start >= minimumRun else { return }
                    // The photo's change across the run against that across the parallel lines.
                    var own = 0.0, parallel = 0.0, sides = 0.0
                    for step in start..<end {
                        own += photoChange(line, step) ?? 0
                        for offset in [-parallelOffset, parallelOffset] {
                            if let value = photoChange(line + offset, step) {
                                parallel += value
                                sides += 1
                            }
                        }
                    }
                    let count = Double(end - start)
                    let parallelMean = sides > 0 ? parallel / sides : 0
                    if own / count <= photoRatio * parallelMean + photoSlack {
                        found.append(Seam(vertical: vertical, position: line, start: start, length: end - start))
                    }
                }
                for step in border..<(along - border) {
                    if let here = change(line, step), here >= jump {
                        if runStart == nil { runStart = step }
                    } else {
                        close(at: step)
                    }
                }
                close(at: along - border)
            }
        }
        return found
    }

    public func isSeamed(_ seams: [Seam]) -> Bool { seams.reduce(0) { $0 + $1.length } >= seamedLength }
}

import Catalogue
import ColourScience

/// The grid that indexes palette entries and accents by colour (`palette_cell` and `accent_cell`):
/// CIELAB cut into cubes of `side` units, numbered exactly as `Migrations/0003_colour_grid.sql` does.
/// It spans L* 0…100 and a*, b* -128…128, which holds every sRGB colour (|a*|, |b*| < 110).
enum LabGrid {
    static let side = 4.0
    /// Cells per axis of a* and b* (-128…128); the numbering's radix.
    private static let radix = 64

    static func cell(of lab: Lab) -> Int {
        // SQLite's CAST truncates towards zero: for the non-negative values here that is floor.
        let l = Int(max(0, lab.l) / side), a = Int(max(0, lab.a + 128) / side), b = Int(max(0, lab.b + 128) / side)
        return (l * radix + a) * radix + b
    }

    /// A cell a search reads, and the least ΔE00 any colour in it can have from the target.
    struct Cell: Equatable {
        var number: Int
        var nearest: Double
    }

    /// Every cell that can hold a colour within `within` ΔE00 of `target`.
    ///
    /// CIEDE2000 has no closed-form ball, so the space is searched from cubes of 8 × 8 × 8 cells down:
    /// a cube is dropped when even its nearest point must be too far, judged from the ΔE00 at its centre
    /// minus a bound on how fast ΔE00 can change across it (`steepness` per unit of Lab distance; the
    /// largest rate measured over random pairs is 1.53). Cubes that may hold a match are halved down to
    /// half a cell, so that a cell is read only when some part of it can match.
    static func cells(near target: Lab, within: Double) -> [Cell] {
        let slack = slack(for: target, within: within)
        var cells: [Cell] = []
        let top = side * 8
        for l in stride(from: 0.0, to: 100.0, by: top) {
            for a in stride(from: -128.0, to: 128.0, by: top) {
                for b in stride(from: -128.0, to: 128.0, by: top) {
                    collect(from: (l, a, b), side: top, target: target, within: within, slack: slack, into: &cells)
                }
            }
        }
        return cells
    }

    /// How fast ΔE00 can change per unit of Lab distance, with a margin over the 1.53 measured.
    static let steepness = 1.8

    /// CIEDE2000 jumps where the mean hue of the two colours flips, which happens only for colours of
    /// nearly opposite hue — close to each other only near the grey axis. The jumps measured there are
    /// under 15% of the distance.
    private static func slack(for target: Lab, within: Double) -> Double {
        let chroma = (target.a * target.a + target.b * target.b).squareRoot()
        return chroma < 1.5 * within + 3 ? 0.3 + 0.15 * within : 0.3
    }

    private typealias Corner = (l: Double, a: Double, b: Double)

    private static func collect(from corner: Corner, side cube: Double, target: Lab, within: Double, slack: Double,
                                into cells: inout [Cell]) {
        guard corner.l <= 100, nearest(corner, cube, target, within, slack) != nil else { return }
        let half = cube / 2
        if cube > side {
            for part in parts(of: corner, half) {
                collect(from: part, side: half, target: target, within: within, slack: slack, into: &cells)
            }
            return
        }
        // A cell is read when one of its eight halves may hold a match; its nearest colour is the least
        // bound over them (finer would cost more than it saves).
        let bounds = parts(of: corner, half).compactMap { nearest($0, half, target, within, slack) }
        guard let least = bounds.min() else { return }
        cells.append(Cell(number: cell(of: Lab(l: corner.l + half, a: corner.a + half, b: corner.b + half)), nearest: least))
    }

    /// The corners of the eight cubes of side `half` that make up the cube at `corner`.
    private static func parts(of corner: Corner, _ half: Double) -> [Corner] {
        [0, half].flatMap { dl in [0, half].flatMap { da in [0, half].map { db in (corner.l + dl, corner.a + da, corner.b + db) } } }
    }

    /// A lower bound on ΔE00 from the target to any colour of the cube, nil when it exceeds `within`.
    private static func nearest(_ corner: Corner, _ cube: Double, _ target: Lab, _ within: Double, _ slack: Double) -> Double? {
        let centre = Lab(l: corner.l + cube / 2, a: corner.a + cube / 2, b: corner.b + cube / 2)
        let bound = deltaE2000(target, centre) - steepness * cube * 0.866_025_404 - slack
        return bound <= within ? max(0, bound) : nil
    }
}

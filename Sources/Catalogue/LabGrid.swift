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
    private static let finest = side / 2

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
        guard corner.l <= 100, let _ = nearest(corner, cube, target, within, slack) else { return }
        if cube > side {
            let half = cube / 2
            for dl in [0, half] { for da in [0, half] { for db in [0, half] {
                collect(from: (corner.l + dl, corner.a + da, corner.b + db), side: half, target: target, within: within,
                        slack: slack, into: &cells)
            } } }
        } else if anyPartMayHold(corner, cube / 2, target, within, slack) {
            // The cell's nearest colour: the least bound over its eight halves (finer would cost more than it saves).
            let half = cube / 2
            var nearest = within
            for dl in [0, half] { for da in [0, half] { for db in [0, half] {
                let part = (corner.l + dl, corner.a + da, corner.b + db)
                if let bound = self.nearest(part, half, target, within, slack) { nearest = min(nearest, bound) }
            } } }
            cells.append(Cell(number: cell(of: Lab(l: corner.l + half, a: corner.a + half, b: corner.b + half)), nearest: nearest))
        }
    }

    private static func anyPartMayHold(_ corner: Corner, _ half: Double, _ target: Lab, _ within: Double, _ slack: Double) -> Bool {
        for dl in [0, half] { for da in [0, half] { for db in [0, half] {
            let part = (corner.l + dl, corner.a + da, corner.b + db)
            guard nearest(part, half, target, within, slack) != nil else { continue }
            if half <= finest || anyPartMayHold(part, half / 2, target, within, slack) { return true }
        } } }
        return false
    }

    /// A lower bound on ΔE00 from the target to any colour of the cube, nil when it exceeds `within`.
    private static func nearest(_ corner: Corner, _ cube: Double, _ target: Lab, _ within: Double, _ slack: Double) -> Double? {
        let centre = Lab(l: corner.l + cube / 2, a: corner.a + cube / 2, b: corner.b + cube / 2)
        let bound = deltaE2000(target, centre) - steepness * cube * 0.866_025_404 - slack
        return bound <= within ? max(0, bound) : nil
    }
}

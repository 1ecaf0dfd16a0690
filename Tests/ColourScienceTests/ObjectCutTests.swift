@testable import ColourScience
import Imaging
import XCTest

final class ObjectCutTests: XCTestCase {
    /// Deterministic numbers in 0..<1 (a linear congruential generator), so each run cuts the same graphs.
    struct Numbers {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
    }

    /// A small grid with colours and terminal costs drawn at random.
    struct Problem {
        let width: Int, height: Int
        let colours: [SIMD3<Float>]
        let source: [Float], sink: [Float]
        let smoothness: Float = 3

        init(width: Int, height: Int, seed: UInt64) {
            self.width = width
            self.height = height
            var numbers = Numbers(state: seed)
            colours = (0..<width * height).map { _ in SIMD3(numbers.next() * 60, numbers.next() * 40 - 20, numbers.next() * 40 - 20) }
            source = (0..<width * height).map { _ in numbers.next() * 8 }
            sink = (0..<width * height).map { _ in numbers.next() * 8 }
        }

        var beta: Float { GridCut.contrastScale(colours, width: width, height: height) }

        /// The cut's energy of a labelling (true: the source side, the object), computed here from the
        /// definitions rather than by the cut's own code.
        func energy(_ labels: [Bool]) -> Float {
            var total: Float = 0
            for node in labels.indices { total += labels[node] ? sink[node] : source[node] }
            // Each pair of the 8 neighbours once: right and down weigh an axis step, the two diagonals
            // below a diagonal one (Boykov and Kolmogorov's weights, scaled so that a row costs 4/π a pixel,
            // what a boundary on 4 neighbours costs on average over all angles).
            let axis = Float.pi / 8, diagonal = Float.pi / (8 * Float(2).squareRoot())
            let steps: [(dx: Int, dy: Int, length: Float)] = [(1, 0, axis), (0, 1, axis), (-1, 1, diagonal), (1, 1, diagonal)]
            for y in 0..<height {
                for x in 0..<width {
                    let node = y * width + x
                    for step in steps where x + step.dx >= 0 && x + step.dx < width && y + step.dy < height {
                        let neighbour = (y + step.dy) * width + x + step.dx
                        guard labels[node] != labels[neighbour] else { continue }
                        let difference = colours[node] - colours[neighbour]
                        total += smoothness * step.length / (axis + 2 * diagonal) * 4 / .pi * exp(-beta * (difference * difference).sum())
                    }
                }
            }
            return total
        }

        func cut(fixed: [Int8]? = nil) -> [Bool] {
            var graph = GridCut(width: width, height: height)
            graph.setEdges(colours: colours, beta: beta, smoothness: smoothness)
            for node in source.indices { graph.setTerminal(node, source: source[node], sink: sink[node]) }
            return graph.minimumCut(fixed: fixed)
        }

        /// The lowest energy of every labelling that agrees with `fixed`, by trying them all.
        func lowestEnergy(fixed: [Int8]) -> Float {
            var lowest = Float.infinity
            for bits in 0..<(1 << colours.count) {
                let labels = (0..<colours.count).map { bits >> $0 & 1 == 1 }
                guard zip(labels, fixed).allSatisfy({ $1 == 0 || $0 == ($1 > 0) }) else { continue }
                lowest = min(lowest, energy(labels))
            }
            return lowest
        }
    }

    /// Capacities are rounded to 1/64: the energy of the cut found may exceed the true minimum by
    /// at most half a unit per term (12 pixels and 29 edges here).
    let roundingTolerance: Float = 41.0 / 128

    func testTheCutHasTheLowestEnergyOfAnyLabelling() {
        for seed in 1...6 {
            let problem = Problem(width: 4, height: 3, seed: UInt64(seed))
            let fixed = [Int8](repeating: 0, count: 12)
            let labels = problem.cut()
            XCTAssertEqual(problem.energy(labels), problem.lowestEnergy(fixed: fixed), accuracy: roundingTolerance, "seed \(seed)")
        }
    }

    func testFixedPixelsKeepTheirSideAndPullTheirNeighbours() {
        for seed in 20...25 {
            let problem = Problem(width: 4, height: 3, seed: UInt64(seed))
            var fixed = [Int8](repeating: 0, count: 12)
            fixed[0] = 1
            fixed[5] = -1
            fixed[11] = 1
            let labels = problem.cut(fixed: fixed)
            XCTAssertEqual([labels[0], labels[5], labels[11]], [true, false, true], "seed \(seed)")
            XCTAssertEqual(problem.energy(labels), problem.lowestEnergy(fixed: fixed), accuracy: roundingTolerance, "seed \(seed)")
        }
    }

    /// GrabCut's second round cuts the same graph with other terminal costs, starting from the first
    /// round's flow: it must find the cut a graph cut from nothing finds, pixel for pixel, whether the
    /// costs rose or fell, and start afresh when the fixed pixels or the edges change.
    func testACutAfterAnotherOfTheSameGraphIsTheCutMadeFromNothing() {
        for seed in 30...45 {
            let first = Problem(width: 12, height: 9, seed: UInt64(seed)), second = Problem(width: 12, height: 9, seed: UInt64(seed + 100))
            var fixed = [Int8](repeating: 0, count: 108)
            for node in stride(from: 0, to: 108, by: 13) { fixed[node] = node % 2 == 0 ? 1 : -1 }
            var graph = GridCut(width: 12, height: 9)
            graph.setEdges(colours: first.colours, beta: first.beta, smoothness: first.smoothness)
            for (round, problem) in [first, second, first].enumerated() {
                for node in problem.source.indices { graph.setTerminal(node, source: problem.source[node], sink: problem.sink[node]) }
                var fresh = GridCut(width: 12, height: 9)
                fresh.setEdges(colours: first.colours, beta: first.beta, smoothness: first.smoothness)
                for node in problem.source.indices { fresh.setTerminal(node, source: problem.source[node], sink: problem.sink[node]) }
                let expected = fresh.minimumCut(fixed: fixed)
                XCTAssertEqual(graph.minimumCut(fixed: fixed), expected, "seed \(seed), round \(round)")
                XCTAssertNotEqual(expected, [Bool](repeating: expected[0], count: 108), "a cut through the grid, seed \(seed)")
            }
            // Other fixed pixels: another graph, cut afresh.
            fixed[7] = 1
            var fresh = GridCut(width: 12, height: 9)
            fresh.setEdges(colours: first.colours, beta: first.beta, smoothness: first.smoothness)
            for node in first.source.indices { fresh.setTerminal(node, source: first.source[node], sink: first.sink[node]) }
            XCTAssertEqual(graph.minimumCut(fixed: fixed), fresh.minimumCut(fixed: fixed), "seed \(seed), other fixed pixels")
            // Other edges: another graph too.
            graph.setEdges(colours: second.colours, beta: second.beta, smoothness: second.smoothness)
            fresh = GridCut(width: 12, height: 9)
            fresh.setEdges(colours: second.colours, beta: second.beta, smoothness: second.smoothness)
            for node in first.source.indices { fresh.setTerminal(node, source: first.source[node], sink: first.sink[node]) }
            XCTAssertEqual(graph.minimumCut(fixed: fixed), fresh.minimumCut(fixed: fixed), "seed \(seed), other edges")
        }
    }

    /// Where nothing in the photo bends it (one colour throughout) and the colours lean a little
    /// towards the object, the cut around a round object is round: on a grid that measured its boundary
    /// in rows and columns, the square around the disc cost no more than the disc, held more object,
    /// and was the cut (the boxes of Docs/Quality.md).
    func testThroughASmoothStretchTheCutAroundARoundObjectIsRoundNotABox() {
        let side = 48, centre = 24.0
        func distance(_ node: Int) -> Double { hypot(Double(node % side) - centre, Double(node / side) - centre) }
        var graph = GridCut(width: side, height: side)
        graph.setEdges(colours: [SIMD3<Float>](repeating: SIMD3(50, 20, 10), count: side * side), beta: 0, smoothness: 1)
        for node in 0..<side * side { graph.setTerminal(node, source: 0.05, sink: 0) }
        // The object is the disc of radius 8; beyond 20 is ground.
        let fixed = (0..<side * side).map { node -> Int8 in distance(node) <= 8 ? 1 : (distance(node) > 20 ? -1 : 0) }
        let cut = graph.minimumCut(fixed: fixed)
        let corners = [(32, 32), (16, 16), (32, 16), (16, 32)].map { $0.1 * side + $0.0 }
        XCTAssertEqual(corners.map { cut[$0] }, [false, false, false, false], "the square's corners, 11.3 px from the centre, are ground")
        XCTAssertTrue((0..<side * side).filter { cut[$0] }.allSatisfy { distance($0) <= 10 }, "nothing beyond 10 px is object")
    }

    func testAMixtureFindsItsColoursLikelyAndOthersNot() {
        var numbers = Numbers(state: 7)
        // Two clusters: a red and a dark green, each a few units wide; and as many pixels outside the set.
        let red = SIMD3<Float>(50, 60, 40), green = SIMD3<Float>(30, -40, 30), blue = SIMD3<Float>(40, 10, -50)
        let colours = (0..<600).map { index -> SIMD3<Float> in
            let centre = index < 200 ? red : index < 400 ? green : blue
            return centre + SIMD3(numbers.next() * 6 - 3, numbers.next() * 6 - 3, numbers.next() * 6 - 3)
        }
        let mixture = GaussianMixture(colours, where: (0..<600).map { $0 < 400 })
        XCTAssertLessThan(mixture.cost(red), mixture.cost(blue) - 20)
        XCTAssertLessThan(mixture.cost(green), mixture.cost(blue) - 20)
        XCTAssertLessThan(mixture.cost(red), mixture.cost((red + green) / 2) - 20, "two components, not one between them")
        XCTAssertEqual(GaussianMixture(colours, where: [Bool](repeating: false, count: 600)).cost(red), 0, "no pixels, no opinion")
    }

    /// An orange disc (radius 30 on a 120 × 90 grid) on a grey-green ground with a little texture,
    /// and the disc.
    func disc() -> (colours: [SIMD3<Float>], disc: [Bool]) {
        var numbers = Numbers(state: 3)
        var colours: [SIMD3<Float>] = [], disc: [Bool] = []
        for y in 0..<90 {
            for x in 0..<120 {
                let dx = Float(x - 60), dy = Float(y - 45), inside = dx * dx + dy * dy <= 900
                colours.append((inside ? SIMD3<Float>(65, 25, 60) : SIMD3<Float>(50, -8, 10))
                               + SIMD3(numbers.next() * 4 - 2, numbers.next() * 4 - 2, numbers.next() * 4 - 2))
                disc.append(inside)
            }
        }
        return (colours, disc)
    }

    func intersectionOverUnion(_ first: [Bool], _ second: [Bool]) -> Double {
        Double(zip(first, second).filter { $0 && $1 }.count) / Double(zip(first, second).filter { $0 || $1 }.count)
    }

    func testAHaloOfGroundTheGuessTookIsCutAway() {
        let (colours, disc) = disc()
        let guess = (0..<colours.count).map { index in
            let dx = index % 120 - 60, dy = index / 120 - 45
            return dx * dx + dy * dy <= 34 * 34
        }
        XCTAssertLessThan(intersectionOverUnion(guess, disc), 0.8)
        XCTAssertGreaterThanOrEqual(intersectionOverUnion(ObjectCut.segment(colours: colours, guess: guess, width: 120, height: 90), disc), 0.97)
    }

    func testAPartOfTheObjectTheGuessMissedJoinsIt() {
        let (colours, disc) = disc()
        // The guess stops 6 pixels short of the disc's right edge.
        let guess = disc.indices.map { disc[$0] && $0 % 120 < 84 }
        XCTAssertLessThan(intersectionOverUnion(guess, disc), 0.95)
        XCTAssertGreaterThanOrEqual(intersectionOverUnion(ObjectCut.segment(colours: colours, guess: guess, width: 120, height: 90), disc), 0.97)
    }

    func testTheGroundBeyondReachStaysGroundWhateverItsColour() {
        var (colours, disc) = disc()
        // A patch of the disc's orange in a corner, beyond the reach of the guess (7.5% of 120 pixels).
        for y in 0..<10 { for x in 0..<10 { colours[y * 120 + x] = SIMD3(65, 25, 60) } }
        let object = ObjectCut.segment(colours: colours, guess: disc, width: 120, height: 90)
        XCTAssertFalse((0..<10).contains { y in (0..<10).contains { x in object[y * 120 + x] } })
        XCTAssertGreaterThanOrEqual(intersectionOverUnion(object, disc), 0.97)
    }

    /// A vivid yellow disc (radius 14, top left) on grey, above a dull yellow-green lawn (the lower half)
    /// in which three specks are as vivid as seeds; growth took the disc and the part of the lawn around
    /// the specks, which the sun lights a little more (L* and b* 4 higher) than the rest, as it lit
    /// `kodim20`'s. Returns the colours, the disc, the guess, the seeds (the disc and the specks), and the
    /// lawn the guess took.
    func lawn() -> (colours: [SIMD3<Float>], disc: [Bool], guess: [Bool], seeds: [Bool], taken: [Bool]) {
        var numbers = Numbers(state: 7)
        var colours: [SIMD3<Float>] = [], disc: [Bool] = [], taken: [Bool] = [], specks: [Bool] = []
        for y in 0..<90 {
            for x in 0..<120 {
                let dx = Float(x - 25), dy = Float(y - 22), inside = dx * dx + dy * dy <= 196
                let speck = y >= 60 && y < 63 && [70, 85, 100].contains { x >= $0 && x < $0 + 3 }
                let isTaken = y >= 50 && y < 75 && x >= 60 && x < 110
                let grass = SIMD3<Float>(42, -6, 32) + (isTaken ? SIMD3(4, 0, 4) : .zero)
                let colour: SIMD3<Float> = inside ? SIMD3(72, 3, 70) : speck ? SIMD3(55, -4, 48) : y >= 45 ? grass : SIMD3(55, 0, 4)
                colours.append(colour + SIMD3(numbers.next() * 6 - 3, numbers.next() * 6 - 3, numbers.next() * 6 - 3))
                disc.append(inside)
                taken.append(isTaken)
                specks.append(speck)
            }
        }
        let guess = disc.indices.map { disc[$0] || taken[$0] }
        return (colours, disc, guess, disc.indices.map { disc[$0] || specks[$0] }, taken)
    }

    func testALawnOfTheObjectsHueThatAFewSpecksSeededIsCutAway() {
        let (colours, disc, guess, seeds, taken) = lawn()
        let object = ObjectCut.segment(colours: colours, guess: guess, seeds: seeds, width: 120, height: 90)
        // Of the lawn the guess took, only the specks, which are seeds, stay.
        let kept = taken.indices.filter { taken[$0] && object[$0] }.count
        XCTAssertLessThan(Double(kept), 0.05 * Double(taken.filter { $0 }.count), "the lawn the guess took is ground")
        XCTAssertGreaterThanOrEqual(intersectionOverUnion(object, disc), 0.95)
    }

    func testWithoutSeedsTheCutLearnsTheLawnAsTheObject() {
        // Why the seeds weigh more: learnt from the whole guess, the object's colours are mostly the lawn's.
        let (colours, _, guess, _, taken) = lawn()
        let object = ObjectCut.segment(colours: colours, guess: guess, width: 120, height: 90)
        let kept = taken.indices.filter { taken[$0] && object[$0] }.count
        XCTAssertGreaterThan(Double(kept), 0.5 * Double(taken.filter { $0 }.count))
    }

    func testTheFirstColoursAreLearntFromEverySeedAndOneInFourOfTheRestOfTheGuess() {
        let guess = [true, true, false, true, true, true, true, true, true, true, true]
        let seeds = [false, true, false, false, false, true, false, false, false, false, false]
        // Others in scan order: 0, 3, 4, 6, 7, 8, 9, 10; the 1st and 5th of them join the seeds 1 and 5.
        XCTAssertEqual(ObjectCut.weighted(guess, towards: seeds), [0, 1, 5, 7])
    }

    func testAGuessOfNothingOrEverythingIsLeftAsItIs() {
        let (colours, _) = disc()
        let none = [Bool](repeating: false, count: colours.count), all = [Bool](repeating: true, count: colours.count)
        XCTAssertEqual(ObjectCut.segment(colours: colours, guess: none, width: 120, height: 90), none)
        XCTAssertEqual(ObjectCut.segment(colours: colours, guess: all, width: 120, height: 90), all)
    }

    func testEachPixelOfOneGridLooksUpThePixelOfTheOtherUnderItsCentre() {
        // 6 × 4 onto 4 × 3: column centres 0.75, 2.25, 3.75, 5.25 → 0, 2, 3, 5; row centres 0.67, 2, 3.33 → 0, 2, 3.
        XCTAssertEqual(ObjectCut.lookup(from: (6, 4), to: (4, 3)), [0, 2, 3, 5, 12, 14, 15, 17, 18, 20, 21, 23])
        // 2 × 2 onto 4 × 1: the row centre 0.5 of 1 → row 1 of 2 (1.0); column centres 0.25, 0.75, 1.25, 1.75 → 0, 0, 1, 1.
        XCTAssertEqual(ObjectCut.lookup(from: (2, 2), to: (4, 1)), [2, 2, 3, 3])
        XCTAssertEqual(ObjectCut.lookup(from: (5, 3), to: (5, 3)), Array(0..<15))
    }

    func testThePixelsWithinSomeStepsOfAMarkedOneAreThoseOfTheSquareAroundIt() {
        // A few marked pixels at random, one in a corner, on a grid wider than high.
        let width = 23, height = 11
        var numbers = Numbers(state: 7)
        var marked = (0..<width * height).map { _ in numbers.next() < 0.03 }
        marked[width * height - 1] = true
        for steps in [0, 1, 2, 5, 30] {
            let expected = (0..<width * height).map { index in
                (0..<width * height).contains { other in
                    marked[other] && abs(other % width - index % width) <= steps && abs(other / width - index / width) <= steps
                }
            }
            XCTAssertEqual(ObjectCut.within(steps: steps, of: marked, width: width, height: height), expected, "\(steps) steps")
        }
        let none = [Bool](repeating: false, count: width * height)
        XCTAssertEqual(ObjectCut.within(steps: 3, of: none, width: width, height: height), none)
    }

    func testTheObjectReachesSevenAndAHalfPercentOfTheLongSideBeyondItsGuessAndAtLeastTwoPixels() {
        XCTAssertEqual(ObjectCut.reachSteps(width: 120, height: 90), 9)
        XCTAssertEqual(ObjectCut.reachSteps(width: 192, height: 256), 19)
        XCTAssertEqual(ObjectCut.reachSteps(width: 20, height: 10), 2)
    }
}

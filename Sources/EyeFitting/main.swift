// Fits the eye's judgements from labelled photos and writes them as Swift source
// (Sources/ColourScience/LearnedWeights.swift). Run through scripts/fit-eye; see Docs/Quality.md,
// "Learned weights". Reads only the photos a label folder's split does not keep for checking: the
// `check` half is never opened here.
import ColourScience
import Foundation
import Imaging
import Codecs
import Services

let usage = "usage: EyeFitting PHOTOS OUTPUT.swift LABELS…\n"
let words = Array(CommandLine.arguments.dropFirst())
guard words.count >= 3 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
let photosRoot = words[0], outputPath = words[1], labelFolders = Array(words[2...])

/// The rows of a label file: tab-separated fields, comments and blank lines left out.
func rows(_ path: String) throws -> [[String]] {
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        .map { $0.split(separator: "\t").map(String.init) }
        .filter { $0.count >= 2 }
}

/// One labelled photo of the training photos.
struct LabelledPhoto {
    var path: String
    /// The accent names a person would single out ("none" for none).
    var accents: Set<String>
    /// worthy, maybe, no, chart, busy; nil where the folder does not say.
    var inspiration: String?
}

/// The training photos, by path, and a line per label folder saying what was taken from it.
func trainingPhotos() throws -> ([LabelledPhoto], [String]) {
    var training: [LabelledPhoto] = []
    var sources: [String] = []
    for folder in labelFolders {
        let split = Dictionary(try rows(folder + "/split.tsv").map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        let inspiration = Dictionary(try rows(folder + "/inspire.tsv").map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        let accents = try rows(folder + "/accent.tsv")
        // Never the check half: a folder without a split is all for development; in one with a split, only
        // the photos it marks `tune` (one it does not list is not taken).
        let kept = accents.filter { split.isEmpty || split[$0[0]] == "tune" }
        for row in kept {
            training.append(LabelledPhoto(path: row[0], accents: Set(row[1].split(separator: ",").map(String.init)),
                                          inspiration: inspiration[row[0]]))
        }
        let name = (folder as NSString).lastPathComponent
        sources.append("\(name)/accent.tsv" + (split.isEmpty ? "" : " (the `tune` rows of split.tsv)") + ": \(kept.count) photos")
    }
    return (training.sorted { $0.path < $1.path }, sources)
}
let (training, sources) = try trainingPhotos()

/// The photos the inspiration model learns from, with their worth (worthy 1, maybe ½, anything else 0):
/// every photo of a labelled photo folder whose label folder has no split (an unlisted photo is no
/// splash picture), and the `tune` rows of one that has.
func inspirationPhotos() throws -> [(path: String, worth: Double)] {
    var photos: [String: Double] = [:]
    func worth(_ label: String?) -> Double { label == "worthy" ? 1 : (label == "maybe" ? 0.5 : 0) }
    // Photos some folder's split keeps for checking are never read, wherever they lie.
    let forChecking = Set(try labelFolders.flatMap { try rows($0 + "/split.tsv") }.filter { $0[1] != "tune" }.map { $0[0] })
    for folder in labelFolders {
        let split = Dictionary(try rows(folder + "/split.tsv").map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        let labels = Dictionary(try rows(folder + "/inspire.tsv").map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
        if split.isEmpty {
            let roots = Set(try rows(folder + "/accent.tsv").map { String($0[0].split(separator: "/")[0]) })
            for root in roots {
                let enumerator = FileManager.default.enumerator(atPath: (photosRoot as NSString).appendingPathComponent(root))
                while let file = enumerator?.nextObject() as? String {
                    guard ["jpg", "jpeg", "png"].contains((file as NSString).pathExtension.lowercased()) else { continue }
                    let relative = root + "/" + file
                    if !forChecking.contains(relative) { photos[relative] = worth(labels[relative]) }
                }
            }
        } else {
            for (path, half) in split where half == "tune" { photos[path] = worth(labels[path]) }
        }
    }
    return photos.keys.sorted().map { ($0, photos[$0]!) }
}

// MARK: Measuring

let inspector = PhotoInspector(fileSystem: LocalFileSystem(), decoder: ImageCodec(), exifReader: LibExifReader())
let analyser = ColourAnalyser()

/// One candidate colour of a training photo.
struct CandidateRow {
    var photo: Int
    var lab: Lab
    var features: AccentFeatures
}

/// The candidate's name under the name boundaries `names`.
func name(_ row: CandidateRow, _ names: ColourName.NameBoundaries) -> String {
    ColourName.nearest(to: row.lab, boundaries: names).rawValue
}

let inspirationSet = try inspirationPhotos()
/// The decode import makes (PhotoInspector) of each photo the fit reads, training and inspiration
/// photos alike, once.
let decoded = try Dictionary(uniqueKeysWithValues: Set(training.map(\.path) + inspirationSet.map(\.path)).sorted().map { relative in
    let path = (photosRoot as NSString).appendingPathComponent(relative)
    return (relative, try inspector.analysisDecode(of: try Data(contentsOf: URL(fileURLWithPath: path)), path: path))
})
/// Each training photo's candidate colours and scene, measured on the raster the analyser measures.
let measured = training.map { photo -> (candidates: [(accent: Accent, features: AccentFeatures)], scene: SceneFeatures) in
    let raster = LabRaster(decoded[photo.path]!.image, longSide: analyser.rasterLongSide)
    let measured = analyser.accentFinder.measure(raster)
    return (measured.candidates, measured.scene)
}
let candidates = measured.enumerated().flatMap { index, photo in
    photo.candidates.map { CandidateRow(photo: index, lab: $0.accent.lab, features: $0.features) }
}
let scenes = measured.map(\.scene)
print("measured \(training.count) photos, \(candidates.count) candidate colours")

// MARK: Logistic regression

/// Features standardised to mean 0 and standard deviation 1 (a constant feature keeps scale 1).
func standardisation(_ rows: [[Double]]) -> (means: [Double], scales: [Double]) {
    let width = rows[0].count, count = Double(rows.count)
    var means = [Double](repeating: 0, count: width), scales = means
    for column in 0..<width {
        let mean = rows.reduce(0) { $0 + $1[column] } / count
        let variance = rows.reduce(0) { $0 + ($1[column] - mean) * ($1[column] - mean) } / count
        means[column] = mean
        scales[column] = variance > 1e-12 ? variance.squareRoot() : 1
    }
    return (means, scales)
}

/// Weights and bias maximising the log-likelihood less λ/2 ‖w‖² (the bias free), by Newton's method.
/// Targets may be fractions (a "maybe" is half a yes).
func fitLogistic(_ rows: [[Double]], _ targets: [Double], lambda: Double) -> (weights: [Double], bias: Double) {
    let width = rows[0].count + 1
    var theta = [Double](repeating: 0, count: width)   // bias last
    for _ in 0..<100 {
        var gradient = [Double](repeating: 0, count: width)
        var hessian = [[Double]](repeating: [Double](repeating: 0, count: width), count: width)
        for (row, target) in zip(rows, targets) {
            let x = row + [1]
            var z = 0.0
            for index in 0..<width { z += theta[index] * x[index] }
            let p = 1 / (1 + exp(-z))
            let w = max(p * (1 - p), 1e-9)
            for i in 0..<width {
                gradient[i] += (target - p) * x[i]
                for j in 0..<width { hessian[i][j] += w * x[i] * x[j] }
            }
        }
        for i in 0..<(width - 1) {
            gradient[i] -= lambda * theta[i]
            hessian[i][i] += lambda
        }
        let step = solve(hessian, gradient)
        // A fit that diverged writes no weights: it says so and stops.
        guard step.allSatisfy(\.isFinite) else {
            FileHandle.standardError.write(Data("EyeFitting: the logistic regression did not converge (λ \(lambda)); nothing written\n".utf8))
            exit(1)
        }
        for index in 0..<width { theta[index] += step[index] }
        if step.map(abs).max()! < 1e-10 { break }
    }
    return (Array(theta.dropLast()), theta.last!)
}

/// x with A x = b, by Gaussian elimination with partial pivoting.
func solve(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
    var a = matrix, b = vector
    let n = b.count
    for column in 0..<n {
        let pivot = (column..<n).max { abs(a[$0][column]) < abs(a[$1][column]) }!
        a.swapAt(column, pivot)
        b.swapAt(column, pivot)
        for row in (column + 1)..<n {
            let factor = a[row][column] / a[column][column]
            for k in column..<n { a[row][k] -= factor * a[column][k] }
            b[row] -= factor * b[column]
        }
    }
    var x = [Double](repeating: 0, count: n)
    for row in stride(from: n - 1, through: 0, by: -1) {
        var sum = b[row]
        for k in (row + 1)..<n { sum -= a[row][k] * x[k] }
        x[row] = sum / a[row][row]
    }
    return x
}

/// A standardised logistic regression; with `nonNegative`, a feature whose weight comes out below 0 is
/// left out and the rest fitted again, until none is (a term that rises may not lower the judgement).
func model(_ rows: [[Double]], _ targets: [Double], lambda: Double, threshold: Double, features: [String],
           nonNegative: Bool = false) -> LogisticModel {
    let (means, scales) = standardisation(rows)
    var active = Array(rows[0].indices)
    while true {
        let standardised = rows.map { row in active.map { (row[$0] - means[$0]) / scales[$0] } }
        let (fitted, bias) = fitLogistic(standardised, targets, lambda: lambda)
        var weights = [Double](repeating: 0, count: rows[0].count)
        for (position, feature) in active.enumerated() { weights[feature] = fitted[position] }
        let negative = active.filter { weights[$0] < 0 }
        if !nonNegative || negative.isEmpty {
            return LogisticModel(features: features, means: means, scales: scales, weights: weights, bias: bias, threshold: threshold)
        }
        active.removeAll { negative.contains($0) }
    }
}

// MARK: Scenes

// 40 repeats: one repeat's agreement of the whole judgement varies by 1.7 photos of 107 (standard
// deviation over 40, at λ 1 and threshold 0.30), so the mean of 40 is known to about a quarter of a
// photo. With 4 (to the twenty-sixth session) it was known to 0.8 of one, and the models' λ and
// thresholds were chosen among settings apart by less than that (Docs/Quality.md, twenty-seventh session).
let folds = 5, repeats = 40
let lambdas = [0.1, 0.3, 1, 3, 10, 30]
let thresholds = stride(from: 0.2, through: 0.8, by: 0.05).map { ($0 * 100).rounded() / 100 }

/// The held-out photos of each fold of each repeat of the cross-validation: the photos in an order
/// shuffled by a fixed generator (a new order each repeat), every fifth one to a fold. Repeats average
/// out the luck of one split; the generator makes every run the same.
func crossValidationFolds(_ count: Int) -> [Set<Int>] {
    var state: UInt64 = 20_251_125
    func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
    var result: [Set<Int>] = []
    for _ in 0..<repeats {
        var order = Array(0..<count)
        for index in stride(from: count - 1, to: 0, by: -1) { order.swapAt(index, Int(next() % UInt64(index + 1))) }
        for fold in 0..<folds { result.append(Set(order.indices.filter { $0 % folds == fold }.map { order[$0] })) }
    }
    return result
}
let heldOut = crossValidationFolds(training.count)

/// A scene model fitted on `photos` for the inspiration label `label` (`chart`, `busy`).
func sceneModel(_ label: String, photos: [Int], lambda: Double, threshold: Double) -> LogisticModel {
    model(photos.map { scenes[$0].vector }, photos.map { training[$0].inspiration == label ? 1 : 0 }, lambda: lambda,
          threshold: threshold, features: SceneFeatures.names)
}

/// λ and threshold of the scene model for `label`, by the photos cross-validation judges wrongly.
func chooseScene(_ label: String) -> (lambda: Double, threshold: Double) {
    print("\n## Scene \(label): \(folds)-fold cross-validation, \(repeats) times (photos judged wrongly, of \(training.count) × \(repeats); \(training.filter { $0.inspiration == label }.count) are)")
    var best: (lambda: Double, threshold: Double, wrong: Int)?
    for lambda in lambdas {
        var wrongAt = [Int](repeating: 0, count: thresholds.count)
        for held in heldOut {
            var fitted = sceneModel(label, photos: training.indices.filter { !held.contains($0) }, lambda: lambda, threshold: 0.5)
            for photo in held.sorted() {
                for (index, threshold) in thresholds.enumerated() {
                    fitted.threshold = threshold
                    if (fitted.probability(scenes[photo].vector) >= threshold) != (training[photo].inspiration == label) { wrongAt[index] += 1 }
                }
            }
        }
        print(String(format: "λ %5.1f: ", lambda) + zip(thresholds, wrongAt).map { String(format: "%.2f→%d", $0, $1) }.joined(separator: " "))
        for (threshold, wrong) in zip(thresholds, wrongAt) where best == nil || better(wrong, lambda, threshold, than: best!) {
            best = (lambda, threshold, wrong)
        }
    }
    return (best!.lambda, best!.threshold)
}

/// Fewer wrong; on a tie the stronger regularisation, then the threshold nearer a half.
func better(_ wrong: Int, _ lambda: Double, _ threshold: Double, than best: (lambda: Double, threshold: Double, wrong: Int)) -> Bool {
    if wrong != best.wrong { return wrong < best.wrong }
    if lambda != best.lambda { return lambda > best.lambda }
    return abs(threshold - 0.5) < abs(best.threshold - 0.5)
}

let chartChoice = chooseScene("chart"), busyChoice = chooseScene("busy")

// MARK: The accent model

/// The accent model learns from photos of ordinary scenes: a colour target's or a busy scene's
/// candidates are no one's accent, and the scene models say "none" for them.
func accentTarget(_ row: CandidateRow, _ names: ColourName.NameBoundaries) -> Double { training[row.photo].accents.contains(name(row, names)) ? 1 : 0 }
func ordinary(_ photo: Int) -> Bool { !["chart", "busy"].contains(training[photo].inspiration ?? "") }

func accentModel(photos: Set<Int>, lambda: Double, threshold: Double, names: ColourName.NameBoundaries) -> LogisticModel {
    let rows = candidates.filter { photos.contains($0.photo) && ordinary($0.photo) }
    return model(rows.map(\.features.vector), rows.map { accentTarget($0, names) }, lambda: lambda, threshold: threshold,
                 features: AccentFeatures.names)
}

/// The accent the whole judgement gives `photo`: its most likely candidate when the product's rule
/// (`AccentFinder.isAccent`) says it is the accent, else none.
func accent(_ photo: Int, _ accentModel: LogisticModel, _ scene: SceneModels, _ names: ColourName.NameBoundaries) -> String {
    let best = candidates.filter { $0.photo == photo }.map { ($0, accentModel.probability($0.features.vector)) }.max { $0.1 < $1.1 }
    guard let (candidate, probability) = best, AccentFinder.isAccent(probability: probability, coverage: candidate.features.coverage,
                                                                      threshold: accentModel.threshold, scene: scene.kind(scenes[photo]))
    else { return "none" }
    return name(candidate, names)
}

/// Each fold's scene models, fitted on the photos it does not hold out.
let foldScenes = heldOut.map { held -> SceneModels in
    let fitted = training.indices.filter { !held.contains($0) }
    return SceneModels(colourTarget: sceneModel("chart", photos: fitted, lambda: chartChoice.lambda, threshold: chartChoice.threshold),
                       busy: sceneModel("busy", photos: fitted, lambda: busyChoice.lambda, threshold: busyChoice.threshold))
}

/// How the whole judgement does in cross-validation with the accent model's `lambda` and the names'
/// `boundaries`: photos agreeing (of the photos × repeats) at each threshold.
func crossValidated(lambda: Double, boundaries: ColourName.NameBoundaries) -> [Int] {
    var agreedAt = [Int](repeating: 0, count: thresholds.count)
    for (held, scene) in zip(heldOut, foldScenes) {
        var fitModel = accentModel(photos: Set(training.indices).subtracting(held), lambda: lambda, threshold: 0.5, names: boundaries)
        for photo in held.sorted() {
            for (index, threshold) in thresholds.enumerated() {
                fitModel.threshold = threshold
                if training[photo].accents.contains(accent(photo, fitModel, scene, boundaries)) { agreedAt[index] += 1 }
            }
        }
    }
    return agreedAt
}

/// The name boundaries tried. Brown is dark and dull, and shade leaves an orange's hue, but how dull and
/// which hue is for the labels to say: a tie keeps the earlier, so among boundaries the labels cannot
/// tell apart the duller brown wins (the issue's definition of brown), and the hue rule goes in only
/// where it agrees with more photos than the nearest reference alone. No limit is tried under C* 50:
/// below it lie the browns everyday names call brown (saddle brown C* 47, sienna 45, the focal brown 36).
var nameChoices: [ColourName.NameBoundaries] = []
for brown in [50.0, 60, .infinity] {
    nameChoices.append(ColourName.NameBoundaries(brownMaximumChroma: brown))
    for redOrange in [42.0, 46, 50, 54] {
        for orangeYellow in [72.0, 76, 80] {
            nameChoices.append(ColourName.NameBoundaries(brownMaximumChroma: brown, redOrangeHue: redOrange, orangeYellowHue: orangeYellow))
        }
    }
}
/// Then, with those chosen, where yellow ends and green begins: shade dulls a yellow to olive but leaves
/// its hue, where the nearest reference may call it green. None (the nearest reference decides) is kept
/// unless a limit agrees with more photos. No limit is tried under h 110: sRGB's yellow primary and olive
/// lie at h 103, and a nearer limit would call a yellow a few degrees greener than the primary green.
let yellowGreenLimits = [110.0, 115, 120]
func describe(_ names: ColourName.NameBoundaries) -> String {
    String(format: "brown under C* %.0f", names.brownMaximumChroma)
        + (names.redOrangeHue.map { String(format: ", orange from h %.0f", $0) } ?? "")
        + (names.orangeYellowHue.map { String(format: ", yellow from h %.0f", $0) } ?? "")
        + (names.yellowGreenHue.map { String(format: ", green from h %.0f", $0) } ?? "")
}
print("\n## Names: the whole judgement cross-validated with λ 1 at its best threshold (photos agreeing, of \(training.count) × \(repeats))")
/// The best of `best` and `choices`: the one with which the most photos agree, on a tie the earlier.
func bestOf(_ choices: [ColourName.NameBoundaries], after best: (names: ColourName.NameBoundaries, agreed: Int)?)
    -> (names: ColourName.NameBoundaries, agreed: Int) {
    var best = best
    for names in choices {
        let agreed = crossValidated(lambda: 1, boundaries: names).max()!
        print("\(describe(names)): \(agreed)")
        if best == nil || agreed > best!.agreed { best = (names, agreed) }
    }
    return best!
}
var bestNames = bestOf(nameChoices, after: nil)
bestNames = bestOf(yellowGreenLimits.map { limit in
    var names = bestNames.names
    names.yellowGreenHue = limit
    return names
}, after: bestNames)
print("chosen: \(describe(bestNames.names))")

print("\n## Accent: \(folds)-fold cross-validation of the whole judgement, \(repeats) times (photos agreeing, of \(training.count) × \(repeats))")
var best: (lambda: Double, threshold: Double, wrong: Int)?
for lambda in lambdas {
    let agreedAt = crossValidated(lambda: lambda, boundaries: bestNames.names)
    print(String(format: "λ %5.1f: ", lambda) + zip(thresholds, agreedAt).map { String(format: "%.2f→%d", $0, $1) }.joined(separator: " "))
    for (threshold, agreed) in zip(thresholds, agreedAt) where best == nil || better(training.count * repeats - agreed, lambda, threshold, than: best!) {
        best = (lambda, threshold, training.count * repeats - agreed)
    }
}
let chosen = (lambda: best!.lambda, threshold: best!.threshold, agreed: Double(training.count * repeats - best!.wrong) / Double(repeats),
              names: bestNames.names)
let everyPhoto = Array(training.indices)
let finalAccent = accentModel(photos: Set(everyPhoto), lambda: chosen.lambda, threshold: chosen.threshold, names: chosen.names)
let finalScenes = SceneModels(colourTarget: sceneModel("chart", photos: everyPhoto, lambda: chartChoice.lambda, threshold: chartChoice.threshold),
                              busy: sceneModel("busy", photos: everyPhoto, lambda: busyChoice.lambda, threshold: busyChoice.threshold))
let trainingAgreement = training.indices.filter { training[$0].accents.contains(accent($0, finalAccent, finalScenes, chosen.names)) }.count
print(String(format: "chosen: λ %.1f, threshold %.2f: cross-validated %.1f of %d; fitted on all, %d of %d", chosen.lambda, chosen.threshold, chosen.agreed, training.count, trainingAgreement, training.count))

// MARK: The inspiration model

var judging = ColourAnalyser()
judging.accentFinder.model = finalAccent
judging.accentFinder.sceneModels = finalScenes
struct Potential {
    var path: String
    var worth: Double
    var features: [Double]
    /// Photographic × resolution, the gates the score is multiplied by.
    var gates: Double

    func score(_ model: LogisticModel) -> Double { model.probability(features) * gates }
}
/// The splash potential of every inspiration photo with an accent, by the models just fitted. A colour
/// target or a busy scene has none; its most salient colour stands in for one, so that the model learns
/// what such a scene is worth from the scenes the scene models catch, for those they miss.
let potentials = inspirationSet.compactMap { photo -> Potential? in
    let image = decoded[photo.path]!
    var colours = judging.analyse(image.image)
    if colours.accent == nil && colours.scene != .ordinary { colours.accent = colours.candidates.first }
    guard let potential = SplashPotential(colours, pixelSize: image.originalSize) else { return nil }
    return Potential(path: photo.path, worth: photo.worth, features: potential.features, gates: potential.photographic * potential.resolution)
}
let worthy = potentials.filter { $0.worth == 1 }.count, maybe = potentials.filter { $0.worth == 0.5 }.count
print("\n## Inspiration: \(potentials.count) photos with an accent or a scene's stand-in (\(worthy) worthy, \(maybe) maybe); \(folds)-fold cross-validated deviance")
var bestInspiration: (lambda: Double, deviance: Double)?
for lambda in lambdas {
    var deviance = 0.0
    for held in crossValidationFolds(potentials.count) {
        let fitted = potentials.indices.filter { !held.contains($0) }
        let fitModel = model(fitted.map { potentials[$0].features }, fitted.map { potentials[$0].worth }, lambda: lambda, threshold: 0.5,
                             features: SplashPotential.featureNames, nonNegative: true)
        for index in held.sorted() {
            let p = min(max(fitModel.probability(potentials[index].features), 1e-9), 1 - 1e-9), y = potentials[index].worth
            deviance -= 2 * (y * log(p) + (1 - y) * log(1 - p))
        }
    }
    print(String(format: "λ %5.1f: deviance %.2f", lambda, deviance))
    if bestInspiration == nil || deviance < bestInspiration!.deviance - 1e-9 { bestInspiration = (lambda, deviance) }
}
let inspirationModel = model(potentials.map(\.features), potentials.map(\.worth), lambda: bestInspiration!.lambda, threshold: 0.5,
                             features: SplashPotential.featureNames, nonNegative: true)
let ranked = potentials.sorted { ($0.score(inspirationModel), $1.path) > ($1.score(inspirationModel), $0.path) }
let precisionAt10 = ranked.prefix(10).reduce(0) { $0 + $1.worth } / 10
print(String(format: "chosen: λ %.1f; fitted on all, precision@10 over these photos %.2f", bestInspiration!.lambda, precisionAt10))

// MARK: Writing the source file

func literal(_ values: [Double]) -> String { "[" + values.map { String(format: "%.6f", $0) }.joined(separator: ", ") + "]" }

func source(_ name: String, _ model: LogisticModel, names: String, summary: String) -> String {
    """
        /// \(summary)
        public static let \(name) = LogisticModel(
            features: \(names),
            means: \(literal(model.means)),
            scales: \(literal(model.scales)),
            weights: \(literal(model.weights)),
            bias: \(String(format: "%.6f", model.bias)), threshold: \(String(format: "%.2f", model.threshold)))

    """
}

// The label folders by name, not by where they lie: the same labels give the same file, wherever they are.
let folderNames = labelFolders.map { ((($0 as NSString).standardizingPath) as NSString).lastPathComponent }
var text = """
    // Generated by `scripts/fit-eye PHOTOS LABELS…` from the label folders \(folderNames.joined(separator: ", ")): do not edit;
    // run it again (Docs/Quality.md, "Learned weights").
    // Fitted on \(sources.joined(separator: "; ")).
    // Standardised logistic regressions with an L2 penalty; λ and the thresholds chosen by \(folds)-fold cross-validation
    // repeated \(repeats) times (the inspiration model's λ by its deviance, its weights held at 0 or more).

    public enum LearnedWeights {

    """
text += source("colourTarget", finalScenes.colourTarget, names: "SceneFeatures.names",
               summary: String(format: "Is this photo a colour target (λ %.1f).", chartChoice.lambda))
text += source("busyScene", finalScenes.busy, names: "SceneFeatures.names",
               summary: String(format: "Is this photo a busy scene (λ %.1f).", busyChoice.lambda))
text += source("accent", finalAccent, names: "AccentFeatures.names",
               summary: String(format: "Is this candidate the accent a person would pick (λ %.1f; cross-validated %.1f of %d photos agree).",
                               chosen.lambda, chosen.agreed, training.count))
text += source("inspiration", inspirationModel, names: "SplashPotential.featureNames",
               summary: String(format: "Is this photo worth a splash: worthy 1, maybe ½, else 0 (λ %.1f; its probability × 100 is the inspiration score).",
                               bestInspiration!.lambda))
func optional(_ value: Double?) -> String { value.map { String(format: "%.1f", $0) } ?? "nil" }
let brownText = chosen.names.brownMaximumChroma.isFinite ? String(format: "%.1f", chosen.names.brownMaximumChroma) : ".infinity"
text += """
        /// Where brown ends and red, orange, yellow and green meet (`ColourName.nearest`): the boundaries tried that
        /// the cross-validation liked best (\(describe(chosen.names))).
        public static let nameBoundaries = ColourName.NameBoundaries(
            brownMaximumChroma: \(brownText), redOrangeHue: \(optional(chosen.names.redOrangeHue)), orangeYellowHue: \(optional(chosen.names.orangeYellowHue)),
            yellowGreenHue: \(optional(chosen.names.yellowGreenHue)))

    """
text += "}\n"
try text.write(toFile: outputPath, atomically: true, encoding: .utf8)
print("wrote \(outputPath)")

// MARK: What the candidates allow

let reachable = training.indices.filter { photo in
    training[photo].accents.contains("none") || candidates.contains { $0.photo == photo && training[photo].accents.contains(name($0, chosen.names)) }
}
print("\nphotos whose labelled accent is among their candidates (or none): \(reachable.count) of \(training.count)")

// MARK: How the judgement grows with labels

/// The whole judgement, cross-validated as above with the chosen λ, thresholds and names, but each fold's
/// models fitted on only a share of the photos it may learn from (a fresh shuffle for each fold, by a fixed
/// generator). Where agreement still climbs at the full share, more labelled photos would raise it: what
/// limits the eye is then its labels as much as its features (Docs/Quality.md, thirty-sixth session).
print("\n## Learning curve: the whole judgement with each fold's models fitted on a share of its photos (photos agreeing, of \(training.count) × \(repeats))")
do {
    var shuffleState: UInt64 = 20_261_129
    func nextShuffle() -> UInt64 {
        shuffleState = shuffleState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return shuffleState >> 33
    }
    for share in [0.3, 0.5, 0.7, 0.9, 1.0] {
        var agreed = 0, busyAgreed = 0, busyHeld = 0, scenesWrong = 0
        for held in heldOut {
            var pool = training.indices.filter { !held.contains($0) }
            for index in stride(from: pool.count - 1, to: 0, by: -1) { pool.swapAt(index, Int(nextShuffle() % UInt64(index + 1))) }
            let learning = Array(pool.prefix(Int((Double(pool.count) * share).rounded())))
            let scene = SceneModels(colourTarget: sceneModel("chart", photos: learning, lambda: chartChoice.lambda, threshold: chartChoice.threshold),
                                    busy: sceneModel("busy", photos: learning, lambda: busyChoice.lambda, threshold: busyChoice.threshold))
            let fitModel = accentModel(photos: Set(learning), lambda: chosen.lambda, threshold: chosen.threshold, names: chosen.names)
            for photo in held {
                let agrees = training[photo].accents.contains(accent(photo, fitModel, scene, chosen.names))
                if agrees { agreed += 1 }
                if training[photo].inspiration == "busy" {
                    busyHeld += 1
                    if agrees { busyAgreed += 1 }
                }
                let labelled: SceneKind = training[photo].inspiration == "busy" ? .busy : (training[photo].inspiration == "chart" ? .colourTarget : .ordinary)
                if scene.kind(scenes[photo]) != labelled { scenesWrong += 1 }
            }
        }
        let photos = Int((Double(training.count - training.count / folds) * share).rounded())
        print(String(format: "%3.0f%% (about %d photos): %.1f agree (%.1f%%), of the busy scenes %.0f%%; scenes judged wrongly %.1f a repeat", share * 100, photos,
                     Double(agreed) / Double(repeats), 100 * Double(agreed) / Double(training.count * repeats),
                     100 * Double(busyAgreed) / Double(max(busyHeld, 1)), Double(scenesWrong) / Double(repeats)))
    }
}

if ProcessInfo.processInfo.environment["SHOWHIDE_FIT_VERBOSE"] == "1" {
    for photo in training.indices {
        let own = candidates.filter { $0.photo == photo }.map { ($0, finalAccent.probability($0.features.vector)) }.sorted { $0.1 > $1.1 }
        print((training[photo].accents.contains(accent(photo, finalAccent, finalScenes, chosen.names)) ? "OK  " : "MISS") + "  \(training[photo].path) want \(training[photo].accents.sorted().joined(separator: ",")) scene \(finalScenes.kind(scenes[photo]).rawValue): "
              + own.map { String(format: "%@ %.2f (C %.0f L %.0f h %.0f cov %.3f edge %.2f)", name($0.0, chosen.names), $0.1, $0.0.features.chroma,
                                 $0.0.features.lightness, $0.0.features.hue, $0.0.features.coverage, $0.0.features.edgeShare) }.joined(separator: "; "))
    }
    for photo in training.indices {
        let s = scenes[photo]
        print(String(format: "SCENE %-6@ %@ %@ families %d entropy %.2f chroma %.1f mixed %.2f spread %d vivid %d scattered %d lattice %d pieces %d edges %.3f",
                     training[photo].inspiration ?? "-", finalScenes.kind(s).rawValue, training[photo].path, s.hueFamilies, s.hueEntropy,
                     s.meanChroma, s.mixedCells, s.spreadHues, s.vividRegions, s.scatteredFamilies, s.latticePatches, s.chromaticPieces, s.edgeDensity))
    }
    // How each scene model judges the photos it did not learn from: the mean of a photo's probabilities over
    // the repeats, and how many repeats put it past the threshold. The photos so labelled, and any other
    // that some repeat judged so.
    for (label, model) in [("chart", \SceneModels.colourTarget), ("busy", \SceneModels.busy)] {
        var sum = [Double](repeating: 0, count: training.count), past = [Int](repeating: 0, count: training.count)
        for (held, scene) in zip(heldOut, foldScenes) {
            for photo in held {
                let probability = scene[keyPath: model].probability(scenes[photo].vector)
                sum[photo] += probability
                if probability >= scene[keyPath: model].threshold { past[photo] += 1 }
            }
        }
        for photo in training.indices.sorted(by: { sum[$0] > sum[$1] }) where training[photo].inspiration == label || past[photo] > 0 {
            print(String(format: "HELD-OUT %@ %.2f, past the threshold %2d of %d: %@ (%@)", label, sum[photo] / Double(repeats), past[photo], repeats,
                         training[photo].path, training[photo].inspiration ?? "-"))
        }
    }
}

// Measures the eye on a labelled set of photos (see Docs/Quality.md): imports the photos into a new
// catalogue through the real services, then reports accent agreement, soft IoU of the show variants
// against hand-made masks, inspiration precision@10 and pale name matches, and writes the pictures
// of a contact sheet. Run through scripts/eval-colour; not part of the tests.
import Catalogue
import CatalogueSQLite
import Codecs
import ColourScience
import Foundation
import Imaging
import Services

struct Arguments {
    var photos: String
    /// Label folders (accent.tsv, inspire.tsv; masks.tsv and split.tsv when they have them).
    var labels: [String]
    var output: String
    var roots: [String]

    init() {
        let words = Array(CommandLine.arguments.dropFirst())
        guard words.count >= 3 else {
            FileHandle.standardError.write(Data("usage: ColourEvaluation PHOTOS LABELS[,LABELS…] OUTPUT [ROOT…]\n".utf8))
            exit(2)
        }
        photos = words[0]
        labels = words[1].split(separator: ",").map(String.init)
        output = words[2]
        roots = words.count > 3 ? Array(words[3...]) : []
    }
}

/// The rows of a label file: tab-separated fields, comments and blank lines left out.
func rows(_ path: String) throws -> [[String]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        .map { $0.split(separator: "\t").map(String.init) }
}

/// Rows of `name` in every label folder that has it.
func labelRows(_ name: String) throws -> [[String]] {
    try arguments.labels.flatMap { folder -> [[String]] in
        let path = (folder as NSString).appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: path) ? try rows(path).map { $0 + [folder] } : []
    }
}

// `ColourEvaluation --seams ORIGINAL SHOW [MAP.png]`: the seams of one show picture against its original, for looking
// into one photo; MAP.png is its kept map (white kept, black grey, blue where the original has too little colour).
if (4...5).contains(CommandLine.arguments.count) && CommandLine.arguments[1] == "--seams" {
    let pictures = try CommandLine.arguments[2...3].map { path in
        try ImageCodec().decode(try Data(contentsOf: URL(fileURLWithPath: path)), options: DecodeOptions(appliesOrientation: true))
            .image.downscaled(toLongSide: 800)
    }
    let seams = SeamMeasure().seams(original: pictures[0], show: pictures[1])
    for seam in seams {
        print("\(seam.vertical ? "column" : "row") \(seam.position) from \(seam.start), \(seam.length) px")
    }
    print("\(seams.reduce(0) { $0 + $1.length }) px: \(SeamMeasure().isSeamed(seams) ? "seamed" : "no seam")")
    if CommandLine.arguments.count == 5 {
        var bytes: [UInt8] = []
        for (original, show) in zip(pictures[0].pixels, pictures[1].pixels) {
            let chroma = Lab(original).lch.c
            let kept = UInt8(min(max(Lab(show).lch.c / max(chroma, 1e-9), 0), 1) * 255)
            bytes += chroma >= SeamMeasure().minimumChroma ? [kept, kept, kept, 255] : [0, 0, 96, 255]
        }
        let image = try RGBAImage(width: pictures[0].width, height: pictures[0].height, bytes: bytes)
        try ImageCodec().encode(image, as: .png, options: EncodeOptions()).write(to: URL(fileURLWithPath: CommandLine.arguments[4]))
    }
    exit(0)
}

let arguments = Arguments()
/// SHOWHIDE_EVAL_QUICK=1: accents, inspiration and search only, no variants (for tuning).
let quick = ProcessInfo.processInfo.environment["SHOWHIDE_EVAL_QUICK"] == "1"
let fileSystem = LocalFileSystem()
let codec = ImageCodec()
let hasher = CryptoHasher()
let clock = SystemClock()
let library = (arguments.output as NSString).appendingPathComponent("library")
try? FileManager.default.removeItem(atPath: arguments.output)
try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
let catalogue = try SQLiteCatalogue(libraryDirectory: library)
let photosRoot = (arguments.photos as NSString).standardizingPath

func absolute(_ relative: String) -> String { (photosRoot as NSString).appendingPathComponent(relative) }

/// The set a labelled photo belongs to: its half of the split (`tune`, `check`) when its folder has
/// one, else the label folder's name (`colour-dev`).
let groupOf = Dictionary(try labelRows("split.tsv").map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
func group(_ row: [String]) -> String { groupOf[row[0]] ?? (row.last! as NSString).lastPathComponent }
/// The labelled photo folders (the first folder of each labelled path) and the camera folder.
let roots = arguments.roots.isEmpty
    ? Array(Set(try labelRows("accent.tsv").map { String($0[0].split(separator: "/")[0]) })).sorted() + ["cameras"]
    : arguments.roots

let importer = ImportService(fileSystem: fileSystem, decoder: codec, exifReader: LibExifReader(), hasher: hasher,
                             catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner())
let imported = try await importer.importPhotos(from: roots.map(absolute))
print("imported \(imported.imported) photos (\(imported.failed) failures) from \(roots.joined(separator: ", "))")
let photos = try catalogue.photos(matching: PhotoQuery(sort: .name))
let byPath = Dictionary(photos.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
let processing = ProcessingService(fileSystem: fileSystem, decoder: codec, encoder: codec, exifReader: LibExifReader(),
                                   hasher: hasher, catalogue: catalogue, clock: clock, jobRunner: InlineJobRunner(),
                                   libraryDirectory: library)

func photo(_ relative: String) -> CataloguedPhoto {
    guard let photo = byPath[absolute(relative)] else {
        FileHandle.standardError.write(Data("not imported: \(relative)\n".utf8))
        exit(1)
    }
    return photo
}

func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

// MARK: Soft IoU

/// CIELAB chroma of each pixel.
func chromas(_ image: RGBAImage) -> [Double] {
    image.pixels.map { Lab($0).lch.c }
}

/// A full-size upright decode of a file, at 800 px on the long side.
func at800(_ path: String) throws -> RGBAImage {
    try codec.decode(try fileSystem.contents(of: path), options: DecodeOptions(appliesOrientation: true)).image.downscaled(toLongSide: 800)
}

let sheet = (arguments.output as NSString).appendingPathComponent("sheet")
try FileManager.default.createDirectory(atPath: sheet, withIntermediateDirectories: true)

/// The show variant made with `options`, at 800 px; its hide variant is written for the contact sheet.
func variants(of photo: CataloguedPhoto, options: ProcessingOptions, name: String) async throws -> RGBAImage? {
    let summary = try await processing.process([photo], options: options)
    if let failure = summary.failures.first { print("  \(name): \(failure.reason)") }
    var show: RGBAImage?
    for kind in SplashMode.allCases {
        guard let spec = VariantSpec.spec(for: photo, kind: kind, options: options), let variant = try catalogue.variant(spec) else { continue }
        let image = try at800(variant.path)
        try writeThumbnail(image, "\(name)-\(kind == .show ? "2show" : "3hide")")
        if kind == .show { show = image }
    }
    return show
}

/// A picture of a contact sheet, in the folder of its set (`name` is SET/PHOTO-PART).
func writeThumbnail(_ image: RGBAImage, _ name: String) throws {
    let data = try codec.encode(image.downscaled(toLongSide: 320), as: .jpeg, options: EncodeOptions(quality: 85))
    let path = (sheet as NSString).appendingPathComponent(name + ".jpg")
    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try data.write(to: URL(fileURLWithPath: path))
}

/// Σmin(K, M) / Σmax(K, M) over pixels whose original chroma is at least 10, K = chroma(show) / chroma(original).
func softIoU(original: [Double], show: [Double], mask: [Double]) -> Double {
    var intersection = 0.0, union = 0.0
    for index in original.indices where original[index] >= 10 {
        let kept = min(max(show[index] / original[index], 0), 1)
        intersection += min(kept, mask[index])
        union += max(kept, mask[index])
    }
    return union > 0 ? intersection / union : 0
}

let maps = (arguments.output as NSString).appendingPathComponent("maps")
try FileManager.default.createDirectory(atPath: maps, withIntermediateDirectories: true)

/// Where the kept colour and the mask disagree, for looking at: green kept outside the mask, magenta
/// missed inside it, white both, dark grey neither (pixels under chroma 10 darker still).
func writeAgreementMap(original: [Double], show: [Double], mask: [Double], size: PixelSize, _ name: String) throws {
    var image = try RGBAImage(width: size.width, height: size.height, filledWith: .black)
    for index in original.indices {
        let kept = original[index] >= 10 ? min(max(show[index] / original[index], 0), 1) : 0
        let inside = mask[index]
        let both = min(kept, inside), extra = max(0, kept - inside), missed = max(0, inside - kept)
        func byte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value * 255))) }
        let floor = original[index] >= 10 ? 0.25 : 0.1
        image[index % size.width, index / size.width] = RGBA(red: byte(floor + both + missed), green: byte(floor + both + extra),
                                                            blue: byte(floor + both + missed))
    }
    try codec.encode(image, as: .jpeg, options: EncodeOptions(quality: 85))
        .write(to: URL(fileURLWithPath: (maps as NSString).appendingPathComponent(name + ".jpg")))
}

/// Counts of one figure per set, printed as "colour-dev 21/22  tune 60/85  check 55/85".
struct Tally {
    var counts: [String: (hits: Int, total: Int)] = [:]
    mutating func add(_ group: String, _ hit: Bool) {
        counts[group, default: (0, 0)].hits += hit ? 1 : 0
        counts[group, default: (0, 0)].total += 1
    }
    func line(_ label: String) -> String {
        "\(label): " + counts.keys.sorted(by: Tally.order).map { "\($0) \(counts[$0]!.hits)/\(counts[$0]!.total)" }.joined(separator: "  ")
    }
    /// colour-dev before tune before check.
    static func order(_ first: String, _ second: String) -> Bool {
        let rank = ["tune": 1, "check": 2]
        return (rank[first] ?? 0, first) < (rank[second] ?? 0, second)
    }
}

// MARK: Accent agreement

print("\n## Accent")
var agreement = Tally()
let accentRows = try labelRows("accent.tsv")
for row in accentRows {
    let accepted = Set(row[1].split(separator: ",").map(String.init))
    let colours = photo(row[0]).facts.colours
    let got = colours?.accent.map { $0.name.rawValue } ?? "none"
    let ok = accepted.contains(got)
    agreement.add(group(row), ok)
    let detail = colours?.accent.map { "\($0.hex) \(percent($0.coverage))" } ?? ""
    for candidate in colours?.candidates ?? [] {
        print(String(format: "       %-7@ %@ saliency %.3f coverage %5.2f%% contrast %4.1f compact %.2f regions %d texture %.1f",
                     candidate.name.rawValue, candidate.hex, candidate.saliency, candidate.coverage * 100, candidate.contrast,
                     candidate.compactness, candidate.regions, candidate.texture))
    }
    print("\(ok ? "ok  " : "MISS") \(group(row).padding(toLength: 10, withPad: " ", startingAt: 0)) \(row[0].padding(toLength: 40, withPad: " ", startingAt: 0)) \(got.padding(toLength: 7, withPad: " ", startingAt: 0)) \(detail.padding(toLength: 16, withPad: " ", startingAt: 0)) want \(row[1])")
}
print(agreement.line("accent agreement"))

// MARK: Show pictures and their seams

/// Every photo of the labelled folders (not the camera folder) is made into show and hide pictures
/// with its own accent, for the contact sheets and the seam count.
print("\n## Show pictures with seams (at 800 px)")
var seamed = Tally()
let seamMeasure = SeamMeasure()
let labelledFolders = Set(accentRows.map { String($0[0].split(separator: "/")[0]) })
let groupByPath = Dictionary(accentRows.map { (absolute($0[0]), group($0)) }, uniquingKeysWith: { first, _ in first })
for (number, subject) in (quick ? [] : photos).enumerated() {
    let relative = String(subject.path.dropFirst(photosRoot.count + 1))
    let folder = String(relative.split(separator: "/")[0])
    guard labelledFolders.contains(folder), subject.facts.colours?.accent != nil else { continue }
    // Labelled photos go to their set's sheet; the development folder's unlabelled photos to a sheet of their own.
    let set = groupByPath[subject.path] ?? folder + "-unlabelled"
    let name = set + "/" + String(format: "a%03d-", number) + ((relative as NSString).lastPathComponent as NSString).deletingPathExtension
    let original = try at800(subject.path)
    try writeThumbnail(original, "\(name)-1original")
    guard let show = try await variants(of: subject, options: ProcessingOptions(), name: name) else { continue }
    let seams = seamMeasure.seams(original: original, show: show)
    let isSeamed = seamMeasure.isSeamed(seams)
    seamed.add(groupByPath[subject.path] ?? folder, isSeamed)
    if isSeamed {
        try writeThumbnail(original, "seamed/\(name.replacingOccurrences(of: "/", with: "-"))-1original")
        try writeThumbnail(show, "seamed/\(name.replacingOccurrences(of: "/", with: "-"))-2show")
        let longest = seams.max { $0.length < $1.length }!
        print("  \(relative.padding(toLength: 40, withPad: " ", startingAt: 0)) \(seams.reduce(0) { $0 + $1.length }) px, longest \(longest.length) px on \(longest.vertical ? "column" : "row") \(longest.position)")
    }
}
if !quick { print(seamed.line("show pictures with seams")) }

print("\n## Splash (soft IoU at 800 px)")
var ownIoUs: [Double] = [], forcedIoUs: [Double] = []
for row in quick ? [] : try labelRows("masks.tsv") {
    let subject = photo(row[0])
    let original = try at800(subject.path)
    let maskImage = try codec.decode(try fileSystem.contents(of: (row.last! as NSString).appendingPathComponent(row[1])),
                                     options: .fullSize).image
    // Masks are drawn at 800 px; a smaller photo is compared with its mask made as small.
    let maskAtSize = maskImage.downscaled(toLongSide: max(original.width, original.height))
    guard maskAtSize.width == original.width, maskAtSize.height == original.height else {
        print("  \(row[0]): mask \(maskImage.width)×\(maskImage.height), photo \(original.width)×\(original.height)")
        continue
    }
    let mask = maskAtSize.pixels.map { Double($0.red) / 255 }
    let name = "masks/" + (row[1] as NSString).lastPathComponent.replacingOccurrences(of: ".png", with: "")
    try writeThumbnail(original, "\(name)-1original")
    // The mask's mean colour, averaged in CIELAB over the pixels it keeps.
    var sum = (l: 0.0, a: 0.0, b: 0.0, n: 0.0)
    for (pixel, weight) in zip(original.pixels, mask) where weight > 0.5 {
        let lab = Lab(pixel)
        sum = (sum.l + lab.l, sum.a + lab.a, sum.b + lab.b, sum.n + 1)
    }
    let meanColour = Lab(l: sum.l / sum.n, a: sum.a / sum.n, b: sum.b / sum.n)
    let originalChromas = chromas(original)
    let size = PixelSize(width: original.width, height: original.height)
    let mapName = (name as NSString).lastPathComponent
    let own = try await variants(of: subject, options: ProcessingOptions(), name: name).map { show -> Double in
        try writeAgreementMap(original: originalChromas, show: chromas(show), mask: mask, size: size, mapName + "-own")
        return softIoU(original: originalChromas, show: chromas(show), mask: mask)
    } ?? 0
    let forced = try await variants(of: subject, options: ProcessingOptions(target: .colour(meanColour)), name: name + "-forced").map {
        show -> Double in
        try writeAgreementMap(original: originalChromas, show: chromas(show), mask: mask, size: size, mapName + "-forced")
        return softIoU(original: originalChromas, show: chromas(show), mask: mask)
    } ?? 0
    ownIoUs.append(own)
    forcedIoUs.append(forced)
    // Three places: changes that leave the pictures alike to the eye move a photo by a hundredth or two.
    print("  \(row[0].padding(toLength: 32, withPad: " ", startingAt: 0)) own \(String(format: "%.3f", own))  forced \(String(format: "%.3f", forced)) (\(meanColour.hex), \(row[2]))")
}
func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }
print(String(format: "mean soft IoU: own accent %.3f, forced colour %.3f", mean(ownIoUs), mean(forcedIoUs)))

// MARK: Inspiration

print("\n## Inspiration (top 20)")
/// worthy 1, maybe 0.5; no, chart and busy 0 (as an unlisted photo).
let label = Dictionary(try labelRows("inspire.tsv").map { (absolute($0[0]), $0[1]) }, uniquingKeysWith: { first, _ in first })
func worth(_ path: String) -> Double { label[path] == "worthy" ? 1 : (label[path] == "maybe" ? 0.5 : 0) }
let everyRank = InspirationService.rank(photos)
let ranked = everyRank.prefix(20)
for entry in ranked {
    let relative = String(entry.photo.path.dropFirst(photosRoot.count + 1))
    print(String(format: "%2d %5.1f %-6@ %@  %@ (texture %.1f)", entry.rank, entry.potential.score, label[entry.photo.path] ?? "-", relative,
                 entry.potential.reason, entry.photo.facts.colours?.accent?.texture ?? 0))
}
let unwanted = ranked.filter { ["chart", "busy"].contains(label[$0.photo.path]) }.count
// Where the labelled photos outside the top 20 stand, with the score's terms, to see what holds them back.
print("worthy and maybe photos below the top 20: rank, score, then vividness size focus contrast calm photographic standout change resolution")
for entry in everyRank.dropFirst(20) where worth(entry.photo.path) > 0 {
    let terms = entry.potential
    let values = [terms.vividness, terms.size, terms.focus, terms.contrast, terms.calm, terms.photographic, terms.standout, terms.change,
                  terms.resolution].map { String(format: "%.2f", $0) }.joined(separator: " ")
    print(String(format: "%3d %5.1f %-6@ %@  ", entry.rank, terms.score, label[entry.photo.path]!,
                 String(entry.photo.path.dropFirst(photosRoot.count + 1))) + values)
}
for path in label.keys.sorted() where worth(path) > 0 && !everyRank.contains(where: { $0.photo.path == path }) {
    print("  -     -  \(label[path]!.padding(toLength: 6, withPad: " ", startingAt: 0)) \(path.dropFirst(photosRoot.count + 1))  (no accent worth splashing)")
}
let precision = ranked.prefix(10).reduce(0.0) { $0 + worth($1.photo.path) } / 10
print(String(format: "inspiration precision@10: %.2f; charts and busy scenes in the top 20: %d", precision, unwanted))

// MARK: Pale matches

print("\n## Name search (top 5)")
var pale = 0
for name: ColourName in [.red, .orange, .yellow, .green, .blue, .purple, .pink] {
    let matches = try catalogue.search(ColourSearch(target: .name(name), filters: PhotoQuery(limit: 5)))
    let listed = matches.map { match -> String in
        let chroma = match.matchedLab.lch.c
        if chroma < 30 { pale += 1 }
        return "\((match.photo.path as NSString).lastPathComponent) \(match.matchedLab.hex) C*\(Int(chroma))\(chroma < 30 ? " PALE" : "")"
    }
    print("  \(name.rawValue): \(listed.joined(separator: "; "))")
}
print("pale matches: \(pale)")
func figures(_ tally: Tally) -> String {
    tally.counts.keys.sorted(by: Tally.order).map { "\($0) \(tally.counts[$0]!.hits)/\(tally.counts[$0]!.total)" }.joined(separator: " ")
}
print("\nSUMMARY accent \(figures(agreement))  iou-own \(String(format: "%.2f", mean(ownIoUs)))  iou-forced \(String(format: "%.2f", mean(forcedIoUs)))  p@10 \(String(format: "%.2f", precision))  charts/busy-top20 \(unwanted)  pale \(pale)\(quick ? "" : "  seams \(figures(seamed))")")

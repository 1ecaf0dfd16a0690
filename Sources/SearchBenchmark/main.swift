import Catalogue
import CatalogueSQLite
import ColourScience
import Foundation
import Imaging

// Generates a synthetic catalogue through the repository layer and times colour searches on it.
// Usage: SearchBenchmark [PHOTOS] [FOLDER]   (scripts/bench runs it in release mode)

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1].replacingOccurrences(of: "_", with: "")) ?? 1_000_000 : 1_000_000
// The analyses' rules version is in the folder's name: a catalogue kept from earlier rules would have
// every photo left out of searches, and be generated again over its own rows.
let folder = arguments.count > 2 ? arguments[2]
    : FileManager.default.temporaryDirectory.appendingPathComponent("showhide-search-bench-\(count)-rules\(ColourAnalysis.rulesVersion)").path

/// Deterministic random numbers, so every run builds the same catalogue.
struct Generator {
    var state: UInt64 = 0x5EED
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
    mutating func next(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * next() }
}

/// A photo-like analysis: mostly dull colours, sometimes a vivid accent.
func syntheticColours(_ generator: inout Generator) -> ColourAnalysis {
    var palette: [PaletteEntry] = []
    var remaining = 1.0
    let entries = 4 + Int(generator.next() * 5)
    for index in 0..<entries {
        let vivid = index > 0 && generator.next() < 0.25
        let lch = LCh(l: generator.next(5...95), c: vivid ? generator.next(35...90) : generator.next(0...25), h: generator.next(0...359.9))
        let lab = lch.lab
        let weight = index == entries - 1 ? remaining : remaining * generator.next(0.2...0.6)
        remaining -= weight
        palette.append(PaletteEntry(lab: lab, weight: weight, name: ColourName.nearest(to: lab)))
    }
    palette.sort { $0.weight > $1.weight }
    let accent = palette.filter { $0.lab.lch.c >= 20 }.max { $0.lab.lch.c < $1.lab.lch.c }.map {
        Accent(lab: $0.lab, hue: $0.lab.lch.h, coverage: $0.weight, name: $0.name)
    }
    return ColourAnalysis(palette: palette, accent: accent)
}

func seconds(_ work: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try work()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func peakMemoryMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}

let catalogue = try SQLiteCatalogue(libraryDirectory: folder)
let existing = try catalogue.knownStamps().count
if existing < count {
    print("Generating \(count - existing) photos in \(folder) …")
    // A pool of analyses reused round-robin: naming colours is the analyser's cost, not the catalogue's.
    var generator = Generator()
    let pool = (0..<10_007).map { _ in syntheticColours(&generator) }
    let made = try seconds {
        var next = existing
        while next < count {
            let batch = min(20_000, count - next)
            try catalogue.write { writer in
                for index in next..<(next + batch) {
                    let colours = pool[index % pool.count]
                    let sha = String(repeating: "0", count: 48) + String(format: "%016llx", UInt64(index))
                    let exif = ExifMetadata(make: index % 3 == 0 ? "Canon" : "Nikon",
                                            takenAt: ExifDateTime(year: 2000 + index % 25, month: 1 + index % 12, day: 1 + index % 28,
                                                                  hour: 12, minute: 0, second: 0))
                    try writer.insertPhoto(path: "/bench/\(index).jpg", stamp: FileStamp(size: 1, modifiedAtNanoseconds: 1),
                                           facts: PhotoFacts(sha256: sha, format: .jpeg, pixelSize: PixelSize(width: 4000, height: 3000),
                                                             exif: exif, colours: colours),
                                           importedAt: Date(timeIntervalSince1970: 1_700_000_000))
                }
            }
            next += batch
        }
    }
    print(String(format: "Generated in %.1f s (%.0f photos/s)", made, Double(count - existing) / made))
}

let searches: [(String, ColourSearch)] = [
    ("--colour red", ColourSearch(target: .name(.red), filters: PhotoQuery(limit: 20))),
    ("--colour orange --accent", ColourSearch(target: .name(.orange), accentOnly: true, filters: PhotoQuery(limit: 20))),
    ("--colour '#1f5aa6'", ColourSearch(target: .colour(Lab(RGBA(parsing: "#1f5aa6")!)), filters: PhotoQuery(limit: 20))),
    ("--colour '#1f5aa6' --within 8", ColourSearch(target: .colour(Lab(RGBA(parsing: "#1f5aa6")!)), within: 8, filters: PhotoQuery(limit: 20))),
    ("--colour '#1f5aa6' --within 12", ColourSearch(target: .colour(Lab(RGBA(parsing: "#1f5aa6")!)), within: 12, filters: PhotoQuery(limit: 20))),
    ("--colour '#2e8b57'", ColourSearch(target: .colour(Lab(RGBA(parsing: "#2e8b57")!)), filters: PhotoQuery(limit: 20))),
    ("--colour '#e03c28' --accent", ColourSearch(target: .colour(Lab(RGBA(parsing: "#e03c28")!)), accentOnly: true, filters: PhotoQuery(limit: 20))),
    ("--colour green --camera canon --since 2010-01-01", ColourSearch(target: .name(.green),
        filters: PhotoQuery(takenSince: "2010-01-01", camera: "canon", limit: 20))),
]

print("")
print("| search (\(count) photos) | results | median ms | p95 ms |")
print("| --- | ---: | ---: | ---: |")
for (label, search) in searches {
    var results = 0
    _ = try catalogue.search(search) // warm the page cache
    var times: [Double] = []
    for _ in 0..<15 {
        times.append(try seconds { results = try catalogue.search(search).count } * 1000)
    }
    times.sort()
    print(String(format: "| `%@` | %d | %.1f | %.1f |", label, results, times[times.count / 2], times[Int(Double(times.count) * 0.95) - 1]))
}
print(String(format: "\nPeak memory (RSS): %.0f MB", peakMemoryMegabytes()))

import Catalogue
import ColourScience
import Foundation
import Imaging
import Mustache
import Services

/// The gallery's pages, rendered from Mustache templates: every value goes in through `{{…}}`, which
/// escapes `&`, `<`, `>`, `"` and `'`, in text and attributes alike; no page carries a script of its
/// own (`/static/gallery.js` is the only one).
struct GalleryPages: Sendable {
    let library: MustacheLibrary

    init() {
        var library = MustacheLibrary()
        // The templates are constants written here, so they always parse.
        for (name, text) in GalleryTemplates.all { try! library.register(text, named: name) }
        self.library = library
    }

    func render(_ name: String, _ context: [String: Any]) -> String {
        library.render(context, withTemplate: name) ?? ""
    }

    static func frame(title: String, section: String, readOnly: Bool) -> [String: Any] {
        ["title": title, "readOnly": readOnly, "onPhotos": section == "photos", "onInspiration": section == "inspiration"]
    }

    // MARK: The grid

    func grid(_ page: GridPage, query: GridQuery, canExport: Bool = false, readOnly: Bool) -> String {
        var context = Self.frame(title: "Photos", section: "photos", readOnly: readOnly)
        context["canExport"] = canExport
        let selectedName: ColourName? = if case let .name(name) = query.colour { name } else { nil }
        context["swatches"] = ColourName.allCases.map { name -> [String: Any] in
            let selected = name == selectedName
            var changes: [String: String?] = ["colour": selected ? nil : name.rawValue, "page": nil,
                                              "sort": query.sortAsked == .colour && selected ? nil : query.sortAsked?.rawValue]
            // Without a colour, what only a colour can mean goes with it.
            if selected { changes.merge(["accent": nil, "coverage": nil]) { $1 } }
            return ["name": name.rawValue, "hex": name.focalLab.hex, "selected": selected, "href": "/" + query.queryString(changes)]
        }
        context["colourText"] = query.colourText ?? ""
        context["pickerValue"] = query.colour?.lab.hex.lowercased() ?? "#c0392b"
        context["accentOnly"] = query.accentOnly
        context["coverage"] = query.minimumCoverage > 0 ? GridQuery.number(query.minimumCoverage) : ""
        context["since"] = query.since ?? ""
        context["until"] = query.until ?? ""
        context["camera"] = query.camera ?? ""
        context["folder"] = query.folder ?? ""
        context["sorts"] = [("", "newest first, or closest to the colour"), ("date", "date taken"), ("colour", "closest to the colour"),
                            ("inspiration", "inspiration score")].map { value, label in
            ["value": value, "label": label, "selected": (query.sortAsked?.rawValue ?? "") == value]
        }
        context["items"] = page.items.map { item -> [String: Any] in
            var cell: [String: Any] = ["id": item.photo.id, "name": (item.photo.path as NSString).lastPathComponent]
            if let match = item.match {
                cell["dotHex"] = match.matchedLab.hex
                cell["caption"] = "\(match.matchedName.rawValue) \(Self.percent(match.coverage))"
            } else if let accent = item.photo.facts.colours?.accent {
                cell["dotHex"] = accent.hex
                cell["caption"] = "\(accent.name.rawValue) \(Self.percent(accent.coverage))"
            } else {
                cell["caption"] = item.photo.facts.colours.map { Self.sceneCaption($0) } ?? "not analysed"
            }
            if let inspiration = item.inspiration { cell["score"] = String(format: "%.0f", inspiration.potential.score) }
            return cell
        }
        if page.items.isEmpty {
            // Said for what it is: past the last page, a catalogue with no photo, or filters that match none.
            let filtered = query.colour != nil || query.since != nil || query.until != nil || query.camera != nil || query.folder != nil
            if query.page > 1 {
                context["empty"] = "There is no page \(query.page) of these photos."
                context["firstPage"] = "/" + query.queryString(["page": nil])
            } else {
                context["empty"] = filtered ? "No photo matches these filters."
                    : "The catalogue holds no photo yet: showhide gallery import FOLDER imports some."
            }
        }
        context["page"] = query.page
        if query.page > 1 { context["previous"] = "/" + query.queryString(["page": query.page == 2 ? nil : String(query.page - 1)]) }
        if page.hasNextPage { context["next"] = "/" + query.queryString(["page": String(query.page + 1)]) }
        context["apiHref"] = "/api/photos" + query.queryString()
        return render("grid", context)
    }

    static func sceneCaption(_ colours: ColourAnalysis) -> String {
        switch colours.scene {
        case .ordinary: return "no accent"
        default: return colours.scene.rawValue
        }
    }

    /// A palette as swatches: each colour's share of the strip (`flex`) and in words.
    static func palette(_ colours: ColourAnalysis) -> [[String: String]] {
        colours.palette.map {
            ["hex": $0.hex, "name": $0.name.rawValue, "percent": percent($0.weight), "flex": String(format: "%.3f", $0.weight * 100)]
        }
    }

    static func percent(_ share: Double) -> String {
        share < 0.01 ? "<1%" : String(format: "%.0f%%", share * 100)
    }

    // MARK: A photo

    /// The photo's file on disk against the catalogue's record of it.
    enum FileState {
        case asImported, changed, gone
    }

    func photo(_ photo: CataloguedPhoto, splash: SplashQuery = SplashQuery(), fileState: FileState = .asImported, canMakeVariants: Bool = false,
               readOnly: Bool) -> String {
        var context = Self.frame(title: (photo.path as NSString).lastPathComponent, section: "photos", readOnly: readOnly)
        switch fileState {
        case .asImported: break
        case .gone:
            context["fileNote"] = "The photo's file is gone from \(photo.path): nothing can be shown or made of it. "
                + "showhide gallery import its new place, or showhide gallery remove \(photo.id) forgets it."
        case .changed:
            context["fileNote"] = "The photo's file changed since it was imported: the pictures show it as it is now, the colours as it was. "
                + "showhide gallery import its folder analyses it again."
        }
        context["id"] = photo.id
        context["name"] = (photo.path as NSString).lastPathComponent
        context["path"] = photo.path
        context["duplicates"] = photo.duplicatePaths
        context["noVariants"] = photo.variants.isEmpty
        context["madeSets"] = Self.madeSets(of: photo)
        // The live pictures: what the controls' parameters make of the working copy.
        let splashable = fileState != .gone && VariantSpec.splash(for: photo, options: splash.processing()) != nil
        context["fileThere"] = fileState != .gone
        context["splashable"] = splashable
        context["nothingToSplash"] = VariantSpec.nothingToSplash(splash.processing().target, scene: photo.facts.colours?.scene ?? .ordinary)
        let parameters = splash.queryString
        context["splashQuery"] = parameters.isEmpty ? "" : "?" + parameters
        context["canMakeVariants"] = canMakeVariants && splashable
        context["modes"] = SplashMethod.allCases.map { ["value": $0.rawValue, "selected": $0 == splash.method] }
        context["tolerance"] = GridQuery.number(splash.tolerance)
        context["feather"] = GridQuery.number(splash.feather)
        context["minChroma"] = GridQuery.number(splash.minimumChroma)
        // The sliders reach as far as the parameters may go, on the command line too.
        context["degreesMax"] = GridQuery.number(SplashParameters.degreesRange.upperBound)
        context["chromaMax"] = GridQuery.number(SplashParameters.minimumChromaRange.upperBound)
        context["mode"] = splash.method.rawValue
        context["candidate"] = splash.candidate.map(String.init) ?? "accent"
        context["targets"] = [["value": "accent", "label": "the accent", "selected": splash.candidate == nil]]
            + (photo.facts.colours?.candidates ?? []).enumerated().map { index, candidate in
                ["value": String(index + 1), "label": "candidate \(index + 1): \(candidate.name.rawValue) \(candidate.hex)",
                 "selected": splash.candidate == index + 1]
            }
        if let colours = photo.facts.colours {
            context["palette"] = Self.palette(colours)
            if let dominant = colours.dominant { context["dominant"] = ["hex": dominant.hex, "name": dominant.name.rawValue] }
            if let accent = colours.accent {
                context["accent"] = ["hex": accent.hex, "name": accent.name.rawValue, "percent": Self.percent(accent.coverage)]
            }
            context["scene"] = colours.scene == .ordinary || colours.accent != nil ? nil : colours.scene.rawValue
            context["noColourStandsOut"] = colours.scene == .ordinary && colours.accent == nil
            context["subjectChosen"] = colours.subjectChosen
            context["candidates"] = colours.candidates.enumerated().map { index, candidate -> [String: Any] in
                ["rank": index + 1, "hex": candidate.hex, "name": candidate.name.rawValue, "percent": Self.percent(candidate.coverage),
                 "isAccent": colours.accent.map { $0.lab == candidate.lab } ?? false,
                 "why": Self.reasons(candidate)]
            }
        } else {
            context["unanalysed"] = true
        }
        let exif = photo.facts.format.exifWithOrientationLeft(photo.facts.exif ?? ExifMetadata())
        let facts: [(String, String?)] = [
            ("camera", [exif.make, exif.model].compactMap { $0 }.joined(separator: " ").nilWhenEmpty),
            ("lens", exif.lens),
            ("taken", exif.takenAt.map { $0.iso8601.replacingOccurrences(of: "T", with: " ") }),
            ("exposure", exif.exposureTime.map { $0 < 1 ? "1/\(Int((1 / $0).rounded())) s" : String(format: "%g s", $0) }),
            ("aperture", exif.fNumber.map { String(format: "f/%g", $0) }),
            ("ISO", exif.iso.map(String.init)),
            ("focal length", exif.focalLength.map { String(format: "%g mm", $0) }),
            ("pixels", photo.facts.pixelSize.description),
            ("format", photo.facts.format.rawValue.uppercased()),
            ("file size", ByteCountFormatter.string(fromByteCount: photo.stamp.size, countStyle: .file)),
        ]
        context["facts"] = facts.compactMap { label, value in value.map { ["label": label, "value": $0] } }
        context["tags"] = (photo.facts.exif?.allTags ?? [:]).sorted { $0.key < $1.key }.map { ["label": $0.key, "value": $0.value] }
        context["hasTags"] = !(photo.facts.exif?.allTags ?? [:]).isEmpty
        context["hasPalette"] = !(photo.facts.colours?.palette ?? []).isEmpty
        context["hasCandidates"] = !(photo.facts.colours?.candidates ?? []).isEmpty
        context["xmp"] = photo.facts.xmp
        return render("photo", context)
    }

    /// What makes a candidate stand out or not, in words.
    static func reasons(_ candidate: Accent) -> String {
        var parts = [String(format: "covers %@", percent(candidate.coverage)),
                     String(format: "contrast %.0f", candidate.contrast),
                     candidate.regions == 1 ? "one region" : "\(candidate.regions) regions",
                     String(format: "compactness %.2f", candidate.compactness)]
        if candidate.texture > 8 { parts.append("textured") }
        return parts.joined(separator: " · ")
    }

    // MARK: Inspiration

    /// - Parameter gone: how many photos were left out for their files being gone.
    func inspiration(_ entries: [InspirationEntry], query: GridQuery = GridQuery(), gone: Int = 0, readOnly: Bool) -> String {
        var context = Self.frame(title: "Inspiration", section: "inspiration", readOnly: readOnly)
        // The filters the address asked for, said, so that a shared link does not pass for the whole list.
        let filters = [query.colourText.map { "whose accent is \($0)" }, query.since.map { "taken since \($0)" },
                       query.until.map { "taken until \($0)" }, query.camera.map { "from cameras matching “\($0)”" },
                       query.folder.map { "in \($0)" }].compactMap { $0 }
        if !filters.isEmpty { context["filtered"] = filters.joined(separator: ", ") }
        context["entries"] = InspirationService.groupingNearDuplicates(entries).map { group -> [String: Any] in
            let entry = group[0]
            return ["rank": entry.rank, "id": entry.photo.id, "name": (entry.photo.path as NSString).lastPathComponent,
                    "score": String(format: "%.1f", entry.potential.score), "reason": entry.potential.reason,
                    "palette": entry.photo.facts.colours.map(Self.palette) ?? [],
                    "alike": group.dropFirst().map { ["id": $0.photo.id, "rank": $0.rank, "name": ($0.photo.path as NSString).lastPathComponent] },
                    "hasAlike": group.count > 1,
                    "alikeCount": group.count - 1 == 1 ? "1 more shot" : "\(group.count - 1) more shots"]
        }
        // With every file gone (a drive not mounted), that is what is said, not that nothing has an accent.
        context["empty"] = entries.isEmpty && gone == 0
        if gone > 0 {
            context["gone"] = (gone == 1 ? "1 photo whose file is gone is" : "\(gone) photos whose files are gone are")
                + (gone >= InspirationService.mostPassedOver ? " left out, and no more were looked at" : " left out")
        }
        return render("inspiration", context)
    }

    /// The photo's variants as the sets made together, one set of parameters each, the newest first: a
    /// show and a hide link of one set are one pair, whatever was made since with other parameters.
    /// The catalogue gives a photo's variants oldest first.
    static func madeSets(of photo: CataloguedPhoto) -> [[String: Any]] {
        var order: [String] = []
        var sets: [String: [Variant]] = [:]
        for variant in photo.variants.reversed() {
            if sets[variant.parameters] == nil { order.append(variant.parameters) }
            sets[variant.parameters, default: []].append(variant)
        }
        return order.enumerated().map { index, parameters in
            var set: [String: Any] = ["label": VariantSpec.describe(key: parameters), "newest": index == 0]
            for kind in SplashMode.allCases {
                guard let variant = sets[parameters]?.first(where: { $0.kind == kind.rawValue }) else { continue }
                set[kind.rawValue] = "/photos/\(photo.id)/variants/\(kind.rawValue)" + (VariantSpec.parameterSetName(ofFile: variant.path).map { "?set=\($0)" } ?? "")
            }
            return set
        }
    }

    /// A download some of whose ticked photos made no show picture: which, and why, with the others to download.
    /// - Parameter failures: a photo without a path is one no longer in the catalogue: named by its id, unlinked.
    func partialDownload(failures: [(id: PhotoID, path: String?, reason: String)], made: [PhotoID], readOnly: Bool) -> String {
        var context = Self.frame(title: "Not every photo could be downloaded", section: "", readOnly: readOnly)
        context["failures"] = failures.map { failure -> [String: Any] in
            var entry: [String: Any] = ["id": failure.id, "reason": failure.reason]
            if let path = failure.path { entry["name"] = (path as NSString).lastPathComponent }
            return entry
        }
        context["made"] = made.map { ["id": $0] }
        context["madeCount"] = made.count == 1 ? "the other photo's show picture" : "the other \(made.count) photos' show pictures"
        return render("partialDownload", context)
    }

    // MARK: Errors

    /// - Parameter back: where "Back" leads: the page asked for without the parameter it refused, or the photos.
    func error(status: Int, reason: String, message: String, back: String = "/", readOnly: Bool) -> String {
        var context = Self.frame(title: "\(status) \(reason)", section: "", readOnly: readOnly)
        context["status"] = status
        context["reason"] = reason
        context["message"] = message
        context["back"] = back
        context["backLabel"] = back == "/" ? "Back to the photos" : "Back, without that"
        return render("error", context)
    }
}

extension String {
    var nilWhenEmpty: String? { isEmpty ? nil : self }
}

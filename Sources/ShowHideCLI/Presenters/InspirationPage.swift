import Catalogue
import ColourScience
import Foundation
import GalleryJSON
import Imaging
import Mustache
import Services

/// The inspiration list as one web page: works offline (pictures are thumbnails in a folder beside it,
/// linked relatively; the style is inline), and every text that comes from a file — names, EXIF — is
/// escaped by Mustache's `{{…}}` (`&`, `<`, `>`, `"` and `'`), in text and in attributes alike. Each photo
/// links to its original file and to its page in the web gallery, as the gallery's own inspiration does.
enum InspirationPage {
    /// Where `showhide serve` listens unless told otherwise.
    static let defaultGallery = "http://127.0.0.1:8080/"

    /// Refuses a place for the page where writing it would destroy something of the user's: a file
    /// that is not a page of `inspire` (a photo, notes, the catalogue), or a pictures folder holding
    /// files when the page is not there. A page written before is replaced.
    static func checkPlace(page: String, picturesFolder: String, fileSystem: any FileSystem) throws(InspirationPageError) {
        if fileSystem.stamp(of: picturesFolder) != nil { throw .picturesFolderIsAFile(picturesFolder) }
        guard fileSystem.exists(page) else {
            if !fileSystem.walk([picturesFolder]).files.isEmpty { throw .foreignPictures(picturesFolder, page: page) }
            return
        }
        let head = (try? fileSystem.head(of: page, count: InspirationPageFiles.headLength)) ?? Data()
        guard InspirationPageFiles.isPage(head: head) else { throw .notAPage(page) }
    }

    /// The address of `path` (such as "photos/3") in the web gallery at `gallery`: its path under the
    /// gallery's, the gallery's query (an access token, `?token=…`, as `serve` prints it) after it.
    static func link(to path: String, in gallery: String) -> String {
        let end = gallery.firstIndex { $0 == "?" || $0 == "#" } ?? gallery.endIndex
        let base = gallery[..<end].hasSuffix("/") ? String(gallery[..<end]) : gallery[..<end] + "/"
        let query = gallery[end...].first == "?" ? gallery[end...].prefix { $0 != "#" } : ""
        return base + path + query
    }

    /// - Parameter gallery: the web gallery's address, as given.
    static func render(_ entries: [InspirationEntry], pictures: [PhotoID: InspirationImages], generated: Date,
                       gallery: String = defaultGallery) -> String {
        let context: [String: Any] = [
            "title": "Inspiration",
            "subtitle": "\(counted(entries.count, "photo")) whose show and hide pictures would stand out, best first · made "
                + ISO8601.string(generated).prefix(10),
            "gallery": gallery,
            "entries": entries.map { entry(for: $0, images: pictures[$0.photo.id], gallery: gallery) },
        ]
        // The template is a constant written here, so it always parses.
        return try! MustacheTemplate(string: template).render(context)
    }

    static func entry(for entry: InspirationEntry, images: InspirationImages?, gallery: String = defaultGallery) -> [String: Any] {
        let photo = entry.photo
        let exif = photo.facts.exif
        let facts: [(String, String?)] = [
            ("camera", exif?.cameraName),
            ("taken", exif?.takenAt.map { $0.iso8601.replacingOccurrences(of: "T", with: " ").prefix(19).description }),
            ("exposure", exif?.exposureTime.map(PhotoPresenter.exposure)),
            ("aperture", exif?.fNumber.map { "f/" + PhotoPresenter.number($0) }),
            ("ISO", exif?.iso.map(String.init)),
            ("focal length", exif?.focalLength.map { PhotoPresenter.number($0) + " mm" }),
            ("pixels", photo.facts.pixelSize.description),
            ("file", photo.path),
        ]
        var result: [String: Any] = [
            "rank": entry.rank,
            "id": photo.id,
            "name": (photo.path as NSString).lastPathComponent,
            "page": link(to: "photos/\(photo.id)", in: gallery),
            // The original at full size, where the catalogue has it.
            "originalFile": "file://" + url(photo.path),
            "score": String(format: "%.1f", entry.potential.score),
            "reason": entry.potential.reason,
            "palette": (photo.facts.colours?.palette ?? []).map { colour in
                ["hex": colour.hex, "name": colour.name.rawValue, "flex": String(format: "%.2f", colour.weight * 100),
                 "percent": String(format: "%.0f%%", colour.weight * 100)]
            },
            "facts": facts.compactMap { label, value in value.map { ["label": label, "value": $0] } },
        ]
        if let images {
            result["original"] = url(images.original)
            if let show = images.show { result["show"] = url(show) }
            if let hide = images.hide { result["hide"] = url(hide) }
        }
        return result
    }

    /// A relative path as a URL path: spaces and other characters a URL may not hold are percent-encoded.
    static func url(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    static let template = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="generator" content="showhide inspire">
    <title>{{title}} · showhide</title>
    <style>
    :root { color-scheme: dark; }
    body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: #15171b; color: #e6e6e6; }
    header { padding: 32px 40px 4px; }
    h1 { margin: 0; font-size: 30px; font-weight: 650; letter-spacing: -0.01em; }
    header p { margin: 4px 0 0; color: #9aa0a6; }
    main { padding: 20px 40px 56px; display: grid; gap: 28px; max-width: 1500px; }
    article { background: #1e2127; border-radius: 14px; padding: 20px 22px 18px; box-shadow: 0 2px 14px rgba(0, 0, 0, .35); }
    .head { display: flex; align-items: baseline; gap: 14px; flex-wrap: wrap; }
    .rank { font-size: 26px; font-weight: 700; color: #fff; }
    .name { font-size: 17px; font-weight: 600; overflow-wrap: anywhere; }
    a { color: inherit; }
    header a { color: #9ecbff; }
    .score { margin-left: auto; background: #2b3039; padding: 2px 12px; border-radius: 999px; font-variant-numeric: tabular-nums; }
    .reason { margin: 4px 0 14px; color: #cdd3da; }
    .pictures { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 12px; }
    figure { margin: 0; }
    figure img, .missing { width: 100%; height: 260px; object-fit: contain; background: #101114; border-radius: 8px; display: block; }
    .missing { display: flex; align-items: center; justify-content: center; color: #6e7681; }
    figcaption { font-size: 12px; color: #9aa0a6; text-align: center; margin-top: 5px; text-transform: uppercase; letter-spacing: .08em; }
    .palette { display: flex; height: 16px; border-radius: 6px; overflow: hidden; margin: 16px 0 10px; }
    dl { display: flex; flex-wrap: wrap; gap: 4px 20px; margin: 0; font-size: 13px; }
    dl div { display: flex; gap: 6px; }
    dt { color: #7d8590; }
    dd { margin: 0; color: #cdd3da; overflow-wrap: anywhere; }
    @media (max-width: 820px) { .pictures { grid-template-columns: 1fr; } header, main { padding-left: 16px; padding-right: 16px; } }
    </style>
    </head>
    <body>
    <header><h1>{{title}}</h1><p>{{subtitle}}</p><p>A photo's name opens its page in the web gallery at <a href="{{gallery}}">{{gallery}}</a> (<code>showhide serve</code>); the original opens the photo's file at full size.</p></header>
    <main>
    {{#entries}}
    <article id="photo-{{id}}" class="entry">
    <div class="head"><span class="rank">#{{rank}}</span><a class="name" href="{{page}}">{{name}}</a><span class="score" title="splash potential, 0–100">{{score}}</span></div>
    <p class="reason">{{reason}}</p>
    <div class="pictures">
    <figure>{{#original}}<a href="{{originalFile}}"><img src="{{original}}" alt="{{name}}" loading="lazy"></a>{{/original}}{{^original}}<div class="missing">cannot be read</div>{{/original}}<figcaption>original</figcaption></figure>
    <figure>{{#show}}<img src="{{show}}" alt="{{name}}, show" loading="lazy">{{/show}}{{^show}}<div class="missing">no variant</div>{{/show}}<figcaption>show</figcaption></figure>
    <figure>{{#hide}}<img src="{{hide}}" alt="{{name}}, hide" loading="lazy">{{/hide}}{{^hide}}<div class="missing">no variant</div>{{/hide}}<figcaption>hide</figcaption></figure>
    </div>
    <div class="palette">{{#palette}}<span style="background: {{hex}}; flex: {{flex}}" title="{{name}} {{percent}}"></span>{{/palette}}</div>
    <dl>{{#facts}}<div><dt>{{label}}</dt><dd>{{value}}</dd></div>{{/facts}}</dl>
    </article>
    {{/entries}}
    {{^entries}}<p class="reason">No photo of these has an accent colour worth a splash: import more photos, or ask for fewer filters.</p>{{/entries}}
    </main>
    </body>
    </html>

    """
}

/// A place `inspire --html` will not write its page to.
enum InspirationPageError: Error, Equatable, LocalizedError {
    case notAPage(String)
    case foreignPictures(String, page: String)
    case picturesFolderIsAFile(String)

    var errorDescription: String? {
        switch self {
        case let .notAPage(path):
            "\(path) exists and is not an inspiration page showhide wrote: name another file (nothing was written)"
        case let .foreignPictures(folder, page):
            "\(folder) holds files, and \(page) is not there: the page's pictures would replace them; "
                + "name another page (nothing was written)"
        case let .picturesFolderIsAFile(path):
            "\(path) is a file, where the page's pictures would go in a folder of that name: name another page (nothing was written)"
        }
    }
}

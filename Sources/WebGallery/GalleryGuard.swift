import Catalogue
import Foundation
import HTTPTypes
import Hummingbird
import Imaging
import Services

/// In front of every route: refuses a request from a host name the gallery was not opened at, without
/// the access token when one is set, or changing something from another site's page; turns every
/// error into a page (or JSON under /api/) that says what went wrong, and logs it; and gives every
/// response the headers that keep a browser from running or framing anything the gallery did not send.
struct GalleryGuard: RouterMiddleware {
    typealias Context = BasicRequestContext

    let settings: GallerySettings
    let pages: GalleryPages
    /// Why the library can no longer be served (its catalogue moved or deleted since the gallery
    /// started), or nil while it can: pages of a deleted catalogue would show what is no longer there,
    /// and variants made would be recorded in a file nobody can open.
    var libraryGone: @Sendable () -> String? = { nil }
    /// Where a request that failed is said (`GalleryServer.say`).
    var say: @Sendable (String) -> Void = { _ in }

    static let tokenCookie = "showhide_token"

    /// Scripts and styles only from the gallery itself (no inline script); pictures from it and as data
    /// (the colour picker's swatch); no plugins, no framing, forms only to itself. Inline styles are
    /// allowed: swatches are coloured by a `style` attribute, which runs nothing.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            if let refusal = refusal(of: request) {
                response = refusal
            } else if let gone = libraryGone() {
                say(Self.logLine(request, status: .serviceUnavailable, said: gone))
                response = errorPage(.serviceUnavailable, gone, api: request.uri.path.hasPrefix("/api/"))
            } else {
                response = try await next(request, context)
            }
        } catch {
            response = errorResponse(error, request: request, context: context)
        }
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        response.headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        // HEAD is answered as GET (`GalleryServer.router`): the same status and headers, no body, refusals and errors too.
        return request.method == .head ? response.createHeadResponse() : response
    }

    /// The response that refuses the request, or nil when it may go on.
    func refusal(of request: Request) -> Response? {
        let isAPI = request.uri.path.hasPrefix("/api/")
        if let allowed = settings.allowedHostNames {
            // A request naming no host is refused as one naming another: the gallery answers only its own names.
            guard let host = request.head.authority?.lowercased() else {
                return errorPage(.misdirectedRequest, "This gallery answers only requests that name it (a Host header).", api: isAPI)
            }
            if !allowed.contains(Self.name(ofHost: host)) {
                return errorPage(.misdirectedRequest, "This gallery is not served under the name \(host.prefix(80)).", api: isAPI)
            }
        }
        if let token = settings.accessToken {
            let given = QueryParameters(request.uri.query)["token"]
            if let given, Self.same(given, token) {
                // The token leaves the address bar for a cookie that only this site is sent; the address keeps
                // the rest of its query (a grid's filters, a splash's settings).
                var response = Response(status: .seeOther, headers: [.location: Self.address(of: request, without: ["token"])])
                // Lax, not Strict: a link from elsewhere (an `inspire --html` page opened as a file, a message)
                // is a navigation another site began, whose redirect here would go without a Strict cookie
                // (401). Changes are still refused to other sites' pages (Sec-Fetch-Site, Origin), and Lax
                // sends no cookie with their POSTs.
                response.headers[.setCookie] = "\(Self.tokenCookie)=\(token); Path=/; HttpOnly; SameSite=Lax"
                return response
            }
            guard let cookie = Self.cookie(Self.tokenCookie, in: request.headers[.cookie]), Self.same(cookie, token) else {
                return errorPage(.unauthorized, "This gallery needs its access token: open the address that `showhide serve` printed.",
                                 api: isAPI)
            }
        }
        if request.method != .get && request.method != .head {
            // A change must come from the gallery's own pages: the browser says where a request comes from.
            // The browser's own word first (Sec-Fetch-Site); else the Origin against the Host. (A page
            // whose referrer policy is no-referrer sends "Origin: null" even to itself.)
            let origin = request.headers[HTTPField.Name("Origin")!]
            let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]
            let host = request.head.authority
            let sameOrigin = site.map { $0 == "same-origin" }
                ?? origin.map { origin in host.map { origin == "http://\($0)" || origin == "https://\($0)" } ?? false }
                ?? false
            if !sameOrigin {
                return errorPage(.forbidden, "Changes are taken only from the gallery's own pages.", api: isAPI)
            }
        }
        return nil
    }

    func errorResponse(_ error: any Error, request: Request, context: Context) -> Response {
        let api = request.uri.path.hasPrefix("/api/")
        let (status, message): (HTTPResponse.Status, String) = switch error {
        case let error as GalleryRequestError:
            switch error {
            case .invalid: (.badRequest, error.message)
            case .notFound: (.notFound, error.message)
            case .forbidden: (.forbidden, error.message)
            }
        case let error as HTTPError:
            (error.status, error.status == .notFound ? "There is no page at this address." : error.body ?? error.status.reasonPhrase)
        case let error as PhotoError:
            (.notFound, "\(error.reason) (\(error.path)). `showhide gallery check` finds the photos whose files are gone.")
        case CatalogueError.readOnly:
            (.forbidden, "This catalogue is read-only: the gallery shows it and changes nothing.")
        case let error as CatalogueError:
            (.serviceUnavailable, error.plainDescription)
        case is ExportError, is FileWriteError:
            // A download that could not be written in the library folder: the reason, in words.
            (.internalServerError, error.plainDescription)
        default:
            (.internalServerError, Self.serverFault)
        }
        // A fault of the server, whose page says only that, is logged as the error in words.
        say(Self.logLine(request, status: status, said: message == Self.serverFault ? error.plainDescription : message))
        return errorPage(status, message, api: api, back: Self.back(from: request, refusing: status == .badRequest ? message : nil))
    }

    /// What the server's log says of a request that failed.
    static func logLine(_ request: Request, status: HTTPResponse.Status, said: String) -> String {
        "\(request.method) \(request.uri.path): \(status.code) \(said)"
    }

    /// The page of a fault of the server, which says no more.
    static let serverFault = "Something went wrong on the server; its log says what."

    /// A grid or an inspiration page refused for one parameter ("colour: …"): the same page without it,
    /// so that "Back" keeps the other filters. Anything else goes back to the photos.
    static func back(from request: Request, refusing message: String?) -> String {
        let path = request.uri.path
        guard let message, ["/", "/inspire"].contains(path), let colon = message.firstIndex(of: ":") else { return "/" }
        let name = String(message[..<colon])
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter }) else { return "/" }
        // The parameter as the message names it, and its other spelling the query takes.
        return address(of: request, without: Set(name == "colour" ? ["colour", "color", "page"] : [name, "page"]))
    }

    /// The request's path and query without the parameters named `keys` (percent-encoded or not).
    static func address(of request: Request, without keys: Set<String>) -> String {
        let kept = (request.uri.query ?? "").split(separator: "&").filter { pair in
            let key = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return !keys.contains(key.removingPercentEncoding ?? key)
        }
        // One slash first: `//elsewhere` (or `/\elsewhere`, which browsers read alike) would send the browser
        // to another site, with the token just given.
        let path = "/" + request.uri.path.drop { $0 == "/" || $0 == "\\" }
        return path + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    func errorPage(_ status: HTTPResponse.Status, _ message: String, api: Bool, back: String = "/") -> Response {
        if api, let response = try? GalleryServer.json(ErrorJSON(error: message, status: status.code), status: status) {
            return response
        }
        return GalleryServer.html(pages.error(status: status.code, reason: status.reasonPhrase, message: message, back: back,
                                              readOnly: settings.readOnly),
                                  status: status)
    }

    /// An error as the API gives it.
    struct ErrorJSON: Encodable {
        var error: String
        var status: Int
    }

    /// `example.org:8080` → `example.org`, `[::1]:8080` → `[::1]`.
    static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
    }

    /// Equal, compared in a time that does not depend on where they differ.
    static func same(_ given: String, _ expected: String) -> Bool {
        let one = Array(given.utf8), two = Array(expected.utf8)
        guard one.count == two.count else { return false }
        return zip(one, two).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func cookie(_ name: String, in header: String?) -> String? {
        header?.split(separator: ";").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }
}

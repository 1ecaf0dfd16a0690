import Imaging

/// A C library loaded when the first file that needs it is met, rather than linked: each costs every
/// process its loading before `main` (Docs/Performance.md, "What a process costs before its first
/// photo"), a command that never meets such a file too. A conforming type holds the table of the
/// library's functions, set once and never changed, so it is shared between threads; it keeps its
/// process's copy as `static let loaded = load(soname: soname)` (initialised once, thread-safely).
protocol SharedLibrary: Sendable {
    /// The files that need the library, its name for the loader, and Debian's package of it.
    static var format: ImageFormat { get }
    static var soname: String { get }
    static var package: String { get }
    /// The library `soname` loaded and its functions looked up, or nil with the loader's reason in `message`.
    init?(loading soname: String, message: UnsafeMutablePointer<CChar>, capacity: Int)
}

extension SharedLibrary {
    /// Loads the library `soname`; the error says which files cannot be read and what to install.
    static func load(soname: String) -> Result<Self, CodecError> {
        var message = [CChar](repeating: 0, count: 512)
        guard let library = message.withUnsafeMutableBufferPointer({ Self(loading: soname, message: $0.baseAddress!, capacity: $0.count) })
        else { return .failure(.libraryMissing(format, library: soname, package: package, reason: String(cMessage: message))) }
        return .success(library)
    }
}

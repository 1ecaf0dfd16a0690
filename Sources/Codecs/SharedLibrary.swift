import Imaging

/// C libraries loaded when the first file that needs them is met, rather than linked: each costs
/// every process its loading before `main` (Docs/Performance.md, "What a process costs before its
/// first photo"), a command that never meets such a file too.
enum SharedLibrary {
    /// What `loader` makes of the library `soname` (its table of functions), or, when it fills its
    /// message buffer instead, an error that says which files cannot be read and what to install.
    static func load<Table>(_ format: ImageFormat, soname: String, package: String,
                            _ loader: (_ message: UnsafeMutablePointer<CChar>, _ capacity: Int) -> Table?) -> Result<Table, CodecError> {
        var message = [CChar](repeating: 0, count: 512)
        guard let table = message.withUnsafeMutableBufferPointer({ loader($0.baseAddress!, $0.count) }) else {
            return .failure(.libraryMissing(format, library: soname, package: package, reason: String(cMessage: message)))
        }
        return .success(table)
    }
}

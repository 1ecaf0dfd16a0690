import CHEIFBridge

/// libheif's functions, loaded when the first HEIF file is met rather than linked: loading libheif
/// and the codecs it brings costs a process about 2.4 ms, which every command paid before `main`
/// (Docs/Performance.md, "What a process costs before its first photo").
struct HEIFLibrary: @unchecked Sendable {
    /// The table of C function pointers: set once, never changed, so shared between threads.
    let functions: sh_heif_functions

    /// The shared library, and Debian's package of it.
    static let soname = "libheif.so.1", package = "libheif1 (apt-get install libheif1)"

    /// This process's libheif, loaded the first time it is asked for (a static `let` is initialised
    /// once, thread-safely), or why it cannot be.
    static let loaded = load(soname: soname)

    /// Loads the library `soname`; the error says what to install.
    static func load(soname: String) -> Result<HEIFLibrary, CodecError> {
        var message = [CChar](repeating: 0, count: 512)
        return withUnsafeTemporaryAllocation(of: sh_heif_functions.self, capacity: 1) { table in
            guard sh_heif_load(soname, table.baseAddress!, &message, message.count) == 0 else {
                return .failure(.libraryMissing(.heif, library: soname, package: package, reason: String(cMessage: message)))
            }
            return .success(HEIFLibrary(functions: table[0]))
        }
    }
}

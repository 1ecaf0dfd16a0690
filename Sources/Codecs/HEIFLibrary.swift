import CHEIFBridge

/// libheif's functions, loaded when the first HEIF file is met rather than linked: loading libheif
/// and the codecs it brings costs a process about 2.4 ms.
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
        SharedLibrary.load(.heif, soname: soname, package: package) { message, capacity in
            withUnsafeTemporaryAllocation(of: sh_heif_functions.self, capacity: 1) { table in
                sh_heif_load(soname, table.baseAddress!, message, capacity) == 0 ? HEIFLibrary(functions: table[0]) : nil
            }
        }
    }
}

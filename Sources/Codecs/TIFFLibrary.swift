import CTIFFBridge

/// libtiff, loaded when the first TIFF file is met rather than linked: loading libtiff and the
/// compressors it brings costs a process about 0.6 ms.
struct TIFFLibrary: @unchecked Sendable {
    /// The bridge's table of libtiff's functions: made once, never changed or freed, so shared between threads.
    let table: OpaquePointer

    /// The shared library, and Debian's package of it.
    static let soname = "libtiff.so.6", package = "libtiff6 (apt-get install libtiff6)"

    /// This process's libtiff, loaded the first time it is asked for, or why it cannot be.
    static let loaded = load(soname: soname)

    /// Loads the library `soname`; the error says what to install.
    static func load(soname: String) -> Result<TIFFLibrary, CodecError> {
        SharedLibrary.load(.tiff, soname: soname, package: package) { message, capacity in
            sh_tiff_load(soname, message, capacity).map(TIFFLibrary.init)
        }
    }
}

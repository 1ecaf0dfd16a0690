import CTIFFBridge
import Imaging

/// libtiff and the compressors it brings (about 0.6 ms a process when linked).
struct TIFFLibrary: SharedLibrary, @unchecked Sendable {
    static let format = ImageFormat.tiff, soname = "libtiff.so.6", package = "libtiff6 (apt-get install libtiff6)"
    static let loaded = load(soname: soname)

    /// The bridge's table of libtiff's functions, never freed.
    let table: OpaquePointer

    init?(loading soname: String, message: UnsafeMutablePointer<CChar>, capacity: Int) {
        guard let table = sh_tiff_load(soname, message, capacity) else { return nil }
        self.table = table
    }
}

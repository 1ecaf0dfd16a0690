import CHEIFBridge
import Imaging

/// libheif and the codecs it brings (about 2.4 ms a process when linked).
struct HEIFLibrary: SharedLibrary, @unchecked Sendable {
    static let format = ImageFormat.heif, soname = "libheif.so.1", package = "libheif1 (apt-get install libheif1)"
    static let loaded = load(soname: soname)

    /// The table of C function pointers.
    let functions: sh_heif_functions

    init?(loading soname: String, message: UnsafeMutablePointer<CChar>, capacity: Int) {
        guard let functions = withUnsafeTemporaryAllocation(of: sh_heif_functions.self, capacity: 1, { table in
            sh_heif_load(soname, table.baseAddress!, message, capacity) == 0 ? table[0] : nil
        }) else { return nil }
        self.functions = functions
    }
}

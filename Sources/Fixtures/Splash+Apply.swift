import ColourScience
import Imaging

extension Splash {
    /// The whole variant as an image, for tests and benchmarks (the product streams `rows` into the
    /// encoder instead): `mix(grey, pixel, weight)` for show, `mix(grey, pixel, 1 − weight)` for hide.
    public func apply(_ mode: SplashMode, to image: RGBAImage) -> RGBAImage {
        let source = rows(mode, of: image)
        let bytes = [UInt8](unsafeUninitializedCapacity: image.bytes.count) { buffer, initialized in
            nonisolated(unsafe) let output = buffer
            ParallelBands.forEach(rowsOf: image.height) { rows in
                source.fill(rows, output.baseAddress! + rows.lowerBound * image.rowStride, image.rowStride)
            }
            initialized = image.bytes.count
        }
        // The size is the source's, so this cannot fail.
        return try! RGBAImage(width: image.width, height: image.height, bytes: bytes)
    }
}

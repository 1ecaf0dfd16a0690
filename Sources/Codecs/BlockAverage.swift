import Imaging

/// Makes a picture `factor` times smaller on each side as it is read, each pixel the mean of its
/// block (colour weighted by alpha, as `downscaled` does): the analysis size of a photo whose
/// library cannot decode at a reduced size, without a full-size copy of it.
enum BlockAverage {
    /// - Parameter rows: hands `body` the RGBA bytes of the rows asked for, one row every `rowBytes`.
    static func image(width: Int, height: Int, factor: Int, rowBytes: Int,
                      rows: (Range<Int>, (UnsafeRawPointer) -> Void) throws -> Void) throws -> RGBAImage {
        let outputWidth = max(1, width / factor), outputHeight = max(1, height / factor)
        return try RGBAImage(width: outputWidth, height: outputHeight) { output in
            var sums = [UInt64](repeating: 0, count: outputWidth * 4)
            for outputRow in 0..<outputHeight {
                for index in sums.indices { sums[index] = 0 }
                let band = outputRow * factor..<min(height, (outputRow + 1) * factor)
                try rows(band) { pixels in
                    for row in 0..<band.count {
                        let source = (pixels + row * rowBytes).assumingMemoryBound(to: UInt8.self)
                        // (A picture narrower than a block is one block of its own width.)
                        for column in 0..<min(width, outputWidth * factor) {
                            let offset = column * 4, alpha = UInt64(source[offset + 3])
                            let target = column / factor * 4
                            sums[target] += UInt64(source[offset]) * alpha
                            sums[target + 1] += UInt64(source[offset + 1]) * alpha
                            sums[target + 2] += UInt64(source[offset + 2]) * alpha
                            sums[target + 3] += alpha
                        }
                    }
                }
                let blockPixels = UInt64(min(factor, width) * band.count)
                for column in 0..<outputWidth {
                    let alpha = sums[column * 4 + 3], base = (outputRow * outputWidth + column) * 4
                    for channel in 0..<3 {
                        output[base + channel] = alpha == 0 ? 0 : UInt8((sums[column * 4 + channel] + alpha / 2) / alpha)
                    }
                    output[base + 3] = UInt8((alpha + blockPixels / 2) / blockPixels)
                }
            }
        }
    }
}

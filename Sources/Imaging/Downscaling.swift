extension RGBAImage {
    /// The image made smaller so that its long side is at most `longSide` pixels, aspect kept; the
    /// image itself when it is no larger.
    ///
    /// Each output pixel is the average of the source area it covers, partial pixels at its edges
    /// counted by the part they cover (a box filter of exact width): no pixel is skipped, so fine
    /// detail averages instead of aliasing, as nearest-neighbour would. Colours are averaged
    /// weighted by alpha, so transparent pixels lend no colour to their neighbours.
    public func downscaled(toLongSide longSide: Int) -> RGBAImage {
        precondition(longSide > 0, "the long side must be positive")
        guard max(width, height) > longSide else { return self }
        let size = PixelSize(width: width, height: height).fitting(longSide: longSide)
        let newWidth = size.width, newHeight = size.height
        // Horizontal pass into premultiplied floating point, a source row at a time, each row then added
        // into the output rows that cover it (at most two, the scale being at least 1): a 12-megapixel
        // photo made 2048 px long needs a few rows of doubles, not a copy of 2048 × 3000 of them (196 MB).
        // Each output pixel still adds its source rows in order, so its sums are those of a pass over a
        // whole horizontal copy.
        let columns = Self.coverage(from: width, to: newWidth)
        let rows = Self.coverage(from: height, to: newHeight)
        var takers = [[(output: Int, share: Double)]](repeating: [], count: height)
        for (y, spans) in rows.enumerated() {
            for (row, share) in spans { takers[row].append((y, share)) }
        }
        var horizontal = [Double](repeating: 0, count: newWidth * 4)
        var pending: [Int: [Double]] = [:]
        var output = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        bytes.withUnsafeBufferPointer { source in
            for y in 0..<height where !takers[y].isEmpty {
                for (x, spans) in columns.enumerated() {
                    var red = 0.0, green = 0.0, blue = 0.0, alpha = 0.0
                    for (column, share) in spans {
                        let offset = (y * width + column) * 4
                        let a = Double(source[offset + 3]) * share
                        red += Double(source[offset]) * a
                        green += Double(source[offset + 1]) * a
                        blue += Double(source[offset + 2]) * a
                        alpha += a
                    }
                    horizontal[x * 4] = red
                    horizontal[x * 4 + 1] = green
                    horizontal[x * 4 + 2] = blue
                    horizontal[x * 4 + 3] = alpha
                }
                for (outputRow, share) in takers[y] {
                    // Taken out of the dictionary, so that adding to it does not copy it.
                    var sums = pending.removeValue(forKey: outputRow) ?? [Double](repeating: 0, count: newWidth * 4)
                    for index in sums.indices { sums[index] += horizontal[index] * share }
                    // The output row is whole once its last source row is in.
                    guard rows[outputRow].last?.index == y else {
                        pending[outputRow] = sums
                        continue
                    }
                    for x in 0..<newWidth {
                        let red = sums[x * 4], green = sums[x * 4 + 1], blue = sums[x * 4 + 2], alpha = sums[x * 4 + 3]
                        let target = (outputRow * newWidth + x) * 4
                        if alpha > 0 {
                            output[target] = Self.byte(red / alpha)
                            output[target + 1] = Self.byte(green / alpha)
                            output[target + 2] = Self.byte(blue / alpha)
                        }
                        output[target + 3] = Self.byte(alpha)
                    }
                }
            }
        }
        // The sizes are positive and the buffer matches them.
        return try! RGBAImage(width: newWidth, height: newHeight, bytes: output)
    }

    /// For each output pixel along one axis, the source pixels it covers and the share (summing to 1)
    /// each contributes.
    static func coverage(from size: Int, to newSize: Int) -> [[(index: Int, share: Double)]] {
        let step = Double(size) / Double(newSize)
        return (0..<newSize).map { output in
            let start = Double(output) * step, end = Double(output + 1) * step
            var spans: [(index: Int, share: Double)] = []
            var index = Int(start)
            while Double(index) < end && index < size {
                let covered = min(end, Double(index + 1)) - max(start, Double(index))
                if covered > 1e-12 { spans.append((index, covered / step)) }
                index += 1
            }
            return spans
        }
    }

    /// `coverage(from:to:)` flat, for `quicklyDownscaled`: each output pixel's first source pixel, how
    /// many it covers, and their shares, `span` slots an output pixel (no array an output pixel).
    static func runs(from size: Int, to newSize: Int) -> (first: [Int], count: [Int], shares: [Float], span: Int) {
        let step = Double(size) / Double(newSize)
        let span = Int(step.rounded(.up)) + 1
        var first = [Int](repeating: 0, count: newSize), count = first
        var shares = [Float](repeating: 0, count: newSize * span)
        for output in 0..<newSize {
            let start = Double(output) * step, end = Double(output + 1) * step
            var index = Int(start)
            while Double(index) < end && index < size {
                let covered = min(end, Double(index + 1)) - max(start, Double(index))
                if covered > 1e-12 {
                    if count[output] == 0 { first[output] = index }
                    shares[output * span + count[output]] = Float(covered / step)
                    count[output] += 1
                }
                index += 1
            }
        }
        return (first, count, shares, span)
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(min(255, max(0, value.rounded())))
    }
}

extension RGBAImage {
    /// `downscaled(toLongSide:)` for small pictures made often (the gallery's thumbnails, one per
    /// photo imported): the same box filter of exact width, in single precision over flat tables and
    /// without weighting by alpha, which an opaque image does not need; an image with transparency
    /// takes `downscaled`. Its pixels differ from `downscaled`'s by rounding at most (±1).
    public func quicklyDownscaled(toLongSide longSide: Int) -> RGBAImage {
        precondition(longSide > 0, "the long side must be positive")
        guard max(width, height) > longSide else { return self }
        guard isOpaque else { return downscaled(toLongSide: longSide) }
        let size = PixelSize(width: width, height: height).fitting(longSide: longSide)
        let newWidth = size.width, newHeight = size.height
        let columns = Self.runs(from: width, to: newWidth), rows = Self.runs(from: height, to: newHeight)
        var output = [UInt8](repeating: 255, count: newWidth * newHeight * 4)
        // A pixel is one vector of four floats (alpha along, unused): one conversion and one
        // multiply-add a source pixel. Output rows in order, each the sum of its source rows' lines;
        // a source row two output rows share is the last of one and the first of the next, so its
        // line is kept rather than made twice.
        var sums = [SIMD4<Float>](repeating: .zero, count: newWidth)
        var line = [SIMD4<Float>](repeating: .zero, count: newWidth)
        var lineRow = -1
        bytes.withUnsafeBytes { source in
            columns.shares.withUnsafeBufferPointer { columnShares in
                line.withUnsafeMutableBufferPointer { line in
                    sums.withUnsafeMutableBufferPointer { sums in
                        output.withUnsafeMutableBufferPointer { output in
                            for outputRow in 0..<newHeight {
                                for slot in 0..<rows.count[outputRow] {
                                    let y = rows.first[outputRow] + slot
                                    if y != lineRow {
                                        for x in 0..<newWidth {
                                            var sum = SIMD4<Float>.zero
                                            var offset = (y * width + columns.first[x]) * 4
                                            var share = columnShares.baseAddress! + x * columns.span
                                            for _ in 0..<columns.count[x] {
                                                let bytes = source.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)
                                                sum += SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes)) * share.pointee
                                                offset += 4
                                                share += 1
                                            }
                                            line[x] = sum
                                        }
                                        lineRow = y
                                    }
                                    let share = rows.shares[outputRow * rows.span + slot]
                                    for x in 0..<newWidth { sums[x] += line[x] * share }
                                }
                                for x in 0..<newWidth {
                                    // Sums of bytes by positive shares are never negative: + 0.5 and truncation
                                    // round as `rounded()` does, without its call; lane by lane, as the vector
                                    // conversion to integers takes a slow generic path.
                                    let rounded = pointwiseMin(sums[x] + 0.5, SIMD4(repeating: 255))
                                    let target = (outputRow * newWidth + x) * 4
                                    output[target] = UInt8(rounded[0])
                                    output[target + 1] = UInt8(rounded[1])
                                    output[target + 2] = UInt8(rounded[2])
                                    sums[x] = .zero
                                }
                            }
                        }
                    }
                }
            }
        }
        // The sizes are positive and the buffer matches them.
        return try! RGBAImage(width: newWidth, height: newHeight, bytes: output)
    }
}

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
        // Each output column's source columns as one run: its first column, how many, and their shares.
        let columns = Self.coverage(from: width, to: newWidth)
        let firstColumn = columns.map { $0.first?.index ?? 0 }
        let columnCount = columns.map(\.count)
        let span = columnCount.max() ?? 1
        var columnShares = [Float](repeating: 0, count: newWidth * span)
        for (x, spans) in columns.enumerated() {
            for (slot, entry) in spans.enumerated() { columnShares[x * span + slot] = Float(entry.share) }
        }
        let rows = Self.coverage(from: height, to: newHeight)
        var output = [UInt8](repeating: 255, count: newWidth * newHeight * 4)
        // A source row adds into at most two output rows, consecutive: two running sums suffice.
        var sums = [Float](repeating: 0, count: 2 * newWidth * 3)
        var horizontal = [Float](repeating: 0, count: newWidth * 3)
        var takers = [[(output: Int, share: Float)]](repeating: [], count: height)
        for (y, spans) in rows.enumerated() {
            for (row, share) in spans { takers[row].append((y, Float(share))) }
        }
        bytes.withUnsafeBufferPointer { source in
            columnShares.withUnsafeBufferPointer { shares in
                horizontal.withUnsafeMutableBufferPointer { line in
                    sums.withUnsafeMutableBufferPointer { sums in
                        output.withUnsafeMutableBufferPointer { output in
                            for y in 0..<height where !takers[y].isEmpty {
                                let rowStart = y * width * 4
                                for x in 0..<newWidth {
                                    var red: Float = 0, green: Float = 0, blue: Float = 0
                                    var pixel = source.baseAddress! + (rowStart + firstColumn[x] * 4)
                                    var share = shares.baseAddress! + x * span
                                    for _ in 0..<columnCount[x] {
                                        red += Float(pixel[0]) * share.pointee
                                        green += Float(pixel[1]) * share.pointee
                                        blue += Float(pixel[2]) * share.pointee
                                        pixel += 4
                                        share += 1
                                    }
                                    line[x * 3] = red
                                    line[x * 3 + 1] = green
                                    line[x * 3 + 2] = blue
                                }
                                for (outputRow, share) in takers[y] {
                                    let base = (outputRow & 1) * newWidth * 3
                                    // Through a pointer at the row's sums: a loop the compiler makes vector code of.
                                    let rowSums = sums.baseAddress! + base, source = UnsafePointer(line.baseAddress!)
                                    for index in 0..<(newWidth * 3) { rowSums[index] += source[index] * share }
                                    // The output row is whole once its last source row is in.
                                    guard rows[outputRow].last?.index == y else { continue }
                                    for x in 0..<newWidth {
                                        let target = (outputRow * newWidth + x) * 4
                                        for channel in 0..<3 {
                                            // Sums of bytes by positive shares are never negative: + 0.5 and truncation
                                            // round as `rounded()` does, without its call.
                                            output[target + channel] = UInt8(min(255, sums[base + x * 3 + channel] + 0.5))
                                            sums[base + x * 3 + channel] = 0
                                        }
                                    }
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

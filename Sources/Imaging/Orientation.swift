/// The eight EXIF orientations: how the stored pixels must be turned to stand upright.
public enum Orientation: Int, CaseIterable, Sendable, Codable {
    case up = 1
    case upMirrored = 2
    case down = 3
    case downMirrored = 4
    case leftMirrored = 5
    case right = 6
    case rightMirrored = 7
    case left = 8

    /// Whether applying this orientation swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }

    /// The coordinates in the stored image of the pixel that lands at (x, y) once oriented.
    /// `width` and `height` are the stored image's.
    @inline(__always)
    func sourceCoordinate(x: Int, y: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (width - 1 - x, y)
        case .down: return (width - 1 - x, height - 1 - y)
        case .downMirrored: return (x, height - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, height - 1 - x)
        case .rightMirrored: return (width - 1 - y, height - 1 - x)
        case .left: return (width - 1 - y, x)
        }
    }
}

extension RGBAImage {
    /// The image turned upright according to `orientation`.
    public func applying(_ orientation: Orientation) -> RGBAImage {
        if orientation == .up { return self }
        let outputWidth = orientation.swapsDimensions ? height : width
        let outputHeight = orientation.swapsDimensions ? width : height
        let sourceWidth = width, sourceHeight = height
        // The source index is linear in the output's x and y for every orientation: a start and two
        // strides, rather than the orientation's case worked out again for each pixel.
        func sourceIndex(_ x: Int, _ y: Int) -> Int {
            let source = orientation.sourceCoordinate(x: x, y: y, width: sourceWidth, height: sourceHeight)
            return source.y * sourceWidth + source.x
        }
        let start = sourceIndex(0, 0), stepX = sourceIndex(1, 0) - start, stepY = sourceIndex(0, 1) - start
        // Every byte is written, so the buffer is not cleared first. A turn reads the source down its
        // columns: in tiles of `tile` × `tile` pixels, the source's rows a tile reads stay in the cache
        // while it is written, where whole output rows read a new source row for every pixel.
        let tile = 32
        // The byte count is unchanged, so this cannot fail.
        return try! RGBAImage.writingEveryByte(width: outputWidth, height: outputHeight) { destination in
            bytes.withUnsafeBytes { source in
                let sourcePixels = source.bindMemory(to: UInt32.self)
                let destinationPixels = UnsafeMutableRawBufferPointer(destination).bindMemory(to: UInt32.self)
                for top in stride(from: 0, to: outputHeight, by: tile) {
                    for left in stride(from: 0, to: outputWidth, by: tile) {
                        for y in top..<min(top + tile, outputHeight) {
                            let row = y * outputWidth
                            var index = start + y * stepY + left * stepX
                            for x in left..<min(left + tile, outputWidth) {
                                destinationPixels[row + x] = sourcePixels[index]
                                index += stepX
                            }
                        }
                    }
                }
            }
        }
    }
}

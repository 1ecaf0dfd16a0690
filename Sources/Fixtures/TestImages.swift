import Imaging

/// Images with known properties, built in code, as the original app's tests did.
public enum TestImage {
    /// An image of one colour.
    public static func solid(_ colour: RGBA, width: Int = 4, height: Int = 4) -> RGBAImage {
        try! RGBAImage(width: width, height: height, filledWith: colour)
    }

    /// A 2×2 image of four colours, row by row.
    public static func twoByTwo(_ topLeft: RGBA, _ topRight: RGBA, _ bottomLeft: RGBA, _ bottomRight: RGBA) -> RGBAImage {
        from(rows: [[topLeft, topRight], [bottomLeft, bottomRight]])
    }

    /// A 3×3 image of two colours: one in the centre, the other all around it.
    public static func threeByThree(border: RGBA, centre: RGBA) -> RGBAImage {
        from(rows: [[border, border, border], [border, centre, border], [border, border, border]])
    }

    /// A 3×3 checkerboard of two colours: five of the first (corners and centre), four of the second.
    public static func checkerboard(_ first: RGBA, _ second: RGBA) -> RGBAImage {
        from(rows: [[first, second, first], [second, first, second], [first, second, first]])
    }

    /// An image from rows of colours; every row must be as long as the first.
    public static func from(rows: [[RGBA]]) -> RGBAImage {
        precondition(!rows.isEmpty && rows.allSatisfy { $0.count == rows[0].count }, "rows must be non-empty and equally long")
        return from(colours: rows.flatMap { $0 }, width: rows[0].count)
    }

    /// An image from a flat array of colours laid out row by row.
    public static func from(colours: [RGBA], width: Int) -> RGBAImage {
        precondition(width > 0 && colours.count % width == 0, "\(colours.count) colours do not fill rows of \(width)")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(colours.count * 4)
        for colour in colours {
            bytes += [colour.red, colour.green, colour.blue, colour.alpha]
        }
        return try! RGBAImage(width: width, height: colours.count / width, bytes: bytes)
    }

    /// Two colours, the first along the first half of the long side and the second along the rest: a
    /// strip of a pixel or two when the short side is.
    public static func halves(_ first: RGBA, _ second: RGBA, width: Int, height: Int) -> RGBAImage {
        let colours = (0..<width * height).map { index in
            (width > height ? index % width : index / width) < max(width, height) / 2 ? first : second
        }
        return from(colours: colours, width: width)
    }

    /// Every pixel a different colour, so that any turn or mirror shows.
    public static func distinctPixels(width: Int, height: Int) -> RGBAImage {
        var colours: [RGBA] = []
        for y in 0..<height {
            for x in 0..<width {
                colours.append(RGBA(red: UInt8(x * 255 / max(width - 1, 1)), green: UInt8(y * 255 / max(height - 1, 1)), blue: UInt8((x + y * width) % 256)))
            }
        }
        return from(colours: colours, width: width)
    }

    /// Smooth horizontal and vertical ramps: a photo-like image that JPEG keeps close to the original.
    public static func gradient(width: Int, height: Int) -> RGBAImage {
        var colours: [RGBA] = []
        for y in 0..<height {
            for x in 0..<width {
                colours.append(RGBA(red: UInt8(x * 255 / max(width - 1, 1)), green: UInt8(y * 255 / max(height - 1, 1)), blue: 128))
            }
        }
        return from(colours: colours, width: width)
    }
}

extension RGBAImage {
    /// The image broken back into rows of colours.
    public var rows: [[RGBA]] {
        let all = pixels
        return stride(from: 0, to: all.count, by: width).map { Array(all[$0..<($0 + width)]) }
    }
}

/// The first pixel, row by row, whose channels differ by more than `tolerance`.
public func firstDifference(_ actual: RGBAImage, _ expected: RGBAImage, tolerance: Int) -> (x: Int, y: Int, actual: RGBA, expected: RGBA)? {
    precondition(actual.width == expected.width && actual.height == expected.height)
    for index in stride(from: 0, to: actual.bytes.count, by: 4) {
        let differs = (0..<4).contains { abs(Int(actual.bytes[index + $0]) - Int(expected.bytes[index + $0])) > tolerance }
        if differs {
            let pixel = index / 4
            let x = pixel % actual.width, y = pixel / actual.width
            return (x, y, actual[x, y], expected[x, y])
        }
    }
    return nil
}

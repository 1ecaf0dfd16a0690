import Foundation

/// CIEDE2000 colour difference (kL = kC = kH = 1), after Sharma, Wu and Dalal (2005).
/// About 1 is a just-noticeable difference; 2–3 is close; over 10 is a different colour.
public func deltaE2000(_ first: Lab, _ second: Lab) -> Double {
    let primed = PrimedTerms(first, second)
    let a1 = primed.a1, a2 = primed.a2, c1p = primed.c1p, c2p = primed.c2p
    func hue(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        return Hue.degrees(atan2(b, a))
    }
    let h1p = hue(first.b, a1), h2p = hue(second.b, a2)

    var deltahp = 0.0
    if c1p * c2p != 0 {
        deltahp = h2p - h1p
        if deltahp > 180 { deltahp -= 360 } else if deltahp < -180 { deltahp += 360 }
    }
    let deltaHp = 2 * (c1p * c2p).squareRoot() * sin(deltahp * .pi / 360)

    let meanCp = primed.meanCp
    var meanhp = h1p + h2p
    if c1p * c2p != 0 {
        if abs(h1p - h2p) <= 180 {
            meanhp /= 2
        } else {
            meanhp = meanhp < 360 ? (meanhp + 360) / 2 : (meanhp - 360) / 2
        }
    }
    func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    // cos(h − 30°), cos 2h, cos(3h + 6°) and cos(4h − 63°) from one cosine and sine of h by the
    // multiple-angle formulas: libm cosines are slow (Docs/Performance.md, "Why the code is shaped so").
    let angle = radians(meanhp)
    let cosH = cos(angle), sinH = sin(angle)
    let cos2H = cosH * cosH - sinH * sinH, sin2H = 2 * sinH * cosH
    let cos3H = cosH * (2 * cos2H - 1), sin3H = sinH * (2 * cos2H + 1)
    let cos4H = cos2H * cos2H - sin2H * sin2H, sin4H = 2 * sin2H * cos2H
    let cosMinus30: Double = cosH * Angles.cos30 + sinH * Angles.sin30
    let cos3Plus6: Double = cos3H * Angles.cos6 - sin3H * Angles.sin6
    let cos4Minus63: Double = cos4H * Angles.cos63 + sin4H * Angles.sin63
    let t: Double = 1 - 0.17 * cosMinus30 + 0.24 * cos2H + 0.32 * cos3Plus6 - 0.20 * cos4Minus63
    let hueFromBlue = (meanhp - 275) / 25
    let deltaTheta = 30 * exp(-hueFromBlue * hueFromBlue)
    let meanCp7 = seventh(meanCp)
    let rc = 2 * (meanCp7 / (meanCp7 + PrimedTerms.pow25to7)).squareRoot()
    let sh = 1 + 0.015 * meanCp * t
    let rt = -sin(radians(2 * deltaTheta)) * rc
    let lTerm = primed.lTerm, cTerm = primed.cTerm, hTerm = deltaHp / sh
    return (lTerm * lTerm + cTerm * cTerm + hTerm * hTerm + rt * cTerm * hTerm).squareRoot()
}

/// A lower bound of `deltaE2000(first, second)` from its lightness and chroma terms alone, without
/// the hue angles' arctangents and sines: a search for the nearest of many colours skips those
/// that cannot be nearer than the best so far. The rotation term is at most |R_T| ≤ 2 sin 60°, so
/// ΔE² = L² + C² + H² + R_T·C·H ≥ L² + (1 − R_T²/4)·C² ≥ L² + C²/4.
public func deltaE2000LowerBound(_ first: Lab, _ second: Lab) -> Double {
    let primed = PrimedTerms(first, second)
    // A little under, so that rounding in either function cannot put the bound above the difference
    // (a negative R_T term can round ΔE² down by an ulp where C and H are tiny beside L).
    return (primed.lTerm * primed.lTerm + 0.249 * primed.cTerm * primed.cTerm).squareRoot() * (1 - 1e-12)
}

/// What the difference and its bound both start from: a* stretched by G, the primed chromas, and
/// the lightness and chroma terms (ΔL'/S_L, ΔC'/S_C).
private struct PrimedTerms {
    static let pow25to7 = 6_103_515_625.0 // 25^7
    let a1: Double, a2: Double, c1p: Double, c2p: Double, meanCp: Double, lTerm: Double, cTerm: Double

    @inline(__always)
    init(_ first: Lab, _ second: Lab) {
        let c1 = (first.a * first.a + first.b * first.b).squareRoot()
        let c2 = (second.a * second.a + second.b * second.b).squareRoot()
        let meanC7 = seventh((c1 + c2) / 2)
        let g = 0.5 * (1 - (meanC7 / (meanC7 + Self.pow25to7)).squareRoot())
        a1 = (1 + g) * first.a
        a2 = (1 + g) * second.a
        c1p = (a1 * a1 + first.b * first.b).squareRoot()
        c2p = (a2 * a2 + second.b * second.b).squareRoot()
        meanCp = (c1p + c2p) / 2
        let meanLp = (first.l + second.l) / 2
        let lightness50 = (meanLp - 50) * (meanLp - 50)
        lTerm = (second.l - first.l) / (1 + 0.015 * lightness50 / (20 + lightness50).squareRoot())
        cTerm = (c2p - c1p) / (1 + 0.045 * meanCp)
    }
}

/// The cosines and sines of the fixed angles of CIEDE2000's T term.
private enum Angles {
    static let cos30 = 0.866_025_403_784_438_6, sin30 = 0.5
    static let cos6 = 0.994_521_895_368_273_3, sin6 = 0.104_528_463_267_653_47
    static let cos63 = 0.453_990_499_739_546_75, sin63 = 0.891_006_524_188_367_9
}

/// x⁷ by multiplication: libm's pow was a visible share of an import.
@inline(__always)
private func seventh(_ x: Double) -> Double {
    let square = x * x
    return square * square * square * x
}

import Foundation

/// The ISO a Canon compact used in Auto ISO, which it writes only in its maker note, as a base ISO
/// and an automatic factor (ShotInfo, tag 4: entries 1 and 2, on a log₂ scale of 32 steps):
/// ISO = BaseISO × AutoISO / 100, as exiftool computes it. libexif's Canon reader refuses many of
/// these notes (their CameraSettings has fewer entries than it expects), so the note's directory is
/// read here. Canon's offsets count from the TIFF header, as the block's own do.
enum CanonMakerNote {
    static let makerNoteTag: UInt16 = 0x927C
    static let shotInfoTag: UInt16 = 0x0004

    /// The ISO, or nil when the block has no such maker note or its values are not a usable ISO.
    static func autoISO(inBlock block: Data) -> Int? {
        guard block.starts(with: ExifLocator.exifHeader) else { return nil }
        return TIFFExif.withReader(of: Data(block.dropFirst(ExifLocator.exifHeader.count))) { reader, ifd0 -> Int? in
            guard let exifIFD = reader.directory(at: ifd0).first(where: { $0.tag == TIFFExif.exifPointer }).flatMap(reader.pointer),
                  let noteOffset = reader.valueOffset(ofTag: makerNoteTag, inDirectoryAt: exifIFD) else { return nil }
            // A file turned to the other byte order by an editor may keep its note in the camera's.
            let reader = [reader, TIFFExif.Reader(bytes: reader.bytes, little: !reader.little)].first { reader in
                guard let count = reader.u16(noteOffset), (1...TIFFExif.maximumEntries).contains(Int(count)),
                      let type = reader.u16(noteOffset + 4) else { return false }
                return TIFFExif.typeSizes[type] != nil
            } ?? reader
            // Canon writes the values right after the directory; an editor that moved the note without
            // changing its offsets moved them all by the same amount (exiftool's "adjusted base").
            let directoryEnd = noteOffset + 2 + 12 * Int(reader.u16(noteOffset) ?? 0) + 4
            let shift = reader.outOfLineOffsets(inDirectoryAt: noteOffset).min().map { directoryEnd - $0 } ?? 0
            guard let shotInfo = reader.directory(at: noteOffset, shift: shift).first(where: { $0.tag == shotInfoTag && $0.type == 3 }),
                  shotInfo.count >= 3 else { return nil }
            func short(_ index: Int) -> Int {
                let bytes = shotInfo.value[(index * 2)..<(index * 2 + 2)].map(Int.init)
                return reader.little ? bytes[0] | bytes[1] << 8 : bytes[0] << 8 | bytes[1]
            }
            let autoRaw = Int16(truncatingIfNeeded: short(1)), baseRaw = Int16(truncatingIfNeeded: short(2))
            guard baseRaw != 0 else { return nil }
            let base = exp2(Double(baseRaw) / 32) * 100 / 32, auto = exp2(Double(autoRaw) / 32) * 100
            let iso = (base * auto / 100).rounded()
            return (1...1_000_000).contains(iso) ? Int(iso) : nil
        }
    }
}

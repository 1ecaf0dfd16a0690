import Foundation

/// The references between a HEIF file's items (`iref` in the `meta` box), read before libheif
/// decodes anything: libheif 1.15 follows them without remembering where it has been, so a grid
/// whose alpha picture is a grid of itself is decoded again and again (found by the fuzzer: 1.4 KB
/// that took more than 1 GB and did not end).
enum HEIFReferences {
    /// Whether decoding one item leads back to it: an item is decoded with the items it is derived
    /// from (`dimg`: grid tiles, overlays) and with its auxiliary pictures (`auxl`: alpha, depth).
    static func haveALoop(in data: Data) -> Bool {
        var needs: [UInt32: Set<UInt32>] = [:]
        for reference in references(in: [UInt8](data)) {
            switch reference.type {
            case "dimg": needs[reference.from, default: []].formUnion(reference.to)
            case "auxl": for item in reference.to { needs[item, default: []].insert(reference.from) }
            default: continue
            }
        }
        // Depth-first search for an edge back to an item on the current path, with a stack of its own: a
        // chain of 65,536 references, one Swift frame each, overflowed the thread's stack.
        var finished: [UInt32: Bool] = [:] // false: on the path; true: done
        for root in needs.keys.sorted() where finished[root] == nil {
            finished[root] = false
            var path: [(item: UInt32, next: [UInt32], index: Int)] = [(root, (needs[root] ?? []).sorted(), 0)]
            while !path.isEmpty {
                let top = path.count - 1
                guard path[top].index < path[top].next.count else {
                    finished[path[top].item] = true
                    path.removeLast()
                    continue
                }
                let next = path[top].next[path[top].index]
                path[top].index += 1
                switch finished[next] {
                case false?: return true
                case true?: continue
                case nil:
                    finished[next] = false
                    path.append((next, (needs[next] ?? []).sorted(), 0))
                }
            }
        }
        return false
    }

    struct Reference: Equatable {
        var type: String
        var from: UInt32
        var to: [UInt32]
    }

    /// The references of the `iref` box inside the top-level `meta` box; none when there is none or
    /// the boxes do not fit.
    static func references(in bytes: [UInt8]) -> [Reference] {
        guard let meta = child("meta", of: 0..<bytes.count, in: bytes), meta.count >= 4,
              let iref = child("iref", of: (meta.lowerBound + 4)..<meta.upperBound, in: bytes), iref.count >= 4 else { return [] }
        let wide = bytes[iref.lowerBound] != 0 // version 1: 32-bit item ids
        var result: [Reference] = []
        var offset = iref.lowerBound + 4
        while offset + 8 <= iref.upperBound, result.count < 65_536 {
            // A reference claiming more bytes than its box has is read to the box's end, as libheif reads it.
            let size = Int(u32(bytes, offset)), end = min(offset + size, iref.upperBound)
            guard size >= 8 else { break }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            var cursor = offset + 8
            func id() -> UInt32? {
                let length = wide ? 4 : 2
                guard cursor + length <= end else { return nil }
                defer { cursor += length }
                return wide ? u32(bytes, cursor) : UInt32(bytes[cursor]) << 8 | UInt32(bytes[cursor + 1])
            }
            guard let from = id(), cursor + 2 <= end else { break }
            let count = Int(bytes[cursor]) << 8 | Int(bytes[cursor + 1])
            cursor += 2
            let to = (0..<count).compactMap { _ in id() }
            result.append(Reference(type: type, from: from, to: to))
            offset = end
        }
        return result
    }

    /// The contents of the first box of `type` among the boxes in `range`.
    private static func child(_ type: String, of range: Range<Int>, in bytes: [UInt8]) -> Range<Int>? {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            var size = Int(u32(bytes, offset)), header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { return nil }
                size = Int(clamping: UInt64(u32(bytes, offset + 8)) << 32 | UInt64(u32(bytes, offset + 12)))
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { return nil }
            if String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self) == type {
                return (offset + header)..<(offset + size)
            }
            offset += size
        }
        return nil
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}

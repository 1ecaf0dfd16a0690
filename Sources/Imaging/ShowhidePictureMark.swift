#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// What tells a picture showhide made — a show or hide picture, an export of one made smaller or in
/// another format, an inspiration page's — from a photo, wherever it is copied, renamed or moved: an XMP
/// packet with a property in showhide's own namespace. Import leaves such a file out, as it leaves out
/// one whose content is a variant's; an editor that keeps the XMP of what it opens keeps the mark.
public enum ShowhidePictureMark {
    /// The namespace of showhide's property: its presence in a packet is the mark.
    public static let namespace = "urn:showhide:picture:1.0/"

    /// The packet a picture of `kind` ("show", "hide") is written with.
    public static func packet(_ kind: String) -> String {
        "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + "<rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmlns:showhide=\"\(namespace)\""
            + " xmp:CreatorTool=\"showhide\" showhide:Picture=\"\(kind)\"/>"
            + "</rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>"
    }

    /// Whether a file's XMP packet marks it as a picture showhide made.
    public static func marks(_ packet: String?) -> Bool {
        // Asked of every new photo with XMP, some of whose packets are large: the C library's search, where
        // Foundation's `contains` and the standard library's `firstRange(of:)` each cost 1–3% of an import.
        // (A packet is text: a NUL in one would end the search there, never in a packet showhide wrote.)
        packet?.withCString { strstr($0, namespace) != nil } ?? false
    }
}

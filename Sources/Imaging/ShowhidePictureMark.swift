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
        packet?.contains(namespace) == true
    }
}

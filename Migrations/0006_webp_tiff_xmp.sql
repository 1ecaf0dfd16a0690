-- WebP and TIFF photos, and XMP. A photo's format may now be 'webp' or 'tiff': as in 0005, the photo table
-- is made anew (SQLite cannot change a CHECK constraint in place) and its rows copied with their
-- ids; the rows that refer to photos stay as they are.
CREATE TABLE photo_with_more_formats (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    file_size INTEGER NOT NULL CHECK (file_size >= 0),
    modified_at_ns INTEGER NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('jpeg', 'png', 'heif', 'webp', 'tiff')),
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    imported_at TEXT NOT NULL
);

INSERT INTO photo_with_more_formats (id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at)
    SELECT id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at FROM photo;

DROP TABLE photo;

ALTER TABLE photo_with_more_formats RENAME TO photo;

-- A photo's XMP packet (the XML editors and phones write beside EXIF), kept as text for a later
-- search. Photos imported before this migration have none until imported again.
CREATE TABLE photo_xmp (
    photo_id INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    packet TEXT NOT NULL
);

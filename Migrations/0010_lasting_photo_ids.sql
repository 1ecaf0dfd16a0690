-- A photo's id is never given out again. An id names a photo outside the catalogue too: in an
-- export's manifest, a link to the web gallery, a person's notes and scripts. SQLite gives a new row
-- the largest id + 1, so a removed photo's id went to the next photo imported: `gallery remove 4`
-- typed from an old listing would remove another photo. AUTOINCREMENT keeps the largest id ever
-- given in sqlite_sequence. As in 0006, the table is made anew and its rows copied with their ids;
-- the rows that refer to photos stay as they are. The ids of photos removed before this migration
-- above the largest left are not known, and may be given once more.
CREATE TABLE photo_with_lasting_ids (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    path TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    file_size INTEGER NOT NULL CHECK (file_size >= 0),
    modified_at_ns INTEGER NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('jpeg', 'png', 'heif', 'webp', 'tiff')),
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    imported_at TEXT NOT NULL
);

INSERT INTO photo_with_lasting_ids (id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at)
    SELECT id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at FROM photo;

DROP TABLE photo;

ALTER TABLE photo_with_lasting_ids RENAME TO photo;

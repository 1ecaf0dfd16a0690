-- HEIF photos (HEIC from phones, AVIF): a photo's format may now be 'heif'. SQLite cannot change a
-- CHECK constraint in place, so the photo table is made anew and its rows copied with their ids;
-- the migrator turns foreign keys off while a migration runs and checks them all before it commits,
-- so the rows that refer to photos (paths, EXIF, colours, variants) stay as they are.
CREATE TABLE photo_with_heif (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    file_size INTEGER NOT NULL CHECK (file_size >= 0),
    modified_at_ns INTEGER NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('jpeg', 'png', 'heif')),
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    imported_at TEXT NOT NULL
);

INSERT INTO photo_with_heif (id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at)
    SELECT id, path, sha256, file_size, modified_at_ns, format, width, height, imported_at FROM photo;

DROP TABLE photo;

ALTER TABLE photo_with_heif RENAME TO photo;

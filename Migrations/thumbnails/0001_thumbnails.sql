-- The thumbnail cache (thumbnails.sqlite, beside the catalogue): one small upright JPEG per photo
-- content, by SHA-256. A cache: every row can be made again from the photo's file.
CREATE TABLE thumbnail (
    sha256 TEXT PRIMARY KEY NOT NULL CHECK (length(sha256) = 64),
    jpeg BLOB NOT NULL
);

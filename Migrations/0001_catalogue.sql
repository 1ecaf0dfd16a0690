-- The catalogue: photos, the paths they were found at, their EXIF data, their colours,
-- their processed variants, and the files that could not be imported.

-- One row per distinct content (SHA-256). `path` is where it was first found, or moved to.
CREATE TABLE photo (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    file_size INTEGER NOT NULL CHECK (file_size >= 0),
    modified_at_ns INTEGER NOT NULL,
    format TEXT NOT NULL CHECK (format IN ('jpeg', 'png')),
    width INTEGER NOT NULL CHECK (width > 0),
    height INTEGER NOT NULL CHECK (height > 0),
    imported_at TEXT NOT NULL
);

-- Other paths holding the same content as a photo.
CREATE TABLE duplicate_path (
    id INTEGER PRIMARY KEY,
    photo_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    path TEXT NOT NULL UNIQUE,
    file_size INTEGER NOT NULL,
    modified_at_ns INTEGER NOT NULL,
    noted_at TEXT NOT NULL
);
CREATE INDEX duplicate_path_photo ON duplicate_path(photo_id);

-- EXIF: typed columns for what showhide uses, and every tag as JSON text.
CREATE TABLE exif (
    photo_id INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    make TEXT,
    model TEXT,
    lens TEXT,
    taken_at TEXT,          -- ISO 8601 as written in the file, offset included when present
    exposure_time REAL,     -- seconds
    f_number REAL,
    iso INTEGER,
    focal_length REAL,      -- millimetres
    orientation INTEGER CHECK (orientation BETWEEN 1 AND 8),
    gps_latitude REAL,
    gps_longitude REAL,
    gps_altitude REAL,
    all_tags TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX exif_taken_at ON exif(taken_at);

-- A photo's palette, up to eight entries, rank 0 the heaviest.
CREATE TABLE palette_entry (
    photo_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    rank INTEGER NOT NULL CHECK (rank >= 0),
    lab_l REAL NOT NULL,
    lab_a REAL NOT NULL,
    lab_b REAL NOT NULL,
    hex TEXT NOT NULL,
    weight REAL NOT NULL CHECK (weight >= 0 AND weight <= 1),
    name TEXT NOT NULL,
    PRIMARY KEY (photo_id, rank)
) WITHOUT ROWID;

-- Processed show and hide variants.
CREATE TABLE variant (
    id INTEGER PRIMARY KEY,
    photo_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('show', 'hide')),
    parameters TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE,
    file_size INTEGER NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (photo_id, kind, parameters)
);

-- Files and folders that could not be imported, so that none is silently lost.
CREATE TABLE import_failure (
    path TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    failed_at TEXT NOT NULL
) WITHOUT ROWID;

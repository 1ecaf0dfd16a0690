-- Accents found by saliency — where a colour is, how compact, against what — instead of by how much
-- of it there is: up to three ranked candidates per photo with the reasons they stand out, the
-- photo's count of saturated hue families (a colour chart or a market has many), and the version of
-- the rules that analysed it, so that an import analyses again the photos analysed by earlier rules
-- (their EXIF rows and variants are kept).

ALTER TABLE photo_colour ADD COLUMN analysis_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE photo_colour ADD COLUMN hue_families INTEGER NOT NULL DEFAULT 0;

-- Rank 0 is the most salient; photo_colour's accent is rank 0 when it stands out, NULL otherwise.
CREATE TABLE accent_candidate (
    photo_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    rank INTEGER NOT NULL CHECK (rank >= 0 AND rank < 3),
    lab_l REAL NOT NULL,
    lab_a REAL NOT NULL,
    lab_b REAL NOT NULL,
    hex TEXT NOT NULL,
    hue REAL NOT NULL,
    coverage REAL NOT NULL CHECK (coverage >= 0 AND coverage <= 1),
    name TEXT NOT NULL,
    saliency REAL NOT NULL,
    contrast REAL NOT NULL,
    regions INTEGER NOT NULL,
    compactness REAL NOT NULL,
    texture REAL NOT NULL,
    PRIMARY KEY (photo_id, rank)
) WITHOUT ROWID;

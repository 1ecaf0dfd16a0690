-- Colour analysis: the dominant colour and accent of each photo, how much of it each basic
-- colour name covers, and R*Tree indexes over CIELAB for searching by colour.

-- One row per analysed photo (its palette is in palette_entry). The accent is NULL for photos
-- without a chromatic colour; the dominant is NULL only for photos without an opaque pixel.
CREATE TABLE photo_colour (
    photo_id INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    dominant_hex TEXT,
    dominant_name TEXT,
    accent_l REAL,
    accent_a REAL,
    accent_b REAL,
    accent_hex TEXT,
    accent_hue REAL,
    accent_coverage REAL,
    accent_name TEXT
);
CREATE INDEX photo_colour_accent ON photo_colour(accent_name, accent_coverage DESC);

-- The share of each photo's palette that each basic colour name covers.
CREATE TABLE colour_name_weight (
    photo_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    weight REAL NOT NULL,
    PRIMARY KEY (photo_id, name)
) WITHOUT ROWID;
CREATE INDEX colour_name_weight_rank ON colour_name_weight(name, weight DESC, photo_id);

-- Palette entries and accents as points in CIELAB plus their share of the photo (w, in percent,
-- so that it spreads as far as L*, a* and b* do and the tree splits on it too), so that a search
-- can read the heavy entries first; id = photo_id * 8 + rank for palettes, photo_id for accents.
-- Kept in step with their tables by triggers.
CREATE VIRTUAL TABLE palette_index USING rtree(id, l_min, l_max, a_min, a_max, b_min, b_max, w_min, w_max);
CREATE VIRTUAL TABLE accent_index USING rtree(id, l_min, l_max, a_min, a_max, b_min, b_max, w_min, w_max);

CREATE TRIGGER palette_entry_indexed AFTER INSERT ON palette_entry BEGIN
    INSERT INTO palette_index VALUES (NEW.photo_id * 8 + NEW.rank, NEW.lab_l, NEW.lab_l, NEW.lab_a, NEW.lab_a,
                                      NEW.lab_b, NEW.lab_b, NEW.weight * 100, NEW.weight * 100);
END;
CREATE TRIGGER palette_entry_unindexed AFTER DELETE ON palette_entry BEGIN
    DELETE FROM palette_index WHERE id = OLD.photo_id * 8 + OLD.rank;
END;
CREATE TRIGGER accent_indexed AFTER INSERT ON photo_colour WHEN NEW.accent_l IS NOT NULL BEGIN
    INSERT INTO accent_index VALUES (NEW.photo_id, NEW.accent_l, NEW.accent_l, NEW.accent_a, NEW.accent_a,
                                     NEW.accent_b, NEW.accent_b, NEW.accent_coverage * 100, NEW.accent_coverage * 100);
END;
CREATE TRIGGER accent_unindexed AFTER DELETE ON photo_colour BEGIN
    DELETE FROM accent_index WHERE id = OLD.photo_id;
END;

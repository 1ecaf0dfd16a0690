-- Searching by colour reads a grid instead of R*Trees. CIEDE2000 bends so much in the blues that
-- any box holding every close colour also holds a hundred times more far ones, and the R*Trees had
-- to walk them all; the grid lets a search read exactly the cells that can hold a match.
--
-- CIELAB is cut into cubes of 4 units; a colour's cell is
--     (floor(L / 4) * 64 + floor((a + 128) / 4)) * 64 + floor((b + 128) / 4)
-- (LabGrid in Sources/Catalogue computes the same number). Rows are clustered by cell, then by share,
-- so a search seeks each cell once and reads only the entries heavy enough for its round.

DROP TRIGGER palette_entry_indexed;
DROP TRIGGER palette_entry_unindexed;
DROP TRIGGER accent_indexed;
DROP TRIGGER accent_unindexed;
DROP TABLE palette_index;
DROP TABLE accent_index;

CREATE TABLE palette_cell (
    cell INTEGER NOT NULL,
    weight REAL NOT NULL,
    photo_id INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    lab_l REAL NOT NULL,
    lab_a REAL NOT NULL,
    lab_b REAL NOT NULL,
    PRIMARY KEY (cell, weight, photo_id, rank)
) WITHOUT ROWID;

INSERT INTO palette_cell
SELECT (CAST(lab_l / 4 AS INTEGER) * 64 + CAST((lab_a + 128) / 4 AS INTEGER)) * 64 + CAST((lab_b + 128) / 4 AS INTEGER),
       weight, photo_id, rank, lab_l, lab_a, lab_b
FROM palette_entry;

CREATE TRIGGER palette_entry_gridded AFTER INSERT ON palette_entry BEGIN
    INSERT INTO palette_cell VALUES (
        (CAST(NEW.lab_l / 4 AS INTEGER) * 64 + CAST((NEW.lab_a + 128) / 4 AS INTEGER)) * 64 + CAST((NEW.lab_b + 128) / 4 AS INTEGER),
        NEW.weight, NEW.photo_id, NEW.rank, NEW.lab_l, NEW.lab_a, NEW.lab_b);
END;
CREATE TRIGGER palette_entry_ungridded AFTER DELETE ON palette_entry BEGIN
    DELETE FROM palette_cell WHERE photo_id = OLD.photo_id AND rank = OLD.rank AND weight = OLD.weight
        AND cell = (CAST(OLD.lab_l / 4 AS INTEGER) * 64 + CAST((OLD.lab_a + 128) / 4 AS INTEGER)) * 64
                   + CAST((OLD.lab_b + 128) / 4 AS INTEGER);
END;
CREATE TRIGGER palette_entry_regridded AFTER UPDATE ON palette_entry BEGIN
    DELETE FROM palette_cell WHERE photo_id = OLD.photo_id AND rank = OLD.rank AND weight = OLD.weight
        AND cell = (CAST(OLD.lab_l / 4 AS INTEGER) * 64 + CAST((OLD.lab_a + 128) / 4 AS INTEGER)) * 64
                   + CAST((OLD.lab_b + 128) / 4 AS INTEGER);
    INSERT INTO palette_cell VALUES (
        (CAST(NEW.lab_l / 4 AS INTEGER) * 64 + CAST((NEW.lab_a + 128) / 4 AS INTEGER)) * 64 + CAST((NEW.lab_b + 128) / 4 AS INTEGER),
        NEW.weight, NEW.photo_id, NEW.rank, NEW.lab_l, NEW.lab_a, NEW.lab_b);
END;

-- Accents the same way, by their coverage.
CREATE TABLE accent_cell (
    cell INTEGER NOT NULL,
    coverage REAL NOT NULL,
    photo_id INTEGER NOT NULL,
    lab_l REAL NOT NULL,
    lab_a REAL NOT NULL,
    lab_b REAL NOT NULL,
    PRIMARY KEY (cell, coverage, photo_id)
) WITHOUT ROWID;

INSERT INTO accent_cell
SELECT (CAST(accent_l / 4 AS INTEGER) * 64 + CAST((accent_a + 128) / 4 AS INTEGER)) * 64 + CAST((accent_b + 128) / 4 AS INTEGER),
       accent_coverage, photo_id, accent_l, accent_a, accent_b
FROM photo_colour WHERE accent_l IS NOT NULL;

CREATE TRIGGER accent_gridded AFTER INSERT ON photo_colour WHEN NEW.accent_l IS NOT NULL BEGIN
    INSERT INTO accent_cell VALUES (
        (CAST(NEW.accent_l / 4 AS INTEGER) * 64 + CAST((NEW.accent_a + 128) / 4 AS INTEGER)) * 64
            + CAST((NEW.accent_b + 128) / 4 AS INTEGER),
        NEW.accent_coverage, NEW.photo_id, NEW.accent_l, NEW.accent_a, NEW.accent_b);
END;
-- Deletes name the whole key, so that they seek instead of scanning.
CREATE TRIGGER accent_ungridded AFTER DELETE ON photo_colour WHEN OLD.accent_l IS NOT NULL BEGIN
    DELETE FROM accent_cell WHERE photo_id = OLD.photo_id AND coverage = OLD.accent_coverage
        AND cell = (CAST(OLD.accent_l / 4 AS INTEGER) * 64 + CAST((OLD.accent_a + 128) / 4 AS INTEGER)) * 64
                   + CAST((OLD.accent_b + 128) / 4 AS INTEGER);
END;
CREATE TRIGGER accent_regridded AFTER UPDATE ON photo_colour BEGIN
    DELETE FROM accent_cell WHERE photo_id = OLD.photo_id AND coverage = OLD.accent_coverage
        AND cell = (CAST(OLD.accent_l / 4 AS INTEGER) * 64 + CAST((OLD.accent_a + 128) / 4 AS INTEGER)) * 64
                   + CAST((OLD.accent_b + 128) / 4 AS INTEGER);
    INSERT INTO accent_cell SELECT
        (CAST(NEW.accent_l / 4 AS INTEGER) * 64 + CAST((NEW.accent_a + 128) / 4 AS INTEGER)) * 64
            + CAST((NEW.accent_b + 128) / 4 AS INTEGER),
        NEW.accent_coverage, NEW.photo_id, NEW.accent_l, NEW.accent_a, NEW.accent_b
    WHERE NEW.accent_l IS NOT NULL;
END;

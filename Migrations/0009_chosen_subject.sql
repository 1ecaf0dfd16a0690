-- The subject a person chose for a photo among its accent candidates (issue #34: a click on the web
-- gallery's photo page). It outlives a new analysis: its colour is kept here, and the candidate
-- nearest it (or, when none is near, the colour itself) is the photo's accent for processing, export
-- and inspiration until the choice is cleared.
CREATE TABLE photo_subject (
    photo_id INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
    lab_l REAL NOT NULL,
    lab_a REAL NOT NULL,
    lab_b REAL NOT NULL,
    hue REAL NOT NULL,
    coverage REAL NOT NULL CHECK (coverage >= 0 AND coverage <= 1),
    name TEXT NOT NULL,
    chosen_at TEXT NOT NULL
);

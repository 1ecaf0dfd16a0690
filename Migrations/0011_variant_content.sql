-- A show or hide picture copied or renamed among the photos is no photo to import: import looks its
-- content up among the variants' (issue #32's thirty-fourth session; before, only paths told it).
CREATE INDEX variant_sha256 ON variant(sha256);

-- The kind of scene the eye judged a photo to be (issue #32): an ordinary one, or one with no accent
-- worth splashing, a colour target (a chart of uniform patches) or a busy scene (many saturated
-- colours, none the subject), so that `gallery show` can say why a photo has no accent. Rows analysed
-- before say 'ordinary' until the next import analyses them again (analysis rules version 4).
ALTER TABLE photo_colour ADD COLUMN scene TEXT NOT NULL DEFAULT 'ordinary'
    CHECK (scene IN ('ordinary', 'colour target', 'busy scene'));

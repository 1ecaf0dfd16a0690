-- Files an import left out by their content (a show or hide picture showhide made, under a name of
-- its own), with their stamp: the next import leaves them out again unread while they are unchanged,
-- where it would read and hash each at every import.
CREATE TABLE left_out_file (
    path TEXT PRIMARY KEY NOT NULL,
    file_size INTEGER NOT NULL,
    modified_at_ns INTEGER NOT NULL
) WITHOUT ROWID;

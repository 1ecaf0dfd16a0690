-- The size and modification time a file had when it failed to import (issue #33), so that the next
-- import of its folder can tell a known-bad file that has not changed ("still failing": not read
-- again, and not a new failure) from one that has (read again). Failures recorded before have none:
-- their files are read once more, and their stamps recorded if they fail again.
ALTER TABLE import_failure ADD COLUMN file_size INTEGER;
ALTER TABLE import_failure ADD COLUMN modified_at_ns INTEGER;

#include <png.h>
// zlib: the CRC of chunks showhide adds to the PNGs it writes.
#include <zlib.h>

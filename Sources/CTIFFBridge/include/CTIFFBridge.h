#ifndef SHOWHIDE_CTIFFBRIDGE_H
#define SHOWHIDE_CTIFFBRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Size of the buffers the bridge writes error messages into.
#define SH_TIFF_MESSAGE_CAPACITY 200

typedef struct sh_tiff_reader sh_tiff_reader;

/// libtiff's functions that the bridge calls, loaded when the first TIFF file is met rather than
/// linked: linked, libtiff and the libraries it brings (LERC, JBIG, deflate, zstd, lzma) cost every
/// process about 0.6 ms before main (Docs/Performance.md), a command that never sees a TIFF too.
typedef struct sh_tiff_library sh_tiff_library;

/// Loads the library named `soname` (dlopen; never closed) and looks up the functions the bridge
/// calls. Returns the table, kept for the rest of the process, or NULL with the loader's reason in
/// `message` (the library, or one of its functions, not found).
const sh_tiff_library *sh_tiff_load(const char *soname, char *message, size_t message_capacity);

/// Opens the first image of the TIFF file in `data` (which must stay valid until `sh_tiff_close`)
/// and reads its size and orientation tag. No single allocation of libtiff may exceed
/// `max_allocation` bytes. libtiff's errors and warnings are kept, never printed. Returns NULL and
/// fills `message` on any error, or when libtiff cannot read the image as RGBA.
sh_tiff_reader *sh_tiff_open(const sh_tiff_library *library, const uint8_t *data, size_t size, uint64_t max_allocation,
                             uint32_t *width, uint32_t *height, uint16_t *orientation,
                             char *message, size_t message_capacity);

/// Reads `count` rows from `first_row` as 8-bit RGBA, in the order they are stored (the
/// orientation tag is not applied), into `rgba`, which holds `count` rows of width × 4 bytes.
/// Returns 0, or -1 and fills `message`.
int sh_tiff_read_rows(sh_tiff_reader *reader, uint32_t first_row, uint32_t count, uint8_t *rgba,
                      char *message, size_t message_capacity);

/// How many rows libtiff decodes together (a strip's, or a tile's height; at most the image's): a read
/// of some of them decodes the strip from its start through them, so rows are best read that many at a time.
uint32_t sh_tiff_rows_per_chunk(const sh_tiff_reader *reader);

/// Releases everything the reader holds. Safe to call with NULL.
void sh_tiff_close(sh_tiff_reader *reader);

#ifdef __cplusplus
}
#endif

#endif

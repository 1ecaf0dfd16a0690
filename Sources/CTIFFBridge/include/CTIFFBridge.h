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

/// Opens the first image of the TIFF file in `data` (which must stay valid until `sh_tiff_close`)
/// and reads its size and orientation tag. No single allocation of libtiff may exceed
/// `max_allocation` bytes. libtiff's errors and warnings are kept, never printed. Returns NULL and
/// fills `message` on any error, or when libtiff cannot read the image as RGBA.
sh_tiff_reader *sh_tiff_open(const uint8_t *data, size_t size, uint64_t max_allocation,
                             uint32_t *width, uint32_t *height, uint16_t *orientation,
                             char *message, size_t message_capacity);

/// Reads `count` rows from `first_row` as 8-bit RGBA, in the order they are stored (the
/// orientation tag is not applied), into `rgba`, which holds `count` rows of width × 4 bytes.
/// Returns 0, or -1 and fills `message`.
int sh_tiff_read_rows(sh_tiff_reader *reader, uint32_t first_row, uint32_t count, uint8_t *rgba,
                      char *message, size_t message_capacity);

/// Releases everything the reader holds. Safe to call with NULL.
void sh_tiff_close(sh_tiff_reader *reader);

#ifdef __cplusplus
}
#endif

#endif

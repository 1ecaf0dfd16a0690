#ifndef SHOWHIDE_CJPEGBRIDGE_H
#define SHOWHIDE_CJPEGBRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Size of the buffers the bridge writes error messages into.
#define SH_JPEG_MESSAGE_CAPACITY 200

/// What the header of a JPEG says, read before any pixel is allocated.
typedef struct {
    uint32_t image_width;
    uint32_t image_height;
    uint32_t output_width;
    uint32_t output_height;
} sh_jpeg_header;

typedef struct sh_jpeg_decoder sh_jpeg_decoder;

/// Reads the header of `data`, allocating no pixels. Returns NULL and fills `message` on any error.
/// `data` must stay valid until `sh_jpeg_decoder_close`.
sh_jpeg_decoder *sh_jpeg_decoder_open(const uint8_t *data, size_t size,
                                      sh_jpeg_header *header,
                                      char *message, size_t message_capacity);

/// Sets the decode to scale by 1/`scale_denominator` (1, 2, 4 or 8) and updates the output size
/// in `header`. Returns 0, or -1 and fills `message`.
int sh_jpeg_decoder_set_scale(sh_jpeg_decoder *decoder, int scale_denominator,
                              sh_jpeg_header *header,
                              char *message, size_t message_capacity);

/// Decodes every scanline into `rgba`, which holds output_height rows of `row_stride` bytes.
/// Returns 0 on success; on failure returns -1 and fills `message`. Warnings that mean
/// pixels were lost (a truncated file, a corrupt scan) count as failures.
int sh_jpeg_decoder_read(sh_jpeg_decoder *decoder, uint8_t *rgba, size_t row_stride,
                         char *message, size_t message_capacity);

/// Releases everything the decoder holds. Safe to call with NULL.
void sh_jpeg_decoder_close(sh_jpeg_decoder *decoder);

/// Encodes RGBA pixels (alpha ignored) as a baseline JPEG with 4:2:0 chroma subsampling.
/// `app1` (may be NULL) is written as an APP1 segment: an "Exif\0\0" payload of at most 65533 bytes;
/// `xmp_app1` (may be NULL) as a second one after it: "http://ns.adobe.com/xap/1.0/\0" and an XMP packet.
/// On success returns 0 and `*output` holds `*output_size` bytes, allocated with `malloc`, that the
/// caller frees with `free`. On failure returns -1 and fills `message`.
int sh_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_stride,
                   int quality, const uint8_t *app1, size_t app1_size,
                   const uint8_t *xmp_app1, size_t xmp_app1_size,
                   uint8_t **output, size_t *output_size,
                   char *message, size_t message_capacity);

/// Fills `row_count` rows of RGBA pixels, starting at row `first_row`, into `rgba` (rows `row_stride` apart).
typedef void (*sh_jpeg_row_source)(void *context, uint32_t first_row, uint32_t row_count, uint8_t *rgba, size_t row_stride);

/// As `sh_jpeg_encode`, but the pixels come from `source`, a band of 16 rows at a time, so that the
/// image need never be whole in memory.
int sh_jpeg_encode_rows(sh_jpeg_row_source source, void *context, uint32_t width, uint32_t height,
                        int quality, const uint8_t *app1, size_t app1_size,
                        const uint8_t *xmp_app1, size_t xmp_app1_size,
                        uint8_t **output, size_t *output_size,
                        char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif

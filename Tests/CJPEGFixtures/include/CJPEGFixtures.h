#ifndef SHOWHIDE_CJPEGFIXTURES_H
#define SHOWHIDE_CJPEGFIXTURES_H
#include <stddef.h>
#include <stdint.h>

/// Kinds of JPEG the tests make, beyond the product's own baseline colour encoder.
typedef enum {
    SHFX_GREY = 0,          ///< 1 component, samples are grey levels
    SHFX_PROGRESSIVE = 1,   ///< 3 components RGB in, progressive YCbCr out
    SHFX_ARITHMETIC = 2,    ///< 3 components RGB in, arithmetic-coded YCbCr out
    SHFX_ADOBE_CMYK = 3,    ///< 4 components of inverted CMYK in (Adobe's convention), CMYK out
    SHFX_ADOBE_YCCK = 4     ///< 4 components of inverted CMYK in, YCCK out
} shfx_kind;

/// Encodes `samples` (height rows of width × components bytes). Returns 0 and a malloc'd buffer,
/// or -1 if libjpeg refused.
int shfx_jpeg_encode(shfx_kind kind, const uint8_t *samples, uint32_t width, uint32_t height,
                     int quality, uint8_t **output, size_t *output_size);

void shfx_free(void *pointer);
#endif

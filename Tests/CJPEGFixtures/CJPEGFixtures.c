// Test-only JPEG writer for the kinds of file the product reads but never writes.
#include "CJPEGFixtures.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
} shfx_errors;

static void shfx_error_exit(j_common_ptr common) {
    longjmp(((shfx_errors *)common->err)->jump, 1);
}

int shfx_jpeg_encode(shfx_kind kind, const uint8_t *samples, uint32_t width, uint32_t height,
                     int quality, uint8_t **output, size_t *output_size) {
    struct jpeg_compress_struct info;
    shfx_errors errors;
    unsigned char *volatile buffer = NULL;
    unsigned long size = 0;
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = shfx_error_exit;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &size);
    info.image_width = width;
    info.image_height = height;
    int components = 3;
    switch (kind) {
    case SHFX_GREY: components = 1; info.in_color_space = JCS_GRAYSCALE; break;
    case SHFX_ADOBE_CMYK: case SHFX_ADOBE_YCCK: components = 4; info.in_color_space = JCS_CMYK; break;
    default: info.in_color_space = JCS_RGB; break;
    }
    info.input_components = components;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    if (kind == SHFX_PROGRESSIVE) jpeg_simple_progression(&info);
    if (kind == SHFX_ARITHMETIC) info.arith_code = TRUE;
    if (kind == SHFX_ADOBE_CMYK) jpeg_set_colorspace(&info, JCS_CMYK);
    if (kind == SHFX_ADOBE_YCCK) jpeg_set_colorspace(&info, JCS_YCCK);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < height) {
        JSAMPROW row = (JSAMPROW)(samples + (size_t)info.next_scanline * width * components);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = buffer;
    *output_size = size;
    return 0;
}

void shfx_free(void *pointer) { free(pointer); }

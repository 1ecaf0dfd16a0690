// Bridges libjpeg's longjmp-based error handling to return codes Swift can use.
// Every entry point that calls into libjpeg sets a jmp_buf first; the error manager
// formats the message, and on error or data-losing warning, jumps back.

#include "CJPEGBridge.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int fatal_warning;
    char message[JMSG_LENGTH_MAX];
} sh_error_manager;

struct sh_jpeg_decoder {
    struct jpeg_decompress_struct info;
    sh_error_manager errors;
    struct jpeg_progress_mgr progress;
    int output_cmyk;
    int saw_adobe;
    JSAMPARRAY scratch;
};

static void sh_copy_message(char *destination, size_t capacity, const char *source) {
    if (destination == NULL || capacity == 0) return;
    snprintf(destination, capacity, "%s", source);
}

static void sh_error_exit(j_common_ptr common) {
    sh_error_manager *errors = (sh_error_manager *)common->err;
    (*common->err->format_message)(common, errors->message);
    longjmp(errors->jump, 1);
}

static void sh_output_message(j_common_ptr common) {
    (void)common; // libjpeg must never print.
}

// Warnings after which the picture is incomplete or wrong.
static int sh_warning_loses_pixels(int code) {
    switch (code) {
    case JWRN_JPEG_EOF:
    case JWRN_HIT_MARKER:
    case JWRN_MUST_RESYNC:
    case JWRN_HUFF_BAD_CODE:
    case JWRN_NOT_SEQUENTIAL:
    case JWRN_BOGUS_PROGRESSION:
#ifdef JWRN_ARITH_BAD_CODE
    case JWRN_ARITH_BAD_CODE:
#endif
        return 1;
    default:
        return 0;
    }
}

static void sh_emit_message(j_common_ptr common, int level) {
    sh_error_manager *errors = (sh_error_manager *)common->err;
    if (level >= 0) return; // trace messages
    if (sh_warning_loses_pixels(common->err->msg_code)) {
        (*common->err->format_message)(common, errors->message);
        errors->fatal_warning = 1;
        longjmp(errors->jump, 1);
    }
    common->err->num_warnings++;
}

static void sh_install_errors(sh_error_manager *errors) {
    jpeg_std_error(&errors->base);
    errors->base.error_exit = sh_error_exit;
    errors->base.output_message = sh_output_message;
    errors->base.emit_message = sh_emit_message;
    errors->fatal_warning = 0;
    errors->message[0] = '\0';
}

// A camera's progressive JPEG has about ten scans. libjpeg reads any number, each a whole pass over
// the coefficients: a 1.3 MB file repeating one scan 10,000 times took 35 s to decode. Refused past
// this many, as djpeg's -maxscans and TurboJPEG 3's scan limit do.
#define SH_JPEG_MAX_SCANS 500

static void sh_progress(j_common_ptr common) {
    if (!common->is_decompressor) return;
    j_decompress_ptr info = (j_decompress_ptr)common;
    if (info->input_scan_number > SH_JPEG_MAX_SCANS) {
        sh_error_manager *errors = (sh_error_manager *)common->err;
        snprintf(errors->message, sizeof(errors->message),
                 "more than %d progressive scans (a camera writes about ten): refused, as decoding them would take minutes",
                 SH_JPEG_MAX_SCANS);
        longjmp(errors->jump, 1);
    }
}

static void sh_fill_header(const struct jpeg_decompress_struct *info, sh_jpeg_header *header) {
    header->image_width = info->image_width;
    header->image_height = info->image_height;
    header->output_width = info->output_width;
    header->output_height = info->output_height;
}

sh_jpeg_decoder *sh_jpeg_decoder_open(const uint8_t *data, size_t size,
                                      sh_jpeg_header *header,
                                      char *message, size_t message_capacity) {
    if (data == NULL || size == 0) {
        sh_copy_message(message, message_capacity, "empty input");
        return NULL;
    }
    sh_jpeg_decoder *volatile decoder = calloc(1, sizeof(sh_jpeg_decoder));
    if (decoder == NULL) {
        sh_copy_message(message, message_capacity, "out of memory");
        return NULL;
    }
    decoder->info.err = &decoder->errors.base;
    sh_install_errors(&decoder->errors);
    if (setjmp(decoder->errors.jump)) {
        sh_copy_message(message, message_capacity, decoder->errors.message);
        jpeg_destroy_decompress(&decoder->info);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->progress.progress_monitor = sh_progress;
    decoder->info.progress = &decoder->progress;
    jpeg_mem_src(&decoder->info, data, (unsigned long)size);
    jpeg_read_header(&decoder->info, TRUE);

    J_COLOR_SPACE stored = decoder->info.jpeg_color_space;
    if (stored == JCS_CMYK || stored == JCS_YCCK) {
        decoder->info.out_color_space = JCS_CMYK;
        decoder->output_cmyk = 1;
        decoder->saw_adobe = decoder->info.saw_Adobe_marker;
    } else {
        decoder->info.out_color_space = JCS_EXT_RGBA;
    }
    decoder->info.dct_method = JDCT_ISLOW;
    sh_fill_header(&decoder->info, header);
    return decoder;
}

int sh_jpeg_decoder_set_scale(sh_jpeg_decoder *decoder, int scale_denominator,
                              sh_jpeg_header *header,
                              char *message, size_t message_capacity) {
    if (decoder == NULL) {
        sh_copy_message(message, message_capacity, "no decoder");
        return -1;
    }
    if (scale_denominator != 1 && scale_denominator != 2 && scale_denominator != 4 && scale_denominator != 8) {
        sh_copy_message(message, message_capacity, "scale must be 1, 2, 4 or 8");
        return -1;
    }
    if (setjmp(decoder->errors.jump)) {
        sh_copy_message(message, message_capacity, decoder->errors.message);
        return -1;
    }
    decoder->info.scale_num = 1;
    decoder->info.scale_denom = (unsigned int)scale_denominator;
    jpeg_calc_output_dimensions(&decoder->info);
    sh_fill_header(&decoder->info, header);
    return 0;
}

// Adobe writes CMYK inverted (255 = no ink); other writers do not.
static void sh_cmyk_row_to_rgba(const JSAMPLE *cmyk, uint8_t *rgba, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        rgba[4 * x] = (uint8_t)((c * k + 127) / 255);
        rgba[4 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgba[4 * x + 2] = (uint8_t)((y * k + 127) / 255);
        rgba[4 * x + 3] = 255;
    }
}

int sh_jpeg_decoder_read(sh_jpeg_decoder *decoder, uint8_t *rgba, size_t row_stride,
                         char *message, size_t message_capacity) {
    if (decoder == NULL || rgba == NULL) {
        sh_copy_message(message, message_capacity, "no decoder or buffer");
        return -1;
    }
    if (setjmp(decoder->errors.jump)) {
        sh_copy_message(message, message_capacity, decoder->errors.message);
        return -1;
    }
    jpeg_start_decompress(&decoder->info);
    JDIMENSION width = decoder->info.output_width;
    if (decoder->output_cmyk && decoder->scratch == NULL) {
        decoder->scratch = (*decoder->info.mem->alloc_sarray)(
            (j_common_ptr)&decoder->info, JPOOL_IMAGE, width * 4, 1);
    }
    while (decoder->info.output_scanline < decoder->info.output_height) {
        uint8_t *row = rgba + (size_t)decoder->info.output_scanline * row_stride;
        if (decoder->output_cmyk) {
            jpeg_read_scanlines(&decoder->info, decoder->scratch, 1);
            sh_cmyk_row_to_rgba(decoder->scratch[0], row, width, decoder->saw_adobe);
        } else {
            JSAMPROW rows[1] = { row };
            jpeg_read_scanlines(&decoder->info, rows, 1);
        }
    }
    jpeg_finish_decompress(&decoder->info);
    return 0;
}

void sh_jpeg_decoder_close(sh_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

// Rows handed to libjpeg per call when they come from a row source: small enough to stay in cache.
#define SH_JPEG_BAND_ROWS 16

// Encodes from `rgba` when `source` is NULL, else from bands of rows the source fills.
static int sh_encode(const uint8_t *rgba, size_t row_stride, sh_jpeg_row_source source, void *context,
                     uint32_t width, uint32_t height, int quality, const uint8_t *app1, size_t app1_size,
                     const uint8_t *xmp_app1, size_t xmp_app1_size,
                     uint8_t **output, size_t *output_size, char *message, size_t message_capacity) {
    if ((rgba == NULL && source == NULL) || width == 0 || height == 0 || output == NULL || output_size == NULL) {
        sh_copy_message(message, message_capacity, "nothing to encode");
        return -1;
    }
    if (app1 != NULL && app1_size > 65533) {
        sh_copy_message(message, message_capacity, "EXIF block larger than 65533 bytes");
        return -1;
    }
    if (xmp_app1 != NULL && xmp_app1_size > 65533) {
        sh_copy_message(message, message_capacity, "XMP packet larger than 65533 bytes");
        return -1;
    }
    struct jpeg_compress_struct info;
    sh_error_manager errors;
    // The largest a 4:2:0 JPEG can be (libjpeg-turbo's tjBufSize: 3 bytes per pixel of the padded
    // image, plus headers), so that the memory destination never doubles and copies it, nor frees a
    // buffer it did not allocate. Pages never written cost nothing.
    unsigned long buffer_size = (unsigned long)((width + 15) & ~15u) * ((height + 15) & ~15u) * 3 + 2048 + app1_size + 4 + xmp_app1_size + 4;
    unsigned char *volatile buffer = malloc(buffer_size);
    uint8_t *volatile band = NULL;
    if (buffer == NULL) {
        sh_copy_message(message, message_capacity, "out of memory");
        return -1;
    }
    info.err = &errors.base;
    sh_install_errors(&errors);
    if (setjmp(errors.jump)) {
        sh_copy_message(message, message_capacity, errors.message);
        jpeg_destroy_compress(&info);
        free(buffer);
        free(band);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, (unsigned char **)&buffer, &buffer_size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality < 1 ? 1 : (quality > 100 ? 100 : quality), TRUE);
    info.optimize_coding = FALSE; // as cjpeg: the extra Huffman pass costs a fifth of the encode for ~5% smaller files
    jpeg_start_compress(&info, TRUE);
    if (app1 != NULL && app1_size > 0) {
        jpeg_write_marker(&info, JPEG_APP0 + 1, app1, (unsigned int)app1_size);
    }
    if (xmp_app1 != NULL && xmp_app1_size > 0) {
        jpeg_write_marker(&info, JPEG_APP0 + 1, xmp_app1, (unsigned int)xmp_app1_size);
    }
    if (source != NULL) {
        size_t band_stride = (size_t)width * 4;
        band = malloc(band_stride * SH_JPEG_BAND_ROWS);
        if (band == NULL) {
            sh_copy_message(message, message_capacity, "out of memory");
            jpeg_destroy_compress(&info);
            free(buffer);
            return -1;
        }
        JSAMPROW rows[SH_JPEG_BAND_ROWS];
        while (info.next_scanline < info.image_height) {
            uint32_t first = info.next_scanline;
            uint32_t count = info.image_height - first < SH_JPEG_BAND_ROWS ? info.image_height - first : SH_JPEG_BAND_ROWS;
            source(context, first, count, band, band_stride);
            for (uint32_t row = 0; row < count; row++) rows[row] = (JSAMPROW)(band + (size_t)row * band_stride);
            uint32_t written = 0;
            while (written < count) written += jpeg_write_scanlines(&info, rows + written, count - written);
        }
        free(band);
        band = NULL;
    } else {
        while (info.next_scanline < info.image_height) {
            JSAMPROW rows[1] = { (JSAMPROW)(rgba + (size_t)info.next_scanline * row_stride) };
            jpeg_write_scanlines(&info, rows, 1);
        }
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *output = buffer;
    *output_size = buffer_size;
    return 0;
}

int sh_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t row_stride,
                   int quality, const uint8_t *app1, size_t app1_size,
                   const uint8_t *xmp_app1, size_t xmp_app1_size,
                   uint8_t **output, size_t *output_size,
                   char *message, size_t message_capacity) {
    return sh_encode(rgba, row_stride, NULL, NULL, width, height, quality, app1, app1_size, xmp_app1, xmp_app1_size,
                     output, output_size, message, message_capacity);
}

int sh_jpeg_encode_rows(sh_jpeg_row_source source, void *context, uint32_t width, uint32_t height,
                        int quality, const uint8_t *app1, size_t app1_size,
                        const uint8_t *xmp_app1, size_t xmp_app1_size,
                        uint8_t **output, size_t *output_size,
                        char *message, size_t message_capacity) {
    return sh_encode(NULL, 0, source, context, width, height, quality, app1, app1_size, xmp_app1, xmp_app1_size,
                     output, output_size, message, message_capacity);
}


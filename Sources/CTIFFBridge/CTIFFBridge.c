#include "CTIFFBridge.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tiffio.h>

struct sh_tiff_library {
    __typeof__(&TIFFOpenOptionsAlloc) OpenOptionsAlloc;
    __typeof__(&TIFFOpenOptionsFree) OpenOptionsFree;
    __typeof__(&TIFFOpenOptionsSetMaxSingleMemAlloc) OpenOptionsSetMaxSingleMemAlloc;
    __typeof__(&TIFFOpenOptionsSetErrorHandlerExtR) OpenOptionsSetErrorHandlerExtR;
    __typeof__(&TIFFOpenOptionsSetWarningHandlerExtR) OpenOptionsSetWarningHandlerExtR;
    __typeof__(&TIFFClientOpenExt) ClientOpenExt;
    __typeof__(&TIFFClose) Close;
    __typeof__(&TIFFRGBAImageOK) RGBAImageOK;
    __typeof__(&TIFFRGBAImageBegin) RGBAImageBegin;
    __typeof__(&TIFFRGBAImageGet) RGBAImageGet;
    __typeof__(&TIFFRGBAImageEnd) RGBAImageEnd;
    __typeof__(&TIFFIsTiled) IsTiled;
    __typeof__(&TIFFGetFieldDefaulted) GetFieldDefaulted;
};

const sh_tiff_library *sh_tiff_load(const char *soname, char *message, size_t message_capacity) {
    // Local: libtiff's symbols stay out of the global namespace. Never closed, nor the table freed:
    // both are kept for the rest of the process.
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(message, message_capacity, "%s", reason ? reason : "cannot be loaded");
        return NULL;
    }
    sh_tiff_library *library = calloc(1, sizeof *library);
    if (library == NULL) {
        snprintf(message, message_capacity, "out of memory");
        dlclose(handle);
        return NULL;
    }
    // Each name looked up; the first missing one is the reason (an older libtiff than the header's).
    // The members' types are those of libtiff's header, taken from its declarations.
#define SH_TIFF_FIND(member)                                                                 \
    do {                                                                                     \
        void *symbol = dlsym(handle, "TIFF" #member);                                        \
        if (symbol == NULL) {                                                                \
            snprintf(message, message_capacity, "%s has no function TIFF%s", soname, #member); \
            free(library);                                                                   \
            dlclose(handle);                                                                 \
            return NULL;                                                                     \
        }                                                                                    \
        *(void **)&library->member = symbol;                                                 \
    } while (0)
    SH_TIFF_FIND(OpenOptionsAlloc);
    SH_TIFF_FIND(OpenOptionsFree);
    SH_TIFF_FIND(OpenOptionsSetMaxSingleMemAlloc);
    SH_TIFF_FIND(OpenOptionsSetErrorHandlerExtR);
    SH_TIFF_FIND(OpenOptionsSetWarningHandlerExtR);
    SH_TIFF_FIND(ClientOpenExt);
    SH_TIFF_FIND(Close);
    SH_TIFF_FIND(RGBAImageOK);
    SH_TIFF_FIND(RGBAImageBegin);
    SH_TIFF_FIND(RGBAImageGet);
    SH_TIFF_FIND(RGBAImageEnd);
    SH_TIFF_FIND(IsTiled);
    SH_TIFF_FIND(GetFieldDefaulted);
#undef SH_TIFF_FIND
    return library;
}

struct sh_tiff_reader {
    const sh_tiff_library *library;
    const uint8_t *data;
    uint64_t size;
    uint64_t offset;
    TIFF *tiff;
    TIFFRGBAImage image;
    int image_begun;
    /// The first error libtiff reported: later ones are mostly its consequences.
    char error[SH_TIFF_MESSAGE_CAPACITY];
};

static void copy_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) return;
    snprintf(message, capacity, "%s", text);
}

static int on_error(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)module;
    sh_tiff_reader *reader = user_data;
    if (reader->error[0] == 0) vsnprintf(reader->error, sizeof reader->error, format, arguments);
    return 1; // handled: libtiff prints nothing
}

static int on_warning(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)user_data;
    (void)module;
    (void)format;
    (void)arguments;
    return 1; // unknown tags and the like: not the user's concern
}

static tmsize_t read_bytes(thandle_t handle, void *buffer, tmsize_t size) {
    sh_tiff_reader *reader = handle;
    if (size <= 0 || reader->offset >= reader->size) return 0;
    uint64_t available = reader->size - reader->offset;
    uint64_t count = (uint64_t)size < available ? (uint64_t)size : available;
    memcpy(buffer, reader->data + reader->offset, count);
    reader->offset += count;
    return (tmsize_t)count;
}

static tmsize_t write_bytes(thandle_t handle, void *buffer, tmsize_t size) {
    (void)handle;
    (void)buffer;
    (void)size;
    return -1;
}

static toff_t seek(thandle_t handle, toff_t offset, int whence) {
    sh_tiff_reader *reader = handle;
    uint64_t base = whence == SEEK_CUR ? reader->offset : whence == SEEK_END ? reader->size : 0;
    if (offset > UINT64_MAX - base) return (toff_t)-1;
    reader->offset = base + offset;
    return reader->offset;
}

static int close_handle(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t size_of(thandle_t handle) {
    return ((sh_tiff_reader *)handle)->size;
}

static int map_none(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static void unmap_none(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

static void fail(sh_tiff_reader *reader, const char *fallback, char *message, size_t capacity) {
    copy_message(message, capacity, reader->error[0] ? reader->error : fallback);
}

sh_tiff_reader *sh_tiff_open(const sh_tiff_library *library, const uint8_t *data, size_t size, uint64_t max_allocation,
                             uint32_t *width, uint32_t *height, uint16_t *orientation,
                             char *message, size_t message_capacity) {
    sh_tiff_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        copy_message(message, message_capacity, "out of memory");
        return NULL;
    }
    reader->library = library;
    reader->data = data;
    reader->size = size;
    TIFFOpenOptions *options = library->OpenOptionsAlloc();
    if (options == NULL) {
        free(reader);
        copy_message(message, message_capacity, "out of memory");
        return NULL;
    }
    library->OpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_allocation);
    library->OpenOptionsSetErrorHandlerExtR(options, on_error, reader);
    library->OpenOptionsSetWarningHandlerExtR(options, on_warning, reader);
    // "m": never memory-map: the bytes are in memory already.
    reader->tiff = library->ClientOpenExt("photo", "rm", reader, read_bytes, write_bytes, seek, close_handle, size_of,
                                     map_none, unmap_none, options);
    library->OpenOptionsFree(options);
    if (reader->tiff == NULL) {
        fail(reader, "not a TIFF file libtiff can open", message, message_capacity);
        free(reader);
        return NULL;
    }
    char refusal[1024] = {0};
    if (!library->RGBAImageOK(reader->tiff, refusal)) {
        copy_message(message, message_capacity, refusal[0] ? refusal : "libtiff cannot read this image as RGBA");
        sh_tiff_close(reader);
        return NULL;
    }
    if (!library->RGBAImageBegin(&reader->image, reader->tiff, 0, refusal)) {
        copy_message(message, message_capacity, refusal[0] ? refusal : (reader->error[0] ? reader->error : "cannot read the image"));
        sh_tiff_close(reader);
        return NULL;
    }
    reader->image_begun = 1;
    // An error libtiff reported while reading the directories and went on from (a ResolutionUnit of 0, an
    // Orientation of 9) is none of the pixels': only those raised while reading them fail a read.
    reader->error[0] = 0;
    // Rows as stored: asking for the file's own orientation makes libtiff flip nothing.
    reader->image.req_orientation = reader->image.orientation;
    *width = reader->image.width;
    *height = reader->image.height;
    *orientation = reader->image.orientation;
    return reader;
}

int sh_tiff_read_rows(sh_tiff_reader *reader, uint32_t first_row, uint32_t count, uint8_t *rgba,
                      char *message, size_t message_capacity) {
    if (first_row >= reader->image.height || count > reader->image.height - first_row) {
        copy_message(message, message_capacity, "rows outside the image");
        return -1;
    }
    reader->image.row_offset = (int)first_row;
    reader->image.col_offset = 0;
    // libtiff writes each pixel as a 32-bit word, red in its lowest byte: RGBA bytes on a little-endian machine.
    if (!reader->library->RGBAImageGet(&reader->image, (uint32_t *)rgba, reader->image.width, count) || reader->error[0]) {
        fail(reader, "cannot read the image data", message, message_capacity);
        return -1;
    }
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    uint32_t *words = (uint32_t *)rgba;
    for (size_t index = 0; index < (size_t)reader->image.width * count; index++) words[index] = __builtin_bswap32(words[index]);
#endif
    return 0;
}

uint32_t sh_tiff_rows_per_chunk(const sh_tiff_reader *reader) {
    uint32_t rows = 0;
    int tiled = reader->library->IsTiled(reader->tiff);
    if (!reader->library->GetFieldDefaulted(reader->tiff, tiled ? TIFFTAG_TILELENGTH : TIFFTAG_ROWSPERSTRIP, &rows) || rows == 0) return 1;
    return rows < reader->image.height ? rows : reader->image.height;
}

void sh_tiff_close(sh_tiff_reader *reader) {
    if (reader == NULL) return;
    if (reader->image_begun) reader->library->RGBAImageEnd(&reader->image);
    if (reader->tiff != NULL) reader->library->Close(reader->tiff);
    free(reader);
}

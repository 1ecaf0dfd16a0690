#ifndef SHOWHIDE_CHEIFBRIDGE_H
#define SHOWHIDE_CHEIFBRIDGE_H

// libheif's types and names come from its header; its functions are reached only through the table
// below, loaded when the first HEIF file is met. Linked at start, libheif and the codecs it loads
// (libde265, x265, aom, dav1d) cost every process about 2.4 ms before main (Docs/Performance.md),
// a command that never sees a HEIF file too.
#include <libheif/heif.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// The table's members are never NULL once loaded (_Nonnull); the functions' own pointers are left as
// libheif's header leaves them, unannotated.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-completeness"

/// The libheif functions showhide calls.
typedef struct {
    struct heif_context *(* _Nonnull context_alloc)(void);
    void (* _Nonnull context_free)(struct heif_context *);
    void (* _Nonnull context_set_maximum_image_size_limit)(struct heif_context *, int);
    struct heif_error (* _Nonnull context_read_from_memory_without_copy)(struct heif_context *, const void *, size_t,
                                                               const struct heif_reading_options *);
    struct heif_error (* _Nonnull context_get_primary_image_handle)(struct heif_context *, struct heif_image_handle **);
    void (* _Nonnull image_handle_release)(const struct heif_image_handle *);
    int (* _Nonnull image_handle_get_width)(const struct heif_image_handle *);
    int (* _Nonnull image_handle_get_height)(const struct heif_image_handle *);
    int (* _Nonnull image_handle_get_ispe_width)(const struct heif_image_handle *);
    int (* _Nonnull image_handle_get_ispe_height)(const struct heif_image_handle *);
    int (* _Nonnull image_handle_get_list_of_metadata_block_IDs)(const struct heif_image_handle *, const char *, heif_item_id *, int);
    size_t (* _Nonnull image_handle_get_metadata_size)(const struct heif_image_handle *, heif_item_id);
    struct heif_error (* _Nonnull image_handle_get_metadata)(const struct heif_image_handle *, heif_item_id, void *);
    const char *(* _Nonnull image_handle_get_metadata_content_type)(const struct heif_image_handle *, heif_item_id);
    struct heif_error (* _Nonnull decode_image)(const struct heif_image_handle *, struct heif_image **, enum heif_colorspace,
                                      enum heif_chroma, const struct heif_decoding_options *);
    void (* _Nonnull image_release)(const struct heif_image *);
    int (* _Nonnull image_get_width)(const struct heif_image *, enum heif_channel);
    int (* _Nonnull image_get_height)(const struct heif_image *, enum heif_channel);
    const uint8_t *(* _Nonnull image_get_plane_readonly)(const struct heif_image *, enum heif_channel, int *);
} sh_heif_functions;

#pragma clang diagnostic pop

/// Loads the library named `soname` (dlopen; never closed) and fills `functions`. Returns 0, or -1
/// with the loader's reason in `message` (a library or a function not found), `functions` then unset.
int sh_heif_load(const char *_Nonnull soname, sh_heif_functions *_Nonnull functions, char *_Nonnull message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif

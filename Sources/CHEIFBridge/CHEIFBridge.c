#include "CHEIFBridge.h"

#include <dlfcn.h>
#include <stdio.h>

int sh_heif_load(const char *soname, sh_heif_functions *functions, char *message, size_t message_capacity) {
    // Local: libheif's symbols stay out of the global namespace. Never closed: its functions are
    // kept for the rest of the process.
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(message, message_capacity, "%s", reason ? reason : "cannot be loaded");
        return -1;
    }
    // Each name looked up; the first missing one is the reason (an older libheif than the header's).
    // The static assertion holds the table's types to libheif's header: a mismatch does not compile.
#define SH_HEIF_FIND(member)                                                                  \
    do {                                                                                      \
        _Static_assert(__builtin_types_compatible_p(__typeof__(&heif_##member),               \
                                                    __typeof__(functions->member)),           \
                       "heif_" #member " as libheif.h declares it");                          \
        void *symbol = dlsym(library, "heif_" #member);                                      \
        if (symbol == NULL) {                                                                 \
            snprintf(message, message_capacity, "%s has no function heif_%s", soname, #member); \
            return -1;                                                                        \
        }                                                                                     \
        *(void **)&functions->member = symbol;                                                \
    } while (0)
    SH_HEIF_FIND(context_alloc);
    SH_HEIF_FIND(context_free);
    SH_HEIF_FIND(context_set_maximum_image_size_limit);
    SH_HEIF_FIND(context_read_from_memory_without_copy);
    SH_HEIF_FIND(context_get_primary_image_handle);
    SH_HEIF_FIND(image_handle_release);
    SH_HEIF_FIND(image_handle_get_width);
    SH_HEIF_FIND(image_handle_get_height);
    SH_HEIF_FIND(image_handle_get_ispe_width);
    SH_HEIF_FIND(image_handle_get_ispe_height);
    SH_HEIF_FIND(image_handle_get_list_of_metadata_block_IDs);
    SH_HEIF_FIND(image_handle_get_metadata_size);
    SH_HEIF_FIND(image_handle_get_metadata);
    SH_HEIF_FIND(image_handle_get_metadata_content_type);
    SH_HEIF_FIND(decode_image);
    SH_HEIF_FIND(image_release);
    SH_HEIF_FIND(image_get_width);
    SH_HEIF_FIND(image_get_height);
    SH_HEIF_FIND(image_get_plane_readonly);
#undef SH_HEIF_FIND
    return 0;
}

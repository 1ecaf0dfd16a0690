#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
// The floor for importing HEIF photos: libheif's own decode of each file's primary image to
// interleaved RGBA (what showhide asks for), nothing else.
int main(int argc, char** argv) {
  for (int i = 1; i < argc; i++) {
    FILE* f = fopen(argv[i], "rb"); if (!f) continue;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char* data = malloc(n); fread(data, 1, n, f); fclose(f);
    struct heif_context* ctx = heif_context_alloc();
    struct heif_image_handle* handle; struct heif_image* image;
    if (heif_context_read_from_memory_without_copy(ctx, data, n, NULL).code == heif_error_Ok &&
        heif_context_get_primary_image_handle(ctx, &handle).code == heif_error_Ok) {
      if (heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, NULL).code == heif_error_Ok)
        heif_image_release(image);
      heif_image_handle_release(handle);
    }
    heif_context_free(ctx); free(data);
  }
  return 0;
}

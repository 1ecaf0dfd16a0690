#include "CAllocator.h"

// Any C library header defines __GLIBC__ when the C library is glibc.
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int sh_allocator_keep_freed_memory(void) {
#if defined(__GLIBC__)
    // Blocks under 32 MB (a photo of up to 8 megapixels decoded) come from the heap, not from mmap; up to
    // 64 MB free at the heap's top is kept. A larger photo's pixels still go back to the kernel when
    // freed: kept, two jobs' 12-megapixel photos raised the peak memory by half.
    return mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, 64 << 20) == 1;
#else
    return 0;
#endif
}

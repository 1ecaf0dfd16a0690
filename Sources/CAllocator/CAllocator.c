#include "CAllocator.h"

// Any C library header defines __GLIBC__ when the C library is glibc.
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int sh_allocator_keep_freed_memory(void) {
#if defined(__GLIBC__)
    // Blocks under 64 MB come from the heap, not from mmap; up to 128 MB free at the heap's top is kept.
    return mallopt(M_MMAP_THRESHOLD, 64 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, 128 << 20) == 1;
#else
    return 0;
#endif
}

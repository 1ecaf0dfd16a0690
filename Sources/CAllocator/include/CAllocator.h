#ifndef SHOWHIDE_CALLOCATOR_H
#define SHOWHIDE_CALLOCATOR_H

#ifdef __cplusplus
extern "C" {
#endif

/// Tells glibc's allocator to keep the memory of freed blocks of up to 32 MB for the next ones,
/// rather than giving it back to the kernel and asking again: a decoded photo, its rasters and its
/// variants' buffers are made anew for every photo, and fresh pages cost a fault and the kernel's
/// zeroing each time (Docs/Performance.md). Returns 1 when the allocator took both settings, 0 when
/// it did not (another C library: nothing changes).
int sh_allocator_keep_freed_memory(void);

#ifdef __cplusplus
}
#endif

#endif

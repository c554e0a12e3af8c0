// The memory-capped thumbnail helper (`sheaf-thumbnailer one`) must tell "this image needs more
// memory than a thumbnail may use" from "this image is damaged". Every library it runs (libvips,
// libspng, libjpeg, libheif, librsvg) words a failed allocation its own way, so the helper does
// not read their messages: the allocator itself is watched. These definitions interpose glibc's
// malloc family for the whole process (libraries bind to the executable's definitions first),
// forward to glibc's own implementation, and record whether any call returned NULL.
// Linked into `sheaf-thumbnailer` only.
#include "allocation_watch.h"

#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static int sheaf_failed;

static void *watched(void *pointer, size_t size) {
    if (pointer == NULL && size != 0) __atomic_store_n(&sheaf_failed, 1, __ATOMIC_RELAXED);
    return pointer;
}

int sheaf_allocation_failed(void) {
    return __atomic_load_n(&sheaf_failed, __ATOMIC_RELAXED);
}

void *malloc(size_t size) { return watched(__libc_malloc(size), size); }

void *calloc(size_t count, size_t size) { return watched(__libc_calloc(count, size), count * size); }

void *realloc(void *pointer, size_t size) { return watched(__libc_realloc(pointer, size), size); }

void *memalign(size_t alignment, size_t size) { return watched(__libc_memalign(alignment, size), size); }

void *aligned_alloc(size_t alignment, size_t size) { return watched(__libc_memalign(alignment, size), size); }

void *valloc(size_t size) { return watched(__libc_valloc(size), size); }

void *pvalloc(size_t size) { return watched(__libc_pvalloc(size), size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
    // glibc's own checks: a power of two, a multiple of the size of a pointer.
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    void *pointer = watched(__libc_memalign(alignment, size), size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *out = pointer;
    return 0;
}

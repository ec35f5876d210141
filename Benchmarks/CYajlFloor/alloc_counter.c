/* Allocation counting for the benchmarks: the Benchmarks executable defines the glibc allocation functions,
 * so the dynamic linker binds every malloc/free of the process (Swift runtime, Foundation, yajl) to these
 * definitions, which count the call and forward to glibc's own implementation (__libc_malloc & co., exported
 * by glibc for exactly this purpose). Only the Benchmarks executable links this file; the library and the
 * tests allocate through glibc directly. */
#include "alloc_counter.h"
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static uint64_t allocations;
static uint64_t allocated_bytes;
static uint64_t frees;

static inline void count(size_t size) {
    __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&allocated_bytes, (uint64_t)size, __ATOMIC_RELAXED);
}

uint64_t alloc_counter_read(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }
uint64_t alloc_counter_bytes(void) { return __atomic_load_n(&allocated_bytes, __ATOMIC_RELAXED); }
uint64_t alloc_counter_frees(void) { return __atomic_load_n(&frees, __ATOMIC_RELAXED); }
int alloc_counter_active(void) { return alloc_counter_read() > 0; }

void *malloc(size_t size) {
    count(size);
    return __libc_malloc(size);
}

void *calloc(size_t count_, size_t size) {
    count(count_ * size);
    return __libc_calloc(count_, size);
}

void *realloc(void *pointer, size_t size) {
    count(size);
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    if (pointer != NULL) __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED);
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count(size);
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0 || alignment == 0) return EINVAL;
    count(size);
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

void *valloc(size_t size) {
    count(size);
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count(size);
    return __libc_pvalloc(size);
}

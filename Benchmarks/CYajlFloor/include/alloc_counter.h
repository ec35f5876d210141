#ifndef MODELMAPPER_ALLOC_COUNTER_H
#define MODELMAPPER_ALLOC_COUNTER_H
#include <stdint.h>

/// Heap allocations of the whole process so far: calls to malloc, calloc, realloc, posix_memalign,
/// aligned_alloc, memalign, valloc and pvalloc (alloc_counter.c interposes them in the Benchmarks
/// executable and forwards to glibc's __libc_* functions). Relaxed atomic counters: exact for the calling
/// thread's work when no other thread allocates meanwhile.
uint64_t alloc_counter_read(void);

/// Bytes requested by those calls so far (realloc counts its new size).
uint64_t alloc_counter_bytes(void);

/// Calls to free with a non-null pointer so far.
uint64_t alloc_counter_frees(void);

/// 1 when the interposed functions have been called at least once (i.e. interposition works), else 0.
int alloc_counter_active(void);

#endif

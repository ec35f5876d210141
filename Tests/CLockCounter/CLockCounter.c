// Counts every mutex acquisition of the process (HotPathLockTests), by defining the pthread lock
// functions in the test executable: on Linux the dynamic linker binds every library's calls to them
// (Foundation's NSLock and NSCondition, the Swift runtime's locks, libc's pthread callers, the library's
// own pthread mutexes) to these definitions, which count and forward to libc's.
//
// Not seen: locks that never call these functions — Synchronization.Mutex (futexes, no pthread call),
// libdispatch's internal locks (its own futex-based locks) and libc's internal locks (malloc, stdio).
// ModelMapper uses none of them on a decode path (HotPathLockTests checks the sources for the first).
//
// A condition wait re-takes its mutex inside libc and is not counted again: every wait follows a counted
// lock of the same mutex.
//
// The real functions are libc's next definitions (`dlsym(RTLD_NEXT, …)`), looked up on first use; glibc's
// dlsym locks through the loader's own lock, not through these functions. Outside glibc nothing is
// interposed and the counters report -1; so under a sanitizer, whose runtime (linked into the executable)
// intercepts these functions itself and would be bypassed by these definitions.
#define _GNU_SOURCE
#include "CLockCounter.h"
#include <stdlib.h>  // defines __GLIBC__ (glibc)

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define CLOCKCOUNTER_SANITIZED 1
#endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(CLOCKCOUNTER_SANITIZED)
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static long process_total = 0;  // read and written with __atomic builtins
static _Thread_local long thread_total = 0;

static int tracing = 0;  // read and written with __atomic builtins
static _Thread_local int inside_trace = 0;

static inline void count_one(void) {
    __atomic_fetch_add(&process_total, 1, __ATOMIC_RELAXED);
    thread_total += 1;
    if (__atomic_load_n(&tracing, __ATOMIC_RELAXED) && !inside_trace) {
        // Debugging aid: who took the lock (the backtrace may lock in turn: not traced again).
        inside_trace = 1;
        void *frames[32];
        int count = backtrace(frames, 32);
        backtrace_symbols_fd(frames, count, 2);
        static const char separator[] = "----\n";
        (void)!write(2, separator, sizeof separator - 1);
        inside_trace = 0;
    }
}

void clock_counter_trace(int on) { __atomic_store_n(&tracing, on, __ATOMIC_RELAXED); }

typedef int (*mutex_function)(pthread_mutex_t *);
typedef int (*rwlock_function)(pthread_rwlock_t *);

/// libc's definition of `name` (the one after this executable's); aborts if there is none.
static void *next_definition(const char *name) {
    void *found = dlsym(RTLD_NEXT, name);
    if (!found) abort();
    return found;
}

#define FORWARD(type, name, argument)                                                   \
    static type real = 0;                                                                \
    type function = __atomic_load_n(&real, __ATOMIC_ACQUIRE);                            \
    if (!function) {                                                                      \
        function = (type)next_definition(name);                                          \
        __atomic_store_n(&real, function, __ATOMIC_RELEASE);                             \
    }                                                                                     \
    return function(argument)

int pthread_mutex_lock(pthread_mutex_t *mutex) {
    count_one();
    FORWARD(mutex_function, "pthread_mutex_lock", mutex);
}

int pthread_mutex_trylock(pthread_mutex_t *mutex) {
    count_one();
    FORWARD(mutex_function, "pthread_mutex_trylock", mutex);
}

int pthread_rwlock_rdlock(pthread_rwlock_t *lock) {
    count_one();
    FORWARD(rwlock_function, "pthread_rwlock_rdlock", lock);
}

int pthread_rwlock_wrlock(pthread_rwlock_t *lock) {
    count_one();
    FORWARD(rwlock_function, "pthread_rwlock_wrlock", lock);
}

long clock_counter_process_total(void) { return __atomic_load_n(&process_total, __ATOMIC_RELAXED); }
long clock_counter_thread_total(void) { return thread_total; }
int clock_counter_available(void) { return 1; }

#else

void clock_counter_trace(int on) { (void)on; }
long clock_counter_process_total(void) { return -1; }
long clock_counter_thread_total(void) { return -1; }
int clock_counter_available(void) { return 0; }

#endif

#ifndef MODELMAPPER_CYAJL_SHIM_H
#define MODELMAPPER_CYAJL_SHIM_H
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

/* yajl_config is variadic and cannot be called from Swift; these wrappers can. */
static inline int cyajl_allow_multiple_values(yajl_handle handle, int enabled) {
    return yajl_config(handle, yajl_allow_multiple_values, enabled);
}

static inline int cyajl_allow_partial_values(yajl_handle handle, int enabled) {
    return yajl_config(handle, yajl_allow_partial_values, enabled);
}

/* Takes effect when set before the handle's first yajl_parse (yajl makes its lexer then). */
static inline int cyajl_dont_validate_strings(yajl_handle handle, int enabled) {
    return yajl_config(handle, yajl_dont_validate_strings, enabled);
}

/* The calling thread's stack (lowest address and size), for ModelMapper's recursion guard. glibc's
   pthread_getattr_np is a GNU extension that the Swift Glibc module does not expose; its prototype is
   declared here. Returns 0 on success. */
#if defined(__linux__)
#include <pthread.h>
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);
static inline int cyajl_current_stack(void **low, size_t *size) {
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return -1;
    int result = pthread_attr_getstack(&attributes, low, size);
    pthread_attr_destroy(&attributes);
    return result;
}
#elif defined(__APPLE__)
/* Darwin: pthread_get_stackaddr_np gives the stack's highest address (stacks grow down). */
#include <pthread.h>
static inline int cyajl_current_stack(void **low, size_t *size) {
    pthread_t self = pthread_self();
    size_t s = pthread_get_stacksize_np(self);
    *low = (char *)pthread_get_stackaddr_np(self) - s;
    *size = s;
    return 0;
}
#else
static inline int cyajl_current_stack(void **low, size_t *size) { return -1; }
#endif

/* The current frame's address on the real thread stack. A Swift local's address is not usable for this:
   under AddressSanitizer locals may live on a heap-allocated "fake stack". */
static inline const void *cyajl_frame_address(void) {
    return __builtin_frame_address(0);
}
#endif

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
#endif

#include "yajl_floor.h"
#include <yajl/yajl_parse.h>
#include <yajl/yajl_version.h>

/* Every callback counts one token and lets yajl continue. */
static int on_null(void *ctx) { ++*(size_t *)ctx; return 1; }
static int on_boolean(void *ctx, int value) { (void)value; ++*(size_t *)ctx; return 1; }
static int on_integer(void *ctx, long long value) { (void)value; ++*(size_t *)ctx; return 1; }
static int on_double(void *ctx, double value) { (void)value; ++*(size_t *)ctx; return 1; }
static int on_number(void *ctx, const char *text, size_t length) {
    (void)text; (void)length; ++*(size_t *)ctx; return 1;
}
static int on_string(void *ctx, const unsigned char *text, size_t length) {
    (void)text; (void)length; ++*(size_t *)ctx; return 1;
}
static int on_start_map(void *ctx) { ++*(size_t *)ctx; return 1; }
static int on_map_key(void *ctx, const unsigned char *key, size_t length) {
    (void)key; (void)length; ++*(size_t *)ctx; return 1;
}
static int on_end_map(void *ctx) { ++*(size_t *)ctx; return 1; }
static int on_start_array(void *ctx) { ++*(size_t *)ctx; return 1; }
static int on_end_array(void *ctx) { ++*(size_t *)ctx; return 1; }

/* Numbers as text: yajl skips its own conversion when yajl_number is set. */
static const yajl_callbacks raw_number_callbacks = {
    on_null, on_boolean, NULL, NULL, on_number, on_string,
    on_start_map, on_map_key, on_end_map, on_start_array, on_end_array
};

/* Numbers converted by yajl (strtoll / strtod). */
static const yajl_callbacks converted_number_callbacks = {
    on_null, on_boolean, on_integer, on_double, NULL, on_string,
    on_start_map, on_map_key, on_end_map, on_start_array, on_end_array
};

size_t yajl_floor_parse(const unsigned char *bytes, size_t length, int raw_numbers) {
    size_t tokens = 0;
    yajl_handle handle = yajl_alloc(raw_numbers ? &raw_number_callbacks : &converted_number_callbacks, NULL, &tokens);
    if (handle == NULL) return 0;
    yajl_status status = yajl_parse(handle, bytes, length);
    if (status == yajl_status_ok) status = yajl_complete_parse(handle);
    yajl_free(handle);
    return status == yajl_status_ok ? tokens : 0;
}

int yajl_floor_yajl_version(void) { return yajl_version(); }

#ifndef MODELMAPPER_YAJL_FLOOR_H
#define MODELMAPPER_YAJL_FLOOR_H
#include <stddef.h>

/// The parse floor of the benchmarks: parses `length` bytes of JSON with yajl and callbacks that only count
/// tokens. With `raw_numbers` non-zero numbers arrive as text through yajl's `yajl_number` callback (what
/// ModelMapper uses); with zero yajl converts them itself (`yajl_integer` / `yajl_double`).
/// Returns the number of tokens (values, keys, container starts and ends), 0 when the JSON is invalid.
size_t yajl_floor_parse(const unsigned char *bytes, size_t length, int raw_numbers);

/// yajl's version as major * 10000 + minor * 100 + micro (yajl_version()).
int yajl_floor_yajl_version(void);

#endif

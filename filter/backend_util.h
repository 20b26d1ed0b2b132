/* backend_util.h -- helpers shared by the built-in backends: --mt-option
 * lookup and checking, small string tools. Not installed. */
#ifndef XMT_BACKEND_UTIL_H
#define XMT_BACKEND_UTIL_H

#ifndef XMT_BUILDING_LIBRARY
#error "backend_util.h is internal to libxliffmt"
#endif

#include <stddef.h>

#include "filter_private.h"

/* Fails (writes errbuf, returns 1) when an option is not KEY=VALUE or its
 * KEY is not in known (NULL-terminated); backend names the backend in the
 * message. */
int xmt_backend_check_options(const struct xmt_backend_config *config,
                              const char *backend, const char *const *known,
                              char *errbuf, size_t errlen);

/* The value of the last option KEY=VALUE, or NULL. Borrowed from config. */
const char *xmt_backend_option(const struct xmt_backend_config *config,
                               const char *key);

/* Option KEY as an unsigned integer in [min, max]; *value keeps its
 * default when the option is absent. Returns 1 with a message when the
 * value is not such a number. */
int xmt_backend_option_uint(const struct xmt_backend_config *config,
                            const char *backend, const char *key, unsigned min,
                            unsigned max, unsigned *value, char *errbuf,
                            size_t errlen);

/* Option KEY as seconds (decimals allowed, >0, at most a day) into
 * milliseconds; *ms keeps its default when absent. */
int xmt_backend_option_seconds(const struct xmt_backend_config *config,
                               const char *backend, const char *key,
                               unsigned *ms, char *errbuf, size_t errlen);

/* The Apertium name of a BCP 47 language tag: the ISO 639-3 code of its
 * primary subtag ("en-GB" -> "eng"), or the primary subtag itself, lower
 * case; region gets its region subtag upper case ("GB"), or "". */
void xmt_apertium_language(const char *tag, char *out, size_t outlen,
                           char *region, size_t regionlen);

/* Appends to out the JSON string found in doc by path, a NULL-terminated
 * list of object keys (e.g. {"responseData", "translatedText", NULL}),
 * with escapes decoded (\uXXXX and surrogate pairs to UTF-8). The whole
 * document must be valid JSON. 0 found; 1 valid without it (or not a
 * string); -1 not JSON; -2 out of memory. (backend_http.c) */
int xmt_json_string_at(const char *doc, size_t len, const char *const *path,
                       struct xmt_buf *out);

/* Milliseconds on a monotonic clock. */
unsigned long long xmt_now_ms(void);

#endif /* XMT_BACKEND_UTIL_H */

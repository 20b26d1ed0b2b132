/* renamed.c -- the offline MT functions under the names of the naming
 * scheme (xmt_filter.h, "Offline MT"). Their bodies are still format.c's,
 * under the names of xliffmt 0.1, which stay one release, deprecated;
 * when those go, the bodies take these names and this file goes. */
#include "config.h"

#include "filter_private.h"

/* The old names are called on purpose here. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

xmt_status xmt_filter_extract_segments_file(xmt_filter *f, const char *in_path,
                                            const char *out_path,
                                            enum xmt_segments_format format) {
  return xmt_filter_extract_file(f, in_path, out_path, format);
}

xmt_status xmt_filter_merge_segments_file(xmt_filter *f, const char *in_path,
                                          const char *translations,
                                          const char *alignments,
                                          const char *source_tokens,
                                          const char *target_tokens,
                                          const char *out_path) {
  return xmt_filter_merge_file(f, in_path, translations, alignments,
                               source_tokens, target_tokens, out_path);
}

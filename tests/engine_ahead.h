/* engine_ahead.h -- a test engine for runs whose reader has a thread of
 * its own: it uppercases; its first call waits (patience tenths of a
 * second, 0: 5 s) for the reader to have read wait_units units and keeps
 * the count it saw; it fails from call fail_from on (0: never). */
#ifndef XMT_TEST_ENGINE_AHEAD_H
#define XMT_TEST_ENGINE_AHEAD_H

#include <stddef.h>

#include "xmt_filter.h"

struct xmt_test_engine {
  xmt_filter *f;
  size_t wait_units, seen;
  int calls, fail_from, patience;
};

/* The units the run has read so far (its reader's thread counts them). */
size_t xmt_test_units_read(xmt_filter *f);
/* A filter with the engine e, src to tgt (NULL: the document's), one
 * unit a window. */
xmt_filter *xmt_test_engine_filter(struct xmt_test_engine *e, const char *src,
                                   const char *tgt);

#endif

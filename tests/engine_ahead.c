/* engine_ahead.c -- the test engine of engine_ahead.h. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "engine_ahead.h"

size_t xmt_test_units_read(xmt_filter *f) {
  const size_t *units = &xmt_filter_stats(f)->units;
  return __atomic_load_n(units, __ATOMIC_RELAXED);
}

static int engine_open(void *user, const struct xmt_backend_config *config,
                       void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  *state = user;
  return 0;
}

static int engine_translate(void *state, const struct xmt_mt_request *req,
                            xmt_mt_response *const *resp, size_t n) {
  struct xmt_test_engine *e = state;
  if (e->calls++ == 0 && e->wait_units > 0) {
    int rounds = (e->patience > 0 ? e->patience : 50) * 10;
    for (int k = 0; k < rounds && xmt_test_units_read(e->f) < e->wait_units;
         k++) {
      struct timespec ts = {0, 10000000};
      nanosleep(&ts, NULL);
    }
    e->seen = xmt_test_units_read(e->f);
  }
  if (e->fail_from > 0 && e->calls >= e->fail_from)
    return -1;
  for (size_t i = 0; i < n; i++) {
    char buf[512];
    snprintf(buf, sizeof buf, "%s", req[i].text);
    for (char *p = buf; *p; p++)
      if (*p >= 'a' && *p <= 'z')
        *p = (char)(*p - 'a' + 'A');
    xmt_mt_response_set_text(resp[i], buf, strlen(buf));
  }
  return 0;
}

static void engine_close(void *state) { (void)state; }

static const struct xmt_backend engine_backend = {
    XMT_BACKEND_ABI_VERSION, "engine",     engine_open,
    engine_translate,        engine_close, NULL};

xmt_filter *xmt_test_engine_filter(struct xmt_test_engine *e, const char *src,
                                   const char *tgt) {
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  e->f = f;
  if (src != NULL || tgt != NULL)
    CU_ASSERT_EQUAL(xmt_filter_set_languages(f, src, tgt), XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &engine_backend, e, NULL), XMT_OK);
  xmt_filter_set_window(f, 1);
  return f;
}

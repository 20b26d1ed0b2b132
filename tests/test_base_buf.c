/* test_base_buf.c -- base/buf.c: array growth that refuses sizes a size_t
 * cannot hold, byte buffers and a stream read into one. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base_private.h"
#include "harness.h"

static void test_grow(void) {
  size_t cap = 0;
  int *v = xmt_grow_array(NULL, &cap, 9, sizeof *v);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  CU_ASSERT_EQUAL(cap, 16); /* 8, doubled */
  v[15] = 7;
  /* Room enough: the same array, untouched. */
  CU_ASSERT_PTR_EQUAL(xmt_grow_array(v, &cap, 16, sizeof *v), v);
  CU_ASSERT_EQUAL(cap, 16);
  int *w = xmt_grow_array(v, &cap, 100, sizeof *v);
  CU_ASSERT_PTR_NOT_NULL_FATAL(w);
  CU_ASSERT_EQUAL(cap, 128);
  CU_ASSERT_EQUAL(w[15], 7);
  free(w);
  /* n == 0 still makes an array. */
  cap = 0;
  char *c = xmt_grow_array(NULL, &cap, 0, 1);
  CU_ASSERT_PTR_NOT_NULL(c);
  CU_ASSERT_EQUAL(cap, 8);
  free(c);
}

static void test_grow_overflow(void) {
  size_t cap = 8;
  char *v = malloc(8);
  CU_ASSERT_PTR_NOT_NULL_FATAL(v);
  memcpy(v, "kept....", 8);
  /* The doubling itself would wrap. */
  CU_ASSERT_PTR_NULL(xmt_grow_array(v, &cap, SIZE_MAX / 2 + 2, 1));
  CU_ASSERT_EQUAL(cap, 8);
  CU_ASSERT_PTR_NULL(xmt_grow_array(v, &cap, SIZE_MAX, 1));
  CU_ASSERT_EQUAL(cap, 8);
  /* The count fits, its bytes do not. */
  CU_ASSERT_PTR_NULL(xmt_grow_array(v, &cap, SIZE_MAX / 8 + 1, 16));
  CU_ASSERT_EQUAL(cap, 8);
  CU_ASSERT_PTR_NULL(xmt_grow_array(NULL, &cap, (SIZE_MAX >> 4) + 1, 32));
  CU_ASSERT_EQUAL(cap, 8);
  /* v is untouched, still the caller's. */
  CU_ASSERT_EQUAL(memcmp(v, "kept....", 8), 0);
  free(v);
}

static void test_buf(void) {
  struct xmt_buf b = {0};
  CU_ASSERT_EQUAL(xmt_buf_append_str(&b, "caf"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_buf_append_utf8(&b, 0xE9), XMT_OK);
  CU_ASSERT_EQUAL(xmt_buf_append_byte(&b, '!'), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(b.data, b.len, "caf\xC3\xA9!", 6);
  CU_ASSERT_EQUAL(b.data[b.len], '\0');
  xmt_buf_reset(&b);
  CU_ASSERT_EQUAL(b.len, 0);
  CU_ASSERT_STRING_EQUAL(b.data, "");
  /* A length that wraps is refused, the buffer kept. */
  CU_ASSERT_EQUAL(xmt_buf_grow(&b, SIZE_MAX), XMT_ERR_NOMEM);
  CU_ASSERT_EQUAL(xmt_buf_grow(&b, SIZE_MAX / 2 + 1), XMT_ERR_NOMEM);
  CU_ASSERT_PTR_NOT_NULL(b.data);
  xmt_buf_free(&b);
  CU_ASSERT_PTR_NULL(b.data);
  CU_ASSERT_EQUAL(b.cap, 0);
}

/* A whole stream into a buffer, past one chunk; the stream closed. A
 * stream opened for writing only fails to read: recorded against the
 * path. */
static void test_stream(void) {
  FILE *fp = tmpfile();
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  for (int i = 0; i < 70000; i++)
    fputc('a' + i % 26, fp);
  rewind(fp);
  struct xmt_buf b = {0};
  struct xmt_error_store err = {0};
  CU_ASSERT_EQUAL(xmt_buf_append_str(&b, ">"), XMT_OK);
  CU_ASSERT_EQUAL(xmt_buf_append_stream(&b, fp, "t", &err), XMT_OK);
  CU_ASSERT_EQUAL(b.len, 70001);
  CU_ASSERT_EQUAL(b.data[70000], 'a' + 69999 % 26);
  CU_ASSERT_EQUAL(err.pub.status, XMT_OK);
  char path[] = "/tmp/xmt-test-buf.XXXXXX";
  int fd = mkstemp(path);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  fp = fopen(path, "w");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  CU_ASSERT_EQUAL(xmt_buf_append_stream(&b, fp, path, &err), XMT_ERR_IO);
  CU_ASSERT_EQUAL(err.pub.status, XMT_ERR_IO);
  CU_ASSERT_STRING_EQUAL(err.pub.file, path);
  CU_ASSERT_EQUAL(strncmp(err.pub.message, "cannot read: ", 13), 0);
  CU_ASSERT_EQUAL(b.len, 70001);
  unlink(path);
  xmt_error_clear(&err);
  xmt_buf_free(&b);
}

/* One element at a time: each zeroed, the earlier ones kept, the array
 * untouched when the count cannot grow; then cut down to its elements. */
static void test_grow_one(void) {
  struct pair {
    int a;
    long b;
  } *v = NULL;
  size_t n = 0, cap = 0;
  for (int i = 0; i < 100; i++) {
    struct pair *p = xmt_grow_one(&v, n, &cap, sizeof *v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_EQUAL(p, &v[n]);
    CU_ASSERT(p->a == 0 && p->b == 0);
    p->a = i;
    p->b = -i;
    n++;
  }
  CU_ASSERT_EQUAL(cap, 128);
  for (int i = 0; i < 100; i++)
    CU_ASSERT(v[i].a == i && v[i].b == -i);
  struct pair *kept = v;
  CU_ASSERT_PTR_NULL(xmt_grow_one(&v, SIZE_MAX, &cap, sizeof *v));
  size_t full = 128;
  CU_ASSERT_PTR_NULL(xmt_grow_one(&v, 128, &full, SIZE_MAX / 64));
  CU_ASSERT_PTR_EQUAL(v, kept);
  CU_ASSERT_EQUAL(cap, 128);
  /* Cut down to its elements, which stay; nothing to cut, nothing done. */
  xmt_fit_array(&v, 100, &cap, sizeof *v);
  CU_ASSERT_EQUAL(cap, 100);
  for (int i = 0; i < 100; i++)
    CU_ASSERT(v[i].a == i && v[i].b == -i);
  kept = v;
  xmt_fit_array(&v, 100, &cap, sizeof *v);
  xmt_fit_array(&v, 0, &cap, sizeof *v);
  CU_ASSERT_PTR_EQUAL(v, kept);
  CU_ASSERT_EQUAL(cap, 100);
  free(v);
}

/* Hashes that collide in the low bits: values v and v + 4 share a slot
 * start in a table of 4 or 8; the high bits tell them apart. */
static uint64_t collide(uint64_t v) { return (v % 4) | (v << 40); }

static const char *const words[] = {"zero", "one",  "two", "three",
                                    "four", "five", "six", "seven"};

/* The value is the number of the word looked for (user). */
static int same_word(const void *user, uint64_t v) {
  return strcmp(words[v], user) == 0;
}

static int compared;
static int always(const void *user, uint64_t v) {
  (void)user, (void)v;
  compared++;
  return 1;
}

static void test_slots(void) {
  struct xmt_slots s = {0};
  /* No slots yet: nothing to find. */
  CU_ASSERT_PTR_NULL(xmt_slots_find(&s, 1, same_word, "one"));
  CU_ASSERT_EQUAL(xmt_slots_resize(&s, 4), XMT_OK);
  CU_ASSERT_EQUAL(s.n, 4);
  CU_ASSERT(s.slot[0] == 0 && s.slot[1] == 0 && s.slot[2] == 0 &&
            s.slot[3] == 0);
  CU_ASSERT_EQUAL(xmt_slots_resize(&s, 8), XMT_OK);
  for (uint64_t v = 0; v < 7; v++)
    xmt_slots_put(&s, collide(v), v);
  /* Each at its start or the next free slot on, with its hash's high
   * bits and its value plus one. */
  static const uint64_t want[8] = {0, 1, 2, 3, 4, 5, 6, 0};
  static const int full[8] = {1, 1, 1, 1, 1, 1, 1, 0};
  for (size_t i = 0; i < 8; i++) {
    CU_ASSERT_EQUAL(s.slot[i] != 0, full[i]);
    if (full[i]) {
      CU_ASSERT_EQUAL(xmt_slots_value(s.slot[i]), want[i]);
      CU_ASSERT_EQUAL(s.slot[i] >> 40, want[i]);
    }
  }
  /* Found by hash and comparison; absent: the free slot where it goes. */
  uint64_t *at = xmt_slots_find(&s, collide(5), same_word, "five");
  CU_ASSERT_PTR_EQUAL(at, &s.slot[5]);
  /* The hash bits differ: never compared. */
  compared = 0;
  at = xmt_slots_find(&s, 3 | (UINT64_C(99) << 40), always, NULL);
  CU_ASSERT_EQUAL(compared, 0);
  CU_ASSERT_PTR_EQUAL(at, &s.slot[7]);
  at = xmt_slots_find(&s, collide(7), same_word, "seven");
  CU_ASSERT_PTR_EQUAL(at, &s.slot[7]);
  CU_ASSERT_EQUAL(*at, 0);
  xmt_slots_set(at, collide(7), 7);
  CU_ASSERT_EQUAL(xmt_slots_value(s.slot[7]), 7);
  CU_ASSERT_PTR_EQUAL(xmt_slots_find(&s, collide(7), same_word, "seven"),
                      &s.slot[7]);
  /* Not a power of two: refused, the old slots kept. */
  CU_ASSERT_EQUAL(xmt_slots_resize(&s, 12), XMT_ERR_NOMEM);
  CU_ASSERT_EQUAL(xmt_slots_resize(&s, 0), XMT_ERR_NOMEM);
  CU_ASSERT_EQUAL(s.n, 8);
  CU_ASSERT_EQUAL(xmt_slots_value(s.slot[4]), 4);
  xmt_slots_clear(&s);
  for (size_t i = 0; i < 8; i++)
    CU_ASSERT_EQUAL(s.slot[i], 0);
  xmt_slots_free(&s);
  CU_ASSERT_PTR_NULL(s.slot);
  CU_ASSERT_EQUAL(s.n, 0);
}

static CU_TestInfo buf_tests[] = {
    {"growth", test_grow},
    {"growth that would overflow", test_grow_overflow},
    {"byte buffers", test_buf},
    {"a stream read whole", test_stream},
    {"hash-table slots", test_slots},
    {"one element at a time", test_grow_one},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"base/buf", NULL, NULL, NULL, NULL, buf_tests},
    CU_SUITE_INFO_NULL,
};

/* test_base_text.c -- base/'s text helpers, shared by the library and the
 * program: the FNV-1a hash (hash.c), the JSON codec (json.c) and the
 * UTF-8 steps, counts and positions (utf8.c, base_private.h). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base_private.h"
#include "harness.h"

/* The published FNV-1a 64-bit test vectors; fed in pieces, the same. */
static void test_fnv1a(void) {
  CU_ASSERT_EQUAL(xmt_fnv1a(XMT_FNV1A_BASIS, "", 0),
                  UINT64_C(0xcbf29ce484222325));
  CU_ASSERT_EQUAL(xmt_fnv1a(XMT_FNV1A_BASIS, "a", 1),
                  UINT64_C(0xaf63dc4c8601ec8c));
  CU_ASSERT_EQUAL(xmt_fnv1a(XMT_FNV1A_BASIS, "foobar", 6),
                  UINT64_C(0x85944171f73967e8));
  uint64_t h = xmt_fnv1a(XMT_FNV1A_BASIS, "foo", 3);
  CU_ASSERT_EQUAL(xmt_fnv1a(h, "bar", 3), UINT64_C(0x85944171f73967e8));
}

static void quote(const char *s, size_t n, unsigned flags, const char *want) {
  struct xmt_buf b = {0};
  CU_ASSERT_EQUAL(xmt_json_quote(&b, s, n, flags), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(b.data, b.len, want, strlen(want));
  xmt_buf_free(&b);
}

static void test_json_quote(void) {
  quote("", 0, 0, "\"\"");
  quote("a\"b\\c/", 6, 0, "\"a\\\"b\\\\c/\"");
  quote("t\tn\n\x01\x1f", 6, 0, "\"t\\u0009n\\u000a\\u0001\\u001f\"");
  /* A NUL inside the text is a character like any control. */
  quote("a\0b", 3, 0, "\"a\\u0000b\"");
  /* UTF-8 and DEL as they are; bytes that are not UTF-8 as they are. */
  quote("caf\xC3\xA9\x7F\xFF", 7, 0, "\"caf\xC3\xA9\x7F\xFF\"");
  /* Mended: a byte that starts no character is U+FFFD, DEL escaped, a
   * valid character (4 bytes too) whole; an overlong is not valid. */
  quote("caf\xC3\xA9\x7F\xFF", 7, XMT_JSON_MEND,
        "\"caf\xC3\xA9\\u007f\\ufffd\"");
  quote("\xF0\x9F\x98\x80\xC0\xAF|\xE2\x82", 9, XMT_JSON_MEND,
        "\"\xF0\x9F\x98\x80\\ufffd\\ufffd|\\ufffd\\ufffd\"");
  char esc[8];
  size_t len;
  CU_ASSERT_EQUAL(xmt_json_escape_one("\xC3\xA9x", 3, XMT_JSON_MEND, esc, &len),
                  2);
  XMT_ASSERT_BYTES_EQUAL(esc, len, "\xC3\xA9", 2);
  CU_ASSERT_EQUAL(xmt_json_escape_one("\"", 1, 0, esc, &len), 1);
  XMT_ASSERT_BYTES_EQUAL(esc, len, "\\\"", 2);
}

/* s read as a JSON string: its status, the bytes read and the text. */
static void read_string(const char *s, int want_rc, size_t want_used,
                        const char *want, size_t want_len) {
  struct xmt_buf b = {0};
  size_t used = 99;
  CU_ASSERT_EQUAL(xmt_json_string(s, strlen(s), &used, &b), want_rc);
  if (want_rc == 0) {
    CU_ASSERT_EQUAL(used, want_used);
    XMT_ASSERT_BYTES_EQUAL(b.len ? b.data : "", b.len, want, want_len);
  }
  xmt_buf_free(&b);
}

static void test_json_read(void) {
  read_string("\"\"", 0, 2, "", 0);
  read_string("\"ab\" : 1", 0, 4, "ab", 2);
  read_string("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", 0, 18, "\"\\/\b\f\n\r\t", 8);
  read_string("\"caf\\u00e9 \\u00E9\"", 0, 18, "caf\xC3\xA9 \xC3\xA9", 8);
  read_string("\"\\ud83d\\ude00\"", 0, 14, "\xF0\x9F\x98\x80", 4);
  read_string("\"\\u0000\"", 0, 8, "\0", 1);
  /* Refused: no quote, unterminated, a raw control, an unknown escape,
   * short hex, a lone surrogate of either half. */
  read_string("ab", -1, 0, NULL, 0);
  read_string("\"ab", -1, 0, NULL, 0);
  read_string("\"a\nb\"", -1, 0, NULL, 0);
  read_string("\"\\x41\"", -1, 0, NULL, 0);
  read_string("\"\\u00e\"", -1, 0, NULL, 0);
  read_string("\"\\ud83d\"", -1, 0, NULL, 0);
  read_string("\"\\ude00x\"", -1, 0, NULL, 0);
  read_string("\"\\ud83d\\u0041\"", -1, 0, NULL, 0);
  /* Only checked: out NULL. */
  size_t used;
  CU_ASSERT_EQUAL(xmt_json_string("\"a\\u00e9\"", 9, &used, NULL), 0);
  CU_ASSERT_EQUAL(used, 9);
}

static void test_json_string_at(void) {
  const char *const path[] = {"responseData", "translatedText", NULL};
  struct xmt_buf b = {0};
  const char *doc = "{\"x\":[1,-2.5e3,true,null,{}],\"responseData\":"
                    "{\"translatedText\":\"Hola \\u00e9\"}}";
  CU_ASSERT_EQUAL(xmt_json_string_at(doc, strlen(doc), path, &b), 0);
  XMT_ASSERT_BYTES_EQUAL(b.data, b.len, "Hola \xC3\xA9", 7);
  xmt_buf_reset(&b);
  doc = "{\"responseData\":{\"other\":\"x\"}}";
  CU_ASSERT_EQUAL(xmt_json_string_at(doc, strlen(doc), path, &b), 1);
  doc = "{\"responseData\":{\"translatedText\":\"x\"}} trailing";
  CU_ASSERT_EQUAL(xmt_json_string_at(doc, strlen(doc), path, &b), -1);
  xmt_buf_free(&b);
}

static void test_utf8_steps(void) {
  const char *s = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80z"; /* a é € 😀 z */
  size_t n = strlen(s);
  CU_ASSERT_EQUAL(n, 11);
  CU_ASSERT_FALSE(xmt_utf8_is_cont('a'));
  CU_ASSERT_FALSE(xmt_utf8_is_cont(s[1]));
  CU_ASSERT_TRUE(xmt_utf8_is_cont(s[2]));
  CU_ASSERT_TRUE(xmt_utf8_at_boundary(s, n, 3));
  CU_ASSERT_FALSE(xmt_utf8_at_boundary(s, n, 4));
  CU_ASSERT_TRUE(xmt_utf8_at_boundary(s, n, n));
  CU_ASSERT_TRUE(xmt_utf8_at_boundary(s, n, n + 1));
  /* next: a -> é -> € -> 😀 -> z -> the end. */
  size_t want[] = {1, 3, 6, 10, 11};
  size_t at = 0;
  for (size_t i = 0; i < 5; i++)
    CU_ASSERT_EQUAL(at = xmt_utf8_next(s, n, at), want[i]);
  /* prev: back the same way, and never below lo. */
  for (size_t i = 5; i-- > 0;)
    CU_ASSERT_EQUAL(at = xmt_utf8_prev(s, 0, at), i ? want[i - 1] : 0);
  CU_ASSERT_EQUAL(xmt_utf8_prev(s, 0, 0), 0);
  CU_ASSERT_EQUAL(xmt_utf8_prev(s, 3, 3), 3);
  CU_ASSERT_EQUAL(xmt_utf8_prev(s, 4, 6), 4); /* lo inside a character */
  CU_ASSERT_EQUAL(xmt_utf8_floor(s, 0, 9), 6);
  CU_ASSERT_EQUAL(xmt_utf8_floor(s, 7, 9), 7);
  CU_ASSERT_EQUAL(xmt_utf8_floor(s, 0, 10), 10);
  CU_ASSERT_EQUAL(xmt_utf8_count(s, n), 5);
  CU_ASSERT_EQUAL(xmt_utf8_count(s, 0), 0);
  CU_ASSERT_EQUAL(xmt_utf8_count(s, 2), 2); /* a cut character counts */
  /* Past eight bytes the count reads words: every start and length
   * against a count byte by byte, characters of 1 to 4 bytes mixed. */
  const char *l = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
                  "bcdefgh\xC3\xA9\xC3\xA9"
                  "ijklmnop\xE2\x82\xAC"
                  "qrstu\xF0\x9F\x98\x80"
                  "vw";
  size_t ln = strlen(l);
  for (size_t from = 0; from < ln; from++)
    for (size_t k = 0; from + k <= ln; k++) {
      size_t want_count = 0;
      for (size_t i = from; i < from + k; i++)
        want_count += ((unsigned char)l[i] & 0xC0) != 0x80;
      CU_ASSERT_EQUAL(xmt_utf8_count(l + from, k), want_count);
    }
}

static void test_utf8_codec(void) {
  const uint32_t cps[] = {0x24, 0xA2, 0x20AC, 0x1F600, 0x10FFFF};
  const char *want[] = {"$", "\xC2\xA2", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                        "\xF4\x8F\xBF\xBF"};
  for (size_t i = 0; i < 5; i++) {
    char out[4];
    size_t k = xmt_utf8_encode(cps[i], out);
    XMT_ASSERT_BYTES_EQUAL(out, k, want[i], strlen(want[i]));
    uint32_t cp = 0;
    CU_ASSERT_EQUAL(xmt_utf8_decode((const unsigned char *)out, k, &cp), k);
    CU_ASSERT_EQUAL(cp, cps[i]);
  }
}

static void test_utf8_advance(void) {
  unsigned long line = 1, chars = 4;
  xmt_utf8_advance("ab\xC3\xA9", 4, &line, &chars);
  CU_ASSERT_EQUAL(line, 1);
  CU_ASSERT_EQUAL(chars, 7);
  xmt_utf8_advance("x\n\ny\xC3\xA9\n\xE2\x82\xAC!", 11, &line, &chars);
  CU_ASSERT_EQUAL(line, 4);
  CU_ASSERT_EQUAL(chars, 2);
  xmt_utf8_advance("", 0, &line, &chars);
  CU_ASSERT_EQUAL(line, 4);
  CU_ASSERT_EQUAL(chars, 2);
}

static void test_memdup(void) {
  char *d = xmt_memdup("a\0b", 3);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  XMT_ASSERT_BYTES_EQUAL(d, 4, "a\0b\0", 4);
  free(d);
  d = xmt_memdup(NULL, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(d);
  CU_ASSERT_EQUAL(d[0], '\0');
  free(d);
  CU_ASSERT_PTR_NULL(xmt_strndup(NULL, 0));
  CU_ASSERT_PTR_NULL(xmt_memdup("x", SIZE_MAX));
}

static CU_TestInfo text_tests[] = {
    {"FNV-1a", test_fnv1a},
    {"JSON strings written", test_json_quote},
    {"JSON strings read", test_json_read},
    {"a JSON string found by its path", test_json_string_at},
    {"UTF-8 steps and counts", test_utf8_steps},
    {"UTF-8 encoded and decoded", test_utf8_codec},
    {"lines and characters", test_utf8_advance},
    {"bytes copied", test_memdup},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"base/text", NULL, NULL, NULL, NULL, text_tests},
    CU_SUITE_INFO_NULL,
};

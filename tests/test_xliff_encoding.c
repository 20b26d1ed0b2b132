/* test_xliff_encoding.c -- encoding detection, the decoders to UTF-8 and
 * the encoders back, byte for byte. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "xliff_private.h"

#define STR_LEN(s) (s), (sizeof(s) - 1)

/* --- Detection ------------------------------------------------------------ */

struct detected {
  xmt_status status;
  enum xmt_encoding enc;
  unsigned long column;
  char msg[256];
};

static struct detected detect(const char *bytes, size_t len, int is_final) {
  struct detected d;
  memset(&d, 0, sizeof d);
  d.enc = (enum xmt_encoding)99;
  d.status = xmt_encoding_detect(bytes, len, is_final, &d.enc, d.msg,
                                 sizeof d.msg, &d.column);
  return d;
}

static void assert_detects(const char *bytes, size_t len,
                           enum xmt_encoding expected) {
  for (int is_final = 0; is_final <= 1; is_final++) {
    struct detected d = detect(bytes, len, is_final);
    CU_ASSERT_EQUAL(d.status, XMT_OK);
    if (d.status != XMT_OK || d.enc != expected)
      fprintf(stderr, "\n«%.*s» (final %d): status %d, encoding %d, want %d\n",
              (int)len, bytes, is_final, (int)d.status, (int)d.enc,
              (int)expected);
    CU_ASSERT_EQUAL(d.enc, expected);
  }
}

static void test_detect_bom(void) {
  static const char utf8[] = "\xEF\xBB\xBF<?xml version=\"1.0\"?><xliff/>";
  assert_detects(STR_LEN(utf8), XMT_ENC_UTF8);
  static const char utf8_bare[] = "\xEF\xBB\xBF<xliff/>";
  assert_detects(STR_LEN(utf8_bare), XMT_ENC_UTF8);
  static const char le[] = "\xFF\xFE<\0?\0x\0m\0l\0";
  assert_detects(STR_LEN(le), XMT_ENC_UTF16LE);
  static const char be[] = "\xFE\xFF\0<\0?\0x\0m\0l";
  assert_detects(STR_LEN(be), XMT_ENC_UTF16BE);
  /* The mark decides, whatever follows it. */
  static const char le_x[] = "\xFF\xFE<\0x\0/\0>\0";
  assert_detects(STR_LEN(le_x), XMT_ENC_UTF16LE);
  static const char be_x[] = "\xFE\xFF\0<\0x\0/\0>";
  assert_detects(STR_LEN(be_x), XMT_ENC_UTF16BE);
  /* A document that is only a mark, at the end of input. */
  struct detected d = detect(STR_LEN("\xFF\xFE"), 1);
  CU_ASSERT_EQUAL(d.status, XMT_OK);
  CU_ASSERT_EQUAL(d.enc, XMT_ENC_UTF16LE);
  d = detect(STR_LEN("\xFE\xFF"), 1);
  CU_ASSERT_EQUAL(d.status, XMT_OK);
  CU_ASSERT_EQUAL(d.enc, XMT_ENC_UTF16BE);
}

static void test_detect_utf16_without_bom(void) {
  static const char le[] = "<\0?\0x\0m\0l\0 \0v\0";
  assert_detects(STR_LEN(le), XMT_ENC_UTF16LE);
  static const char be[] = "\0<\0?\0x\0m\0l\0 \0v";
  assert_detects(STR_LEN(be), XMT_ENC_UTF16BE);
}

static void test_detect_declared(void) {
  static const struct {
    const char *name;
    enum xmt_encoding enc;
  } cases[] = {
      {"UTF-8", XMT_ENC_UTF8},          {"utf-8", XMT_ENC_UTF8},
      {"ISO-8859-1", XMT_ENC_LATIN1},   {"iso-8859-1", XMT_ENC_LATIN1},
      {"Iso-8859-1", XMT_ENC_LATIN1},   {"latin1", XMT_ENC_LATIN1},
      {"LATIN1", XMT_ENC_LATIN1},       {"windows-1252", XMT_ENC_CP1252},
      {"WINDOWS-1252", XMT_ENC_CP1252}, {"Windows-1252", XMT_ENC_CP1252},
      {"cp1252", XMT_ENC_CP1252},       {"CP1252", XMT_ENC_CP1252},
      {"US-ASCII", XMT_ENC_ASCII},      {"us-ascii", XMT_ENC_ASCII},
      {"ascii", XMT_ENC_ASCII},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char doc[256];
    int n = snprintf(doc, sizeof doc,
                     "<?xml version=\"1.0\" encoding=\"%s\"?>\n<xliff/>",
                     cases[i].name);
    assert_detects(doc, (size_t)n, cases[i].enc);
    /* Single quotes, spaces around '=', standalone after it. */
    n = snprintf(doc, sizeof doc,
                 "<?xml version='1.0' encoding = '%s' standalone='yes'?>",
                 cases[i].name);
    assert_detects(doc, (size_t)n, cases[i].enc);
  }
}

static void test_detect_no_declaration(void) {
  static const char *const docs[] = {
      "<xliff version=\"1.2\"/>",
      "<?xml version=\"1.0\"?>\n<xliff version=\"1.2\"/>",
      "<?xml version=\"1.0\" standalone=\"yes\"?><xliff/>",
      "\n\n<xliff/>",
      /* "encoding" outside the declaration is no declaration */
      "<?xml version=\"1.0\"?><xliff encoding=\"EBCDIC-XYZ\"/>",
  };
  for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++)
    assert_detects(docs[i], strlen(docs[i]), XMT_ENC_UTF8);
  /* At the end of input, even tiny documents are UTF-8. */
  struct detected d = detect(STR_LEN("<a/"), 1);
  CU_ASSERT_EQUAL(d.status, XMT_OK);
  CU_ASSERT_EQUAL(d.enc, XMT_ENC_UTF8);
  d = detect("", 0, 1);
  CU_ASSERT_EQUAL(d.status, XMT_OK);
  CU_ASSERT_EQUAL(d.enc, XMT_ENC_UTF8);
}

static void test_detect_unknown(void) {
  static const char doc[] =
      "<?xml version=\"1.0\" encoding=\"EBCDIC-XYZ\"?>\n<xliff/>";
  for (int is_final = 0; is_final <= 1; is_final++) {
    struct detected d = detect(STR_LEN(doc), is_final);
    CU_ASSERT_EQUAL(d.status, XMT_ERR_ENCODING);
    CU_ASSERT_EQUAL(d.column, 31); /* the E of EBCDIC */
    CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "'EBCDIC-XYZ'"));
  }
  static const char spaced[] = "<?xml version='1.0'   encoding  =  'koi8-r'?>";
  struct detected d = detect(STR_LEN(spaced), 0);
  CU_ASSERT_EQUAL(d.status, XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(d.column, 37);
  CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "'koi8-r'"));
  /* UTF-16 named in a document that is not UTF-16 is not believed. */
  static const char utf16[] = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>";
  d = detect(STR_LEN(utf16), 1);
  CU_ASSERT_EQUAL(d.status, XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(d.column, 31);
  /* Columns count characters, and a byte order mark is none (as for the
   * decoder): the name is at column 31 after a UTF-8 BOM too. */
  static const char bom[] =
      "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"EBCDIC-XYZ\"?><xliff/>";
  d = detect(STR_LEN(bom), 1);
  CU_ASSERT_EQUAL(d.status, XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(d.column, 31);
}

static void test_detect_utf32_refused(void) {
  static const char le[] = "\xFF\xFE\0\0<\0\0\0?\0\0\0";
  static const char be[] = "\0\0\xFE\xFF\0\0\0<\0\0\0?";
  struct detected d = detect(STR_LEN(le), 0);
  CU_ASSERT_EQUAL(d.status, XMT_ERR_ENCODING);
  CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "UTF-32"));
  CU_ASSERT_EQUAL(d.column, 1);
  d = detect(STR_LEN(be), 1);
  CU_ASSERT_EQUAL(d.status, XMT_ERR_ENCODING);
  CU_ASSERT_PTR_NOT_NULL(strstr(d.msg, "UTF-32"));
  CU_ASSERT_EQUAL(d.column, 1);
}

static void test_detect_needs_more(void) {
  /* Every prefix of a declaration is too short to decide, until "?>". */
  static const char doc[] =
      "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><xliff/>";
  size_t decl_end = (size_t)(strstr(doc, "?>") + 2 - doc);
  for (size_t len = 0; len < decl_end; len++) {
    struct detected d = detect(doc, len, 0);
    CU_ASSERT_EQUAL(d.status, XMT_ERR_USAGE);
  }
  for (size_t len = decl_end; len <= sizeof doc - 1; len++) {
    struct detected d = detect(doc, len, 0);
    CU_ASSERT_EQUAL(d.status, XMT_OK);
    CU_ASSERT_EQUAL(d.enc, XMT_ENC_LATIN1);
  }
  /* The same after a UTF-8 mark. */
  static const char bom[] = "\xEF\xBB\xBF<?xml encoding='cp1252'?>";
  for (size_t len = 0; len < sizeof bom - 1; len++)
    CU_ASSERT_EQUAL(detect(bom, len, 0).status, XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(detect(STR_LEN(bom), 0).enc, XMT_ENC_CP1252);
  /* A few bytes, not final: even a mark needs its 4 bytes (UTF-32). */
  CU_ASSERT_EQUAL(detect(STR_LEN("\xFF\xFE<"), 0).status, XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(detect(STR_LEN("<x/"), 0).status, XMT_ERR_USAGE);
  /* At the end of input an unfinished declaration is decided: UTF-8. */
  struct detected d = detect(doc, decl_end - 1, 1);
  CU_ASSERT_EQUAL(d.status, XMT_OK);
  CU_ASSERT_EQUAL(d.enc, XMT_ENC_UTF8);
  /* A declaration that never ends is given up on after 1 KiB. */
  char big[1100];
  memset(big, ' ', sizeof big);
  memcpy(big, "<?xml version='1.0' encoding='latin1'", 37);
  CU_ASSERT_EQUAL(detect(big, 1000, 0).status, XMT_ERR_USAGE);
  d = detect(big, sizeof big, 0);
  CU_ASSERT_EQUAL(d.status, XMT_OK);
  CU_ASSERT_EQUAL(d.enc, XMT_ENC_UTF8);
}

static void test_encoding_names(void) {
  CU_ASSERT_STRING_EQUAL(xmt_encoding_name(XMT_ENC_UTF8), "UTF-8");
  CU_ASSERT_STRING_EQUAL(xmt_encoding_name(XMT_ENC_UTF16LE), "UTF-16LE");
  CU_ASSERT_STRING_EQUAL(xmt_encoding_name(XMT_ENC_UTF16BE), "UTF-16BE");
  CU_ASSERT_STRING_EQUAL(xmt_encoding_name(XMT_ENC_LATIN1), "ISO-8859-1");
  CU_ASSERT_STRING_EQUAL(xmt_encoding_name(XMT_ENC_CP1252), "windows-1252");
  CU_ASSERT_STRING_EQUAL(xmt_encoding_name(XMT_ENC_ASCII), "US-ASCII");
}

/* --- Decoding ------------------------------------------------------------- */

/* Decodes bytes cut at two positions (cut1 <= cut2 <= len) into out; the
 * last call is final. The decoder is left in *dec. */
static xmt_status decode3(enum xmt_encoding enc, const char *bytes, size_t len,
                          size_t cut1, size_t cut2, struct xmt_decoder *dec,
                          struct xmt_buf *out) {
  xmt_decoder_init(dec, enc);
  xmt_status st = xmt_decoder_run(dec, bytes, cut1, 0, out);
  if (st == XMT_OK)
    st = xmt_decoder_run(dec, bytes + cut1, cut2 - cut1, 0, out);
  if (st == XMT_OK)
    st = xmt_decoder_run(dec, bytes + cut2, len - cut2, 1, out);
  return st;
}

/* Decodes bytes in chunks of `chunk` bytes, then an empty final call. */
static xmt_status decode_chunks(enum xmt_encoding enc, const char *bytes,
                                size_t len, size_t chunk,
                                struct xmt_decoder *dec, struct xmt_buf *out) {
  xmt_decoder_init(dec, enc);
  xmt_status st = XMT_OK;
  for (size_t at = 0; st == XMT_OK && at < len; at += chunk) {
    size_t n = len - at < chunk ? len - at : chunk;
    st = xmt_decoder_run(dec, bytes + at, n, 0, out);
  }
  if (st == XMT_OK)
    st = xmt_decoder_run(dec, "", 0, 1, out);
  return st;
}

/* Asserts that bytes decode to utf8 however they are cut. */
static void assert_decodes(enum xmt_encoding enc, const char *bytes, size_t len,
                           const char *utf8, size_t utf8_len) {
  struct xmt_decoder dec;
  for (size_t cut1 = 0; cut1 <= len; cut1++)
    for (size_t cut2 = cut1; cut2 <= len; cut2++) {
      struct xmt_buf out = {0};
      CU_ASSERT_EQUAL(decode3(enc, bytes, len, cut1, cut2, &dec, &out), XMT_OK);
      XMT_ASSERT_BYTES_EQUAL(out.data != NULL ? out.data : "", out.len, utf8,
                             utf8_len);
      CU_ASSERT_EQUAL(dec.npending, 0);
      xmt_buf_free(&out);
    }
  for (size_t chunk = 1; chunk <= 5; chunk++) {
    struct xmt_buf out = {0};
    CU_ASSERT_EQUAL(decode_chunks(enc, bytes, len, chunk, &dec, &out), XMT_OK);
    XMT_ASSERT_BYTES_EQUAL(out.data != NULL ? out.data : "", out.len, utf8,
                           utf8_len);
    xmt_buf_free(&out);
  }
}

/* Asserts that bytes fail to decode however they are cut, and that the
 * decoder's position is just before the offending character: line and
 * column + 1 is its 1-based column, as the reader reports it. The
 * position is the same for every cut. */
static void assert_decode_fails(enum xmt_encoding enc, const char *bytes,
                                size_t len, unsigned long line,
                                unsigned long column) {
  struct xmt_decoder dec;
  int status_ok = 1, position_ok = 1;
  for (size_t cut1 = 0; cut1 <= len; cut1++)
    for (size_t cut2 = cut1; cut2 <= len; cut2++) {
      struct xmt_buf out = {0};
      xmt_status st = decode3(enc, bytes, len, cut1, cut2, &dec, &out);
      xmt_buf_free(&out);
      if (st != XMT_ERR_ENCODING && status_ok) {
        status_ok = 0;
        fprintf(stderr, "\n%s cut at %zu,%zu: status %d\n",
                xmt_encoding_name(enc), cut1, cut2, (int)st);
      }
      if ((dec.line != line || dec.column + 1 != column) && position_ok) {
        position_ok = 0;
        fprintf(stderr,
                "\n%s cut at %zu,%zu: error at line %lu column %lu+1, want "
                "line %lu column %lu\n",
                xmt_encoding_name(enc), cut1, cut2, dec.line, dec.column, line,
                column);
      }
    }
  CU_ASSERT_TRUE(status_ok);
  CU_ASSERT_TRUE(position_ok);
}

static void test_decode_utf8_passthrough(void) {
  /* UTF-8 is handed on as it is (expat checks it). */
  static const char in[] = "\xEF\xBB\xBF<a>Stra\xC3\x9F"
                           "e \xF0\x9F\x98\x80</a>";
  assert_decodes(XMT_ENC_UTF8, STR_LEN(in), STR_LEN(in));
}

static void test_decode_latin1(void) {
  char in[256];
  struct xmt_buf expected = {0};
  for (unsigned b = 0; b < 256; b++) {
    in[b] = (char)b;
    unsigned char u[2];
    if (b < 0x80) {
      u[0] = (unsigned char)b;
      CU_ASSERT_EQUAL(xmt_buf_append(&expected, u, 1), XMT_OK);
    } else {
      u[0] = (unsigned char)(0xC0 | (b >> 6));
      u[1] = (unsigned char)(0x80 | (b & 0x3F));
      CU_ASSERT_EQUAL(xmt_buf_append(&expected, u, 2), XMT_OK);
    }
  }
  struct xmt_decoder dec;
  struct xmt_buf out = {0};
  CU_ASSERT_EQUAL(decode_chunks(XMT_ENC_LATIN1, in, 256, 7, &dec, &out),
                  XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(out.data, out.len, expected.data, expected.len);
  xmt_buf_free(&out);
  xmt_buf_free(&expected);
  static const char cafe[] = "caf\xE9 \xA4\xFF";
  assert_decodes(XMT_ENC_LATIN1, STR_LEN(cafe),
                 STR_LEN("caf\xC3\xA9 \xC2\xA4\xC3\xBF"));
  /* 0x80..0x9F are the C1 controls in ISO-8859-1, not windows-1252. */
  assert_decodes(XMT_ENC_LATIN1, STR_LEN("\x80\x9F"),
                 STR_LEN("\xC2\x80\xC2\x9F"));
}

/* windows-1252 0x80..0x9F, from the Unicode mapping table; the five bytes
 * it leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 control
 * of the same value. */
static const char *const cp1252_utf8[32] = {
    "\xE2\x82\xAC", "\xC2\x81",     "\xE2\x80\x9A", "\xC6\x92",
    "\xE2\x80\x9E", "\xE2\x80\xA6", "\xE2\x80\xA0", "\xE2\x80\xA1",
    "\xCB\x86",     "\xE2\x80\xB0", "\xC5\xA0",     "\xE2\x80\xB9",
    "\xC5\x92",     "\xC2\x8D",     "\xC5\xBD",     "\xC2\x8F",
    "\xC2\x90",     "\xE2\x80\x98", "\xE2\x80\x99", "\xE2\x80\x9C",
    "\xE2\x80\x9D", "\xE2\x80\xA2", "\xE2\x80\x93", "\xE2\x80\x94",
    "\xCB\x9C",     "\xE2\x84\xA2", "\xC5\xA1",     "\xE2\x80\xBA",
    "\xC5\x93",     "\xC2\x9D",     "\xC5\xBE",     "\xC5\xB8"};

static void test_decode_cp1252(void) {
  for (unsigned b = 0x80; b < 0xA0; b++) {
    char in[1] = {(char)b};
    const char *want = cp1252_utf8[b - 0x80];
    assert_decodes(XMT_ENC_CP1252, in, 1, want, strlen(want));
    /* And back to the same byte. */
    struct xmt_buf back = {0};
    CU_ASSERT_EQUAL(xmt_encode(XMT_ENC_CP1252, want, strlen(want), 0, &back),
                    XMT_OK);
    XMT_ASSERT_BYTES_EQUAL(back.data, back.len, in, 1);
    xmt_buf_free(&back);
  }
  /* Outside 0x80..0x9F it is ISO-8859-1. */
  assert_decodes(XMT_ENC_CP1252, STR_LEN("a\xE9\xA0\xFF\x80"),
                 STR_LEN("a\xC3\xA9\xC2\xA0\xC3\xBF\xE2\x82\xAC"));
}

static void test_decode_ascii(void) {
  assert_decodes(XMT_ENC_ASCII, STR_LEN("<a>x\ty\n</a>\x7F"),
                 STR_LEN("<a>x\ty\n</a>\x7F"));
  assert_decode_fails(XMT_ENC_ASCII, STR_LEN("ab\x80"), 1, 3);
  assert_decode_fails(XMT_ENC_ASCII, STR_LEN("a\nbc\xC3\xA9"), 2, 3);
  assert_decode_fails(XMT_ENC_ASCII, STR_LEN("\xFF"), 1, 1);
}

/* "Aé€😀\n<" in UTF-16, both byte orders. */
static const char sample_le[] = "A\0\xE9\0\xAC\x20\x3D\xD8\x00\xDE\n\0<\0";
static const char sample_be[] = "\0A\0\xE9\x20\xAC\xD8\x3D\xDE\x00\0\n\0<";
static const char sample_utf8[] = "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\n<";

static void test_decode_utf16(void) {
  /* Cut at every pair of positions: inside units and inside the pair. */
  assert_decodes(XMT_ENC_UTF16LE, STR_LEN(sample_le), STR_LEN(sample_utf8));
  assert_decodes(XMT_ENC_UTF16BE, STR_LEN(sample_be), STR_LEN(sample_utf8));
  /* A byte order mark decodes to U+FEFF and is no column. */
  static const char bom_le[] = "\xFF\xFEx\0";
  assert_decodes(XMT_ENC_UTF16LE, STR_LEN(bom_le), STR_LEN("\xEF\xBB\xBFx"));
  struct xmt_decoder dec;
  struct xmt_buf out = {0};
  CU_ASSERT_EQUAL(
      decode_chunks(XMT_ENC_UTF16LE, STR_LEN(bom_le), 1, &dec, &out), XMT_OK);
  CU_ASSERT_EQUAL(dec.line, 1);
  CU_ASSERT_EQUAL(dec.column, 1);
  xmt_buf_free(&out);
  /* Positions: two lines, the second holds one character. */
  CU_ASSERT_EQUAL(
      decode_chunks(XMT_ENC_UTF16LE, STR_LEN(sample_le), 3, &dec, &out),
      XMT_OK);
  CU_ASSERT_EQUAL(dec.line, 2);
  CU_ASSERT_EQUAL(dec.column, 1);
  xmt_buf_free(&out);
  /* The highest code points. */
  static const char max_be[] = "\xDB\xFF\xDF\xFF\xFF\xFD";
  assert_decodes(XMT_ENC_UTF16BE, STR_LEN(max_be),
                 STR_LEN("\xF4\x8F\xBF\xBF\xEF\xBF\xBD"));
}

static void test_decode_utf16_lone_surrogates(void) {
  /* A low half alone. */
  assert_decode_fails(XMT_ENC_UTF16LE,
                      STR_LEN("a\0\x00\xDC"
                              "b\0"),
                      1, 2);
  assert_decode_fails(XMT_ENC_UTF16BE, STR_LEN("\0a\xDC\x00\0b"), 1, 2);
  /* A high half followed by something else than a low half. */
  assert_decode_fails(XMT_ENC_UTF16LE,
                      STR_LEN("a\0\x3D\xD8"
                              "b\0c\0"),
                      1, 2);
  assert_decode_fails(XMT_ENC_UTF16BE, STR_LEN("\0a\xD8\x3D\xD8\x3D\xDE\x00"),
                      1, 2);
  /* Positions count lines. */
  assert_decode_fails(XMT_ENC_UTF16LE, STR_LEN("a\0\n\0x\0y\0\xFF\xDF"), 2, 3);
}

static void test_decode_utf16_truncated(void) {
  /* An odd byte, a high half without its low half, or with half of it:
   * fine until the input ends, an error when it does. */
  static const struct {
    const char *bytes;
    size_t len;
  } cut[] = {
      {STR_LEN("a\0b")},
      {STR_LEN("a\0\x3D\xD8")},
      {STR_LEN("a\0\x3D\xD8\x00")},
  };
  for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
    struct xmt_decoder dec;
    struct xmt_buf out = {0};
    xmt_decoder_init(&dec, XMT_ENC_UTF16LE);
    CU_ASSERT_EQUAL(xmt_decoder_run(&dec, cut[i].bytes, cut[i].len, 0, &out),
                    XMT_OK);
    XMT_ASSERT_BYTES_EQUAL(out.data, out.len, "a", 1);
    CU_ASSERT_EQUAL(xmt_decoder_run(&dec, "", 0, 1, &out), XMT_ERR_ENCODING);
    xmt_buf_free(&out);
    assert_decode_fails(XMT_ENC_UTF16LE, cut[i].bytes, cut[i].len, 1, 2);
  }
}

/* --- Encoding ------------------------------------------------------------- */

static void assert_encodes(enum xmt_encoding enc, const char *utf8, size_t len,
                           int escape, const char *expected,
                           size_t expected_len) {
  struct xmt_buf out = {0};
  CU_ASSERT_EQUAL(xmt_buf_append_str(&out, "["), XMT_OK);
  CU_ASSERT_EQUAL(xmt_encode(enc, utf8, len, escape, &out), XMT_OK);
  /* Appended after what the buffer held. */
  CU_ASSERT_EQUAL_FATAL(out.len >= 1, 1);
  CU_ASSERT_EQUAL(out.data[0], '[');
  XMT_ASSERT_BYTES_EQUAL(out.data + 1, out.len - 1, expected, expected_len);
  xmt_buf_free(&out);
}

static void assert_encode_refused(enum xmt_encoding enc, const char *utf8,
                                  size_t len) {
  struct xmt_buf out = {0};
  CU_ASSERT_EQUAL(xmt_encode(enc, utf8, len, 0, &out), XMT_ERR_ENCODING);
  xmt_buf_free(&out);
}

/* Decoding all 256 bytes and encoding them back gives them back. */
static void assert_all_bytes_round_trip(enum xmt_encoding enc) {
  char in[256];
  for (unsigned b = 0; b < 256; b++)
    in[b] = (char)b;
  struct xmt_decoder dec;
  struct xmt_buf utf8 = {0}, back = {0};
  CU_ASSERT_EQUAL(decode_chunks(enc, in, 256, 256, &dec, &utf8), XMT_OK);
  CU_ASSERT_EQUAL(xmt_encode(enc, utf8.data, utf8.len, 0, &back), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(back.data, back.len, in, 256);
  xmt_buf_free(&utf8);
  xmt_buf_free(&back);
}

static void test_encode_round_trip_8bit(void) {
  assert_all_bytes_round_trip(XMT_ENC_LATIN1);
  assert_all_bytes_round_trip(XMT_ENC_CP1252);
  char ascii[128];
  for (unsigned b = 0; b < 128; b++)
    ascii[b] = (char)b;
  assert_encodes(XMT_ENC_ASCII, ascii, 128, 0, ascii, 128);
}

static void test_encode_latin1(void) {
  assert_encodes(XMT_ENC_LATIN1, STR_LEN("caf\xC3\xA9 \xC3\xBF"), 0,
                 STR_LEN("caf\xE9 \xFF"));
  /* € is not in ISO-8859-1. */
  assert_encodes(XMT_ENC_LATIN1, STR_LEN("5 \xE2\x82\xAC \xC3\xA9"), 1,
                 STR_LEN("5 &#x20AC; \xE9"));
  assert_encode_refused(XMT_ENC_LATIN1, STR_LEN("5 \xE2\x82\xAC"));
  assert_encodes(XMT_ENC_LATIN1, STR_LEN("\xF0\x9F\x98\x80!"), 1,
                 STR_LEN("&#x1F600;!"));
  /* U+0100, just above. */
  assert_encodes(XMT_ENC_LATIN1, STR_LEN("\xC4\x80"), 1, STR_LEN("&#x100;"));
}

static void test_encode_cp1252(void) {
  assert_encodes(XMT_ENC_CP1252,
                 STR_LEN("\xE2\x82\xAC \xE2\x80\x9Cq\xE2\x80\x9D \xC5\xB8"), 0,
                 STR_LEN("\x80 \x93q\x94 \x9F"));
  /* Ω is not in windows-1252. */
  assert_encodes(XMT_ENC_CP1252, STR_LEN("\xCE\xA9 \xC3\xA9"), 1,
                 STR_LEN("&#x3A9; \xE9"));
  assert_encode_refused(XMT_ENC_CP1252, STR_LEN("\xCE\xA9"));
  /* U+0080 is not the byte 0x80 (that is €): it has no byte. */
  assert_encodes(XMT_ENC_CP1252, STR_LEN("\xC2\x80"), 1, STR_LEN("&#x80;"));
  assert_encode_refused(XMT_ENC_CP1252, STR_LEN("\xC2\x9F"));
  /* The five undefined bytes are theirs. */
  assert_encodes(XMT_ENC_CP1252,
                 STR_LEN("\xC2\x81\xC2\x8D\xC2\x8F\xC2\x90\xC2\x9D"), 0,
                 STR_LEN("\x81\x8D\x8F\x90\x9D"));
}

static void test_encode_ascii(void) {
  assert_encodes(XMT_ENC_ASCII, STR_LEN("<a b='c'>&amp;</a>\n"), 0,
                 STR_LEN("<a b='c'>&amp;</a>\n"));
  assert_encodes(XMT_ENC_ASCII, STR_LEN("caf\xC3\xA9 \xE2\x82\xAC"), 1,
                 STR_LEN("caf&#xE9; &#x20AC;"));
  assert_encodes(XMT_ENC_ASCII, STR_LEN("\xF0\x9F\x98\x80"), 1,
                 STR_LEN("&#x1F600;"));
  assert_encode_refused(XMT_ENC_ASCII, STR_LEN("caf\xC3\xA9"));
}

static void test_encode_utf16(void) {
  /* U+1F600 is the pair D83D DE00. */
  assert_encodes(XMT_ENC_UTF16LE, STR_LEN("A\xF0\x9F\x98\x80"), 0,
                 STR_LEN("A\0\x3D\xD8\x00\xDE"));
  assert_encodes(XMT_ENC_UTF16BE, STR_LEN("A\xF0\x9F\x98\x80"), 0,
                 STR_LEN("\0A\xD8\x3D\xDE\x00"));
  assert_encodes(XMT_ENC_UTF16LE, STR_LEN(sample_utf8), 0, STR_LEN(sample_le));
  assert_encodes(XMT_ENC_UTF16BE, STR_LEN(sample_utf8), 0, STR_LEN(sample_be));
  assert_encodes(XMT_ENC_UTF16LE, STR_LEN("\xEF\xBB\xBF"), 0,
                 STR_LEN("\xFF\xFE"));
  assert_encodes(XMT_ENC_UTF16BE, STR_LEN("\xEF\xBB\xBF"), 0,
                 STR_LEN("\xFE\xFF"));
  assert_encodes(XMT_ENC_UTF16BE, STR_LEN("\xF4\x8F\xBF\xBF"), 0,
                 STR_LEN("\xDB\xFF\xDF\xFF"));
  /* Everything fits: escape changes nothing. */
  assert_encodes(XMT_ENC_UTF16LE, STR_LEN("\xCE\xA9"), 1, STR_LEN("\xA9\x03"));
}

static void test_encode_utf8(void) {
  assert_encodes(XMT_ENC_UTF8, STR_LEN("caf\xC3\xA9 \xF0\x9F\x98\x80"), 0,
                 STR_LEN("caf\xC3\xA9 \xF0\x9F\x98\x80"));
  assert_encodes(XMT_ENC_UTF8, "", 0, 1, "", 0);
}

static void test_encode_invalid_utf8(void) {
  static const enum xmt_encoding encs[] = {XMT_ENC_UTF16LE, XMT_ENC_UTF16BE,
                                           XMT_ENC_LATIN1, XMT_ENC_CP1252,
                                           XMT_ENC_ASCII};
  for (size_t i = 0; i < sizeof encs / sizeof encs[0]; i++) {
    struct xmt_buf out = {0};
    CU_ASSERT_EQUAL(xmt_encode(encs[i], STR_LEN("a\xFF"), 1, &out),
                    XMT_ERR_ENCODING);
    xmt_buf_free(&out);
    CU_ASSERT_EQUAL(xmt_encode(encs[i], STR_LEN("a\xC3"), 1, &out),
                    XMT_ERR_ENCODING);
    xmt_buf_free(&out);
    CU_ASSERT_EQUAL(xmt_encode(encs[i], STR_LEN("\xED\xA0\x80"), 1, &out),
                    XMT_ERR_ENCODING);
    xmt_buf_free(&out);
  }
}

/* Every encoding: UTF-8 -> encoding -> UTF-8 is the identity for the
 * characters the encoding holds, whatever the decoder's chunks. */
static void test_encode_decode_round_trip(void) {
  static const struct {
    enum xmt_encoding enc;
    const char *utf8;
  } cases[] = {
      {XMT_ENC_UTF16LE, "<a x='\xC3\xA9'>\xF0\x9F\x98\x80\r\n\xE2\x82\xAC</a>"},
      {XMT_ENC_UTF16BE, "<a x='\xC3\xA9'>\xF0\x9F\x98\x80\r\n\xE2\x82\xAC</a>"},
      {XMT_ENC_LATIN1, "<a x='\xC3\xA9'>\xC3\xBF\r\n\xC2\xA0</a>"},
      {XMT_ENC_CP1252, "<a x='\xC3\xA9'>\xE2\x84\xA2\r\n\xE2\x82\xAC</a>"},
      {XMT_ENC_ASCII, "<a x='e'>~\r\n</a>"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const char *utf8 = cases[i].utf8;
    size_t len = strlen(utf8);
    struct xmt_buf encoded = {0};
    CU_ASSERT_EQUAL(xmt_encode(cases[i].enc, utf8, len, 0, &encoded), XMT_OK);
    assert_decodes(cases[i].enc, encoded.data, encoded.len, utf8, len);
    xmt_buf_free(&encoded);
  }
}

static CU_TestInfo encoding_tests[] = {
    {"detect: byte order marks", test_detect_bom},
    {"detect: UTF-16 without mark", test_detect_utf16_without_bom},
    {"detect: declared encodings", test_detect_declared},
    {"detect: no declaration is UTF-8", test_detect_no_declaration},
    {"detect: unknown encoding", test_detect_unknown},
    {"detect: UTF-32 refused", test_detect_utf32_refused},
    {"detect: needs more bytes", test_detect_needs_more},
    {"encoding names", test_encoding_names},
    {"decode: UTF-8 passes through", test_decode_utf8_passthrough},
    {"decode: ISO-8859-1", test_decode_latin1},
    {"decode: windows-1252 0x80..0x9F", test_decode_cp1252},
    {"decode: US-ASCII", test_decode_ascii},
    {"decode: UTF-16 cut anywhere", test_decode_utf16},
    {"decode: UTF-16 lone surrogates", test_decode_utf16_lone_surrogates},
    {"decode: UTF-16 truncated", test_decode_utf16_truncated},
    {"encode: all bytes round-trip", test_encode_round_trip_8bit},
    {"encode: ISO-8859-1", test_encode_latin1},
    {"encode: windows-1252", test_encode_cp1252},
    {"encode: US-ASCII", test_encode_ascii},
    {"encode: UTF-16 and surrogate pairs", test_encode_utf16},
    {"encode: UTF-8", test_encode_utf8},
    {"encode: invalid UTF-8 refused", test_encode_invalid_utf8},
    {"encode then decode", test_encode_decode_round_trip},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"xliff/encoding", NULL, NULL, NULL, NULL, encoding_tests},
    CU_SUITE_INFO_NULL,
};

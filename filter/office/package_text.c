/* package_text.c -- the text of a package's XML parts: OPC allows UTF-8
 * and UTF-16 (ECMA-376 Part 2, 8.1.4), in either byte order, with or
 * without a byte order mark. The formats parse and splice UTF-8 only, so
 * a UTF-16 part is read as UTF-8 and written back in its own form, byte
 * for byte when untouched; any other declared encoding is refused, as
 * splicing UTF-8 translations into it would garble it. */
#include "office_private.h"
#include "package_private.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The form of stored bytes, from their first four. */
static enum xmt_part_form sniff(const unsigned char *b, size_t n) {
  if (n >= 2 && b[0] == 0xFF && b[1] == 0xFE)
    return XMT_PART_UTF16LE_BOM;
  if (n >= 2 && b[0] == 0xFE && b[1] == 0xFF)
    return XMT_PART_UTF16BE_BOM;
  if (n >= 4 && b[0] == '<' && b[1] == 0 && b[2] == '?' && b[3] == 0)
    return XMT_PART_UTF16LE;
  if (n >= 4 && b[0] == 0 && b[1] == '<' && b[2] == 0 && b[3] == '?')
    return XMT_PART_UTF16BE;
  return XMT_PART_UTF8;
}

static int big_endian(enum xmt_part_form form) {
  return form == XMT_PART_UTF16BE_BOM || form == XMT_PART_UTF16BE;
}

static int has_bom(enum xmt_part_form form) {
  return form == XMT_PART_UTF16LE_BOM || form == XMT_PART_UTF16BE_BOM;
}

/* The UTF-16 bytes b[0..n) as UTF-8 into out; 0, or -1 on a lone
 * surrogate or an odd length. */
static int utf16_to_utf8(const unsigned char *b, size_t n, int be,
                         struct xmt_buf *out) {
  if (n % 2 != 0)
    return -1;
  for (size_t i = 0; i < n; i += 2) {
    uint32_t u = be ? (uint32_t)(b[i] << 8 | b[i + 1])
                    : (uint32_t)(b[i + 1] << 8 | b[i]);
    if (u >= 0xDC00 && u <= 0xDFFF)
      return -1;
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 3 >= n)
        return -1;
      uint32_t lo = be ? (uint32_t)(b[i + 2] << 8 | b[i + 3])
                       : (uint32_t)(b[i + 3] << 8 | b[i + 2]);
      if (lo < 0xDC00 || lo > 0xDFFF)
        return -1;
      u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
      i += 2;
    }
    if (xmt_buf_append_utf8(out, u) != XMT_OK)
      return -2;
  }
  return 0;
}

/* The encoding an XML declaration at the start of s names, copied into
 * enc (NUL-terminated, cut at size - 1); 0 when there is none. */
static int declared(const char *s, size_t len, char *enc, size_t size) {
  if (len < 6 || memcmp(s, "<?xml", 5) != 0)
    return 0;
  const char *end = memchr(s, '>', len < 512 ? len : 512);
  if (end == NULL)
    return 0;
  for (const char *p = s + 5; p + 8 < end; p++) {
    if (memcmp(p, "encoding", 8) != 0)
      continue;
    p += 8;
    while (p < end && (*p == ' ' || *p == '=' || *p == '\t'))
      p++;
    if (p >= end || (*p != '"' && *p != '\''))
      return 0;
    char q = *p++;
    size_t k = 0;
    while (p < end && *p != q && k + 1 < size)
      enc[k++] = *p++;
    enc[k] = '\0';
    return 1;
  }
  return 0;
}

xmt_status xmt_part_to_utf8(xmt_package *pkg, const char *name,
                            struct xmt_buf *bytes, enum xmt_part_form *form,
                            struct xmt_error_store *err) {
  *form = sniff((const unsigned char *)bytes->data, bytes->len);
  if (*form != XMT_PART_UTF8) {
    size_t skip = has_bom(*form) ? 2 : 0;
    struct xmt_buf text = {.data = NULL};
    int r = utf16_to_utf8((const unsigned char *)bytes->data + skip,
                          bytes->len - skip, big_endian(*form), &text);
    if (r == 0 && xmt_buf_append(&text, "", 0) != XMT_OK)
      r = -2;
    if (r != 0) {
      xmt_buf_free(&text);
      return r == -2 ? xmt_error_nomem(err)
                     : xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                                    "entry '%s' is not sound UTF-16 (an odd "
                                    "length or a lone surrogate)",
                                    name);
    }
    xmt_buf_free(bytes);
    *bytes = text;
  }
  char enc[32] = {0};
  if (!declared(bytes->data, bytes->len, enc, sizeof enc))
    return XMT_OK;
  int utf16 = *form != XMT_PART_UTF8;
  int ok = utf16 ? strncasecmp(enc, "UTF-16", 6) == 0 &&
                       (enc[6] == '\0' || strcasecmp(enc + 6, "LE") == 0 ||
                        strcasecmp(enc + 6, "BE") == 0)
                 : strcasecmp(enc, "UTF-8") == 0;
  if (ok)
    return XMT_OK;
  if (utf16)
    return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                        "entry '%s' is UTF-16 but declares the encoding '%s'",
                        name, enc);
  return xmt_error_at(err, XMT_ERR_FORMAT, XMT_IN(pkg->path),
                      "entry '%s' declares the encoding '%s': a package's "
                      "parts are read in UTF-8 or UTF-16 only",
                      name, enc);
}

xmt_status xmt_part_from_utf8(const char *s, size_t len,
                              enum xmt_part_form form, struct xmt_buf *out) {
  xmt_buf_reset(out);
  int be = big_endian(form);
  if (has_bom(form) &&
      xmt_buf_append(out, be ? "\xFE\xFF" : "\xFF\xFE", 2) != XMT_OK)
    return XMT_ERR_NOMEM;
  for (size_t i = 0; i < len;) {
    uint32_t cp;
    size_t step = xmt_utf8_decode((const unsigned char *)s + i, len - i, &cp);
    if (step == 0) /* the formats write sound UTF-8; U+FFFD if not */
      cp = 0xFFFD, step = 1;
    i += step;
    unsigned units[2] = {cp, 0};
    size_t nu = 1;
    if (cp >= 0x10000) {
      units[0] = 0xD800 + ((cp - 0x10000) >> 10);
      units[1] = 0xDC00 + ((cp - 0x10000) & 0x3FF);
      nu = 2;
    }
    for (size_t k = 0; k < nu; k++) {
      char two[2] = {(char)(be ? units[k] >> 8 : units[k] & 0xFF),
                     (char)(be ? units[k] & 0xFF : units[k] >> 8)};
      if (xmt_buf_append(out, two, 2) != XMT_OK)
        return XMT_ERR_NOMEM;
    }
  }
  return XMT_OK;
}

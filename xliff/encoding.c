/* encoding.c -- encoding detection and the transcoders around the parser. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <strings.h>

#include "xliff_private.h"

const char *xmt_encoding_name(enum xmt_encoding enc) {
  switch (enc) {
  case XMT_ENC_UTF8:
    return "UTF-8";
  case XMT_ENC_UTF16LE:
    return "UTF-16LE";
  case XMT_ENC_UTF16BE:
    return "UTF-16BE";
  case XMT_ENC_LATIN1:
    return "ISO-8859-1";
  case XMT_ENC_CP1252:
    return "windows-1252";
  case XMT_ENC_ASCII:
    return "US-ASCII";
  }
  return "unknown";
}

/* windows-1252 0x80..0x9F. The five bytes Microsoft leaves undefined map to
 * the C1 controls of the same value, as Windows itself does, so that every
 * byte round-trips. */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178};

static int name_is(const char *name, size_t len, const char *const *aliases) {
  for (; *aliases != NULL; aliases++)
    if (strlen(*aliases) == len && strncasecmp(name, *aliases, len) == 0)
      return 1;
  return 0;
}

/* Finds encoding="..." in an XML declaration at the start of bytes. Returns
 * 1 and the name when found, 0 when there is no declaration or no encoding
 * in it, -1 when the declaration is not complete yet. */
static int declared_encoding(const char *bytes, size_t len, const char **name,
                             size_t *name_len) {
  size_t off = 0;
  if (len >= 3 && (unsigned char)bytes[0] == 0xEF &&
      (unsigned char)bytes[1] == 0xBB && (unsigned char)bytes[2] == 0xBF)
    off = 3;
  if (len - off < 6)
    return len - off >= 5 && memcmp(bytes + off, "<?xml", 5) != 0 ? 0 : -1;
  /* "<?xml" then white space: "<?xmle ..." is a processing instruction. */
  if (memcmp(bytes + off, "<?xml", 5) != 0 ||
      !isspace((unsigned char)bytes[off + 5]))
    return 0;
  const char *end = NULL;
  for (size_t i = off; i + 1 < len; i++)
    if (bytes[i] == '?' && bytes[i + 1] == '>') {
      end = bytes + i;
      break;
    }
  if (end == NULL)
    return len > 1024 ? 0 : -1;
  const char *p = bytes + off + 5;
  while (p < end) {
    if (end - p > 8 && memcmp(p, "encoding", 8) == 0) {
      const char *q = p + 8;
      while (q < end && isspace((unsigned char)*q))
        q++;
      if (q < end && *q == '=') {
        q++;
        while (q < end && isspace((unsigned char)*q))
          q++;
        if (q < end && (*q == '"' || *q == '\'')) {
          char quote = *q++;
          const char *v = q;
          while (q < end && *q != quote)
            q++;
          *name = v;
          *name_len = (size_t)(q - v);
          return 1;
        }
      }
    }
    p++;
  }
  return 0;
}

xmt_status xmt_encoding_detect(const char *bytes, size_t len, int is_final,
                               enum xmt_encoding *enc, char *msg, size_t msglen,
                               unsigned long *column) {
  const unsigned char *b = (const unsigned char *)bytes;
  *column = 1;
  if (len < 4 && !is_final)
    return XMT_ERR_USAGE;
  if (len >= 4 && ((b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) ||
                   (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF))) {
    snprintf(msg, msglen, "UTF-32 is not supported");
    return XMT_ERR_ENCODING;
  }
  if (len >= 2 && b[0] == 0xFF && b[1] == 0xFE) {
    *enc = XMT_ENC_UTF16LE;
    return XMT_OK;
  }
  if (len >= 2 && b[0] == 0xFE && b[1] == 0xFF) {
    *enc = XMT_ENC_UTF16BE;
    return XMT_OK;
  }
  /* UTF-16 without a byte order mark, recognised by "<?" */
  if (len >= 4 && b[0] == '<' && b[1] == 0 && b[2] == '?' && b[3] == 0) {
    *enc = XMT_ENC_UTF16LE;
    return XMT_OK;
  }
  if (len >= 4 && b[0] == 0 && b[1] == '<' && b[2] == 0 && b[3] == '?') {
    *enc = XMT_ENC_UTF16BE;
    return XMT_OK;
  }
  const char *name = NULL;
  size_t name_len = 0;
  int found = declared_encoding(bytes, len, &name, &name_len);
  if (found < 0 && !is_final)
    return XMT_ERR_USAGE;
  *enc = XMT_ENC_UTF8;
  if (found <= 0)
    return XMT_OK;
  static const char *const utf8[] = {"UTF-8", "UTF8", NULL};
  static const char *const ascii[] = {"US-ASCII", "ASCII", "ANSI_X3.4-1968",
                                      NULL};
  static const char *const latin1[] = {"ISO-8859-1", "ISO8859-1", "ISO_8859-1",
                                       "LATIN1",     "L1",        "ISO-LATIN-1",
                                       NULL};
  static const char *const cp1252[] = {"WINDOWS-1252", "CP1252", "X-CP1252",
                                       NULL};
  if (name_is(name, name_len, utf8))
    return XMT_OK;
  if (name_is(name, name_len, ascii)) {
    *enc = XMT_ENC_ASCII;
    return XMT_OK;
  }
  if (name_is(name, name_len, latin1)) {
    *enc = XMT_ENC_LATIN1;
    return XMT_OK;
  }
  if (name_is(name, name_len, cp1252)) {
    *enc = XMT_ENC_CP1252;
    return XMT_OK;
  }
  /* Columns count characters: the declaration is ASCII, a BOM is none. */
  *column = (unsigned long)(name - bytes) + 1 -
            ((unsigned char)bytes[0] == 0xEF ? 3 : 0);
  snprintf(msg, msglen,
           "unsupported encoding '%.*s' (supported: UTF-8, UTF-16 with byte "
           "order mark, ISO-8859-1, windows-1252, US-ASCII)",
           (int)(name_len > 64 ? 64 : name_len), name);
  return XMT_ERR_ENCODING;
}

void xmt_decoder_init(struct xmt_decoder *dec, enum xmt_encoding enc) {
  memset(dec, 0, sizeof *dec);
  dec->enc = enc;
  dec->line = 1;
  dec->column = 0;
}

static void advance(struct xmt_decoder *dec, uint32_t cp) {
  if (cp == 0xFEFF && dec->line == 1 && dec->column == 0)
    return; /* a byte order mark is no column */
  if (cp == '\n') {
    dec->line++;
    dec->column = 0;
  } else {
    dec->column++;
  }
}

static xmt_status decode_8bit(struct xmt_decoder *dec, const unsigned char *b,
                              size_t len, struct xmt_buf *out) {
  xmt_status st = xmt_buf_grow(out, len * 3);
  if (st != XMT_OK)
    return st;
  for (size_t i = 0; i < len; i++) {
    uint32_t cp = b[i];
    if (cp >= 0x80 && dec->enc == XMT_ENC_ASCII)
      return XMT_ERR_ENCODING;
    if (cp >= 0x80 && cp < 0xA0 && dec->enc == XMT_ENC_CP1252)
      cp = cp1252_high[cp - 0x80];
    advance(dec, cp);
    if ((st = xmt_buf_append_utf8(out, cp)) != XMT_OK)
      return st;
  }
  return XMT_OK;
}

static uint32_t unit16(const struct xmt_decoder *dec, const unsigned char *p) {
  return dec->enc == XMT_ENC_UTF16LE ? (uint32_t)(p[0] | (p[1] << 8))
                                     : (uint32_t)((p[0] << 8) | p[1]);
}

/* Decodes whole characters from p; returns bytes used, or (size_t)-1 on an
 * invalid sequence. */
static size_t decode_16(struct xmt_decoder *dec, const unsigned char *p,
                        size_t len, struct xmt_buf *out, xmt_status *st) {
  size_t i = 0;
  *st = XMT_OK;
  while (i + 2 <= len) {
    uint32_t u = unit16(dec, p + i);
    uint32_t cp;
    size_t used = 2;
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 4 > len)
        break; /* the low half is in the next chunk */
      uint32_t lo = unit16(dec, p + i + 2);
      if (lo < 0xDC00 || lo > 0xDFFF) {
        *st = XMT_ERR_ENCODING;
        return (size_t)-1;
      }
      cp = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
      used = 4;
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
      *st = XMT_ERR_ENCODING;
      return (size_t)-1;
    } else {
      cp = u;
    }
    advance(dec, cp);
    if ((*st = xmt_buf_append_utf8(out, cp)) != XMT_OK)
      return (size_t)-1;
    i += used;
  }
  return i;
}

xmt_status xmt_decoder_run(struct xmt_decoder *dec, const char *bytes,
                           size_t len, int is_final, struct xmt_buf *out) {
  const unsigned char *b = (const unsigned char *)bytes;
  if (dec->enc == XMT_ENC_UTF8)
    return xmt_buf_append(out, bytes, len);
  if (dec->enc != XMT_ENC_UTF16LE && dec->enc != XMT_ENC_UTF16BE)
    return decode_8bit(dec, b, len, out);
  xmt_status st;
  /* Complete a character left over from the previous chunk first. */
  while (dec->npending > 0 && len > 0) {
    dec->pending[dec->npending++] = *b++;
    len--;
    size_t used = decode_16(dec, dec->pending, dec->npending, out, &st);
    if (used == (size_t)-1)
      return st;
    if (used > 0) {
      dec->npending = 0;
      break;
    }
    if (dec->npending == 4)
      return XMT_ERR_INTERNAL;
  }
  if (len > 0) {
    size_t used = decode_16(dec, b, len, out, &st);
    if (used == (size_t)-1)
      return st;
    memcpy(dec->pending, b + used, len - used);
    dec->npending = len - used;
  }
  if (is_final && dec->npending > 0)
    return XMT_ERR_ENCODING;
  return XMT_OK;
}

static xmt_status append_ncr(struct xmt_buf *out, uint32_t cp) {
  char ref[16];
  int n = snprintf(ref, sizeof ref, "&#x%X;", (unsigned)cp);
  return xmt_buf_append(out, ref, (size_t)n);
}

static int cp1252_byte(uint32_t cp, unsigned char *byte) {
  if (cp < 0x80 || (cp >= 0xA0 && cp <= 0xFF)) {
    *byte = (unsigned char)cp;
    return 1;
  }
  for (unsigned i = 0; i < 32; i++)
    if (cp1252_high[i] == cp) {
      *byte = (unsigned char)(0x80 + i);
      return 1;
    }
  return 0;
}

xmt_status xmt_encode(enum xmt_encoding enc, const char *utf8, size_t len,
                      int escape, struct xmt_buf *out) {
  if (enc == XMT_ENC_UTF8)
    return xmt_buf_append(out, utf8, len);
  const unsigned char *p = (const unsigned char *)utf8;
  xmt_status st = xmt_buf_grow(out, len * 2);
  if (st != XMT_OK)
    return st;
  size_t i = 0;
  while (i < len) {
    /* Copy ASCII runs at once for the 8-bit encodings. */
    if (enc != XMT_ENC_UTF16LE && enc != XMT_ENC_UTF16BE) {
      size_t j = i;
      while (j < len && p[j] < 0x80)
        j++;
      if (j > i && (st = xmt_buf_append(out, utf8 + i, j - i)) != XMT_OK)
        return st;
      i = j;
      if (i == len)
        break;
    }
    uint32_t cp;
    size_t k = xmt_utf8_decode(p + i, len - i, &cp);
    if (k == 0)
      return XMT_ERR_ENCODING;
    i += k;
    unsigned char byte;
    switch (enc) {
    case XMT_ENC_UTF16LE:
    case XMT_ENC_UTF16BE: {
      unsigned char u[4];
      size_t n = 2;
      uint32_t hi = cp, lo = 0;
      if (cp >= 0x10000) {
        hi = 0xD800 + ((cp - 0x10000) >> 10);
        lo = 0xDC00 + ((cp - 0x10000) & 0x3FF);
        n = 4;
      }
      int le = enc == XMT_ENC_UTF16LE;
      u[le ? 0 : 1] = (unsigned char)(hi & 0xFF);
      u[le ? 1 : 0] = (unsigned char)(hi >> 8);
      u[le ? 2 : 3] = (unsigned char)(lo & 0xFF);
      u[le ? 3 : 2] = (unsigned char)(lo >> 8);
      st = xmt_buf_append(out, u, n);
      break;
    }
    case XMT_ENC_CP1252:
      if (cp1252_byte(cp, &byte))
        st = xmt_buf_append(out, &byte, 1);
      else
        st = escape ? append_ncr(out, cp) : XMT_ERR_ENCODING;
      break;
    case XMT_ENC_LATIN1:
      byte = (unsigned char)cp;
      if (cp <= 0xFF)
        st = xmt_buf_append(out, &byte, 1);
      else
        st = escape ? append_ncr(out, cp) : XMT_ERR_ENCODING;
      break;
    case XMT_ENC_ASCII:
    case XMT_ENC_UTF8:
      st = escape ? append_ncr(out, cp) : XMT_ERR_ENCODING;
      break;
    }
    if (st != XMT_OK)
      return st;
  }
  return XMT_OK;
}

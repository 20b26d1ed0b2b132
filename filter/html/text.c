/* text.c -- the text side of HTML: which encoding a page is in,
 * decoding character data and references to UTF-8, minimal escaping. */
#include "config.h"

#include <libxml/HTMLparser.h>
#include <stdio.h>
#include <strings.h>

#include "html_private.h"

/* --- Encoding ---------------------------------------------------------------
 */

static int label_is(const char *label, size_t len, const char *const *names) {
  for (; *names != NULL; names++)
    if (strlen(*names) == len && strncasecmp(label, *names, len) == 0)
      return 1;
  return 0;
}

/* Maps an encoding label to how the page is read and written; 0 when
 * xliffmt cannot write it back. Latin-1 and ASCII pages are read as
 * windows-1252, as browsers do, and written in their own encoding. */
static int charset_from_label(const char *label, size_t len,
                              struct html_charset *cs) {
  static const char *const utf8[] = {"utf-8", "utf8", "unicode-1-1-utf-8",
                                     /* no BOM: browsers read these as UTF-8 */
                                     "utf-16", "utf-16le", "utf-16be", NULL};
  static const char *const latin1[] = {
      "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1",      "l1",
      "cp819",      "ibm819",    "iso-ir-100", "csisolatin1", NULL};
  static const char *const cp1252[] = {"windows-1252", "cp1252", "x-cp1252",
                                       NULL};
  static const char *const ascii[] = {"us-ascii", "ascii", "ansi_x3.4-1968",
                                      "iso646-us", NULL};
  memset(cs, 0, sizeof *cs);
  if (label_is(label, len, utf8)) {
    cs->out = cs->decode = XMT_ENC_UTF8;
  } else if (label_is(label, len, latin1)) {
    cs->out = XMT_ENC_LATIN1;
    cs->decode = XMT_ENC_CP1252;
  } else if (label_is(label, len, cp1252)) {
    cs->out = cs->decode = XMT_ENC_CP1252;
  } else if (label_is(label, len, ascii)) {
    cs->out = XMT_ENC_ASCII;
    cs->decode = XMT_ENC_CP1252;
  } else {
    return 0;
  }
  return 1;
}

/* The value of attribute name of a start tag, as a range; 0 if absent. */
static int attr_range(const char *data, const struct html_token *tok,
                      const char *name, size_t *start, size_t *end) {
  for (size_t i = 0; i < tok->nattrs; i++) {
    const struct html_attr *a = &tok->attrs[i];
    if (!a->duplicate &&
        xmt_html_name_is(data + a->name, a->name_end - a->name, name)) {
      *start = a->value;
      *end = a->value_end;
      return a->has_value;
    }
  }
  return 0;
}

/* Finds key= (e.g. "charset=") in data[start, end); the range of the
 * value after it. */
static int label_after(const char *data, size_t start, size_t end,
                       const char *key, size_t *ls, size_t *le) {
  size_t k = strlen(key);
  for (size_t i = start; i + k < end; i++) {
    if (!xmt_html_name_is(data + i, k, key))
      continue;
    size_t p = i + k;
    while (p < end && html_is_space(data[p]))
      p++;
    if (p >= end || data[p] != '=')
      continue;
    p++;
    while (p < end &&
           (html_is_space(data[p]) || data[p] == '"' || data[p] == '\''))
      p++;
    size_t q = p;
    while (q < end && !html_is_space(data[q]) && data[q] != ';' &&
           data[q] != '"' && data[q] != '\'' && data[q] != '?' &&
           data[q] != '>')
      q++;
    if (q > p) {
      *ls = p;
      *le = q;
      return 1;
    }
  }
  return 0;
}

/* The encoding label declared in the first bytes: an XML declaration,
 * <meta charset>, or <meta http-equiv="content-type" content="...;
 * charset=...">. */
static int declared_label(const char *data, size_t len, size_t *ls,
                          size_t *le) {
  struct html_lexer lx;
  struct html_token tok;
  xmt_html_lexer_init(&lx);
  int found = 0;
  size_t scan = len < 65536 ? len : 65536;
  while (!found && xmt_html_lex(&lx, html_view_of(data, scan), 1, &tok) > 0) {
    size_t s, e, cs, ce;
    if (tok.kind == HTML_PI && tok.end - tok.start > 5 &&
        xmt_html_name_is(data + tok.start + 2, 3, "xml"))
      found = label_after(data, tok.start, tok.end, "encoding", ls, le);
    if (tok.kind != HTML_START ||
        !xmt_html_name_is(data + tok.name, tok.name_end - tok.name, "meta"))
      continue;
    if (attr_range(data, &tok, "charset", &s, &e)) {
      while (s < e && html_is_space(data[s]))
        s++;
      while (e > s && html_is_space(data[e - 1]))
        e--;
      *ls = s;
      *le = e;
      found = e > s;
    } else if (attr_range(data, &tok, "http-equiv", &s, &e) &&
               xmt_html_name_is(data + s, e - s, "content-type") &&
               attr_range(data, &tok, "content", &cs, &ce)) {
      found = label_after(data, cs, ce, "charset", ls, le);
    }
  }
  xmt_html_lexer_free(&lx);
  return found;
}

int xmt_html_charset_declared(const char *data, size_t len) {
  const unsigned char *b = (const unsigned char *)data;
  size_t ls, le;
  return (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) ||
         (len >= 2 &&
          ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) ||
         declared_label(data, len, &ls, &le);
}

xmt_status xmt_html_detect_charset(const char *data, size_t len,
                                   struct html_charset *cs, char *msg,
                                   size_t msglen, size_t *at) {
  const unsigned char *b = (const unsigned char *)data;
  memset(cs, 0, sizeof *cs);
  *at = 0;
  if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) {
    cs->out = cs->decode = XMT_ENC_UTF8;
    return XMT_OK;
  }
  if (len >= 2 &&
      ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF))) {
    cs->out = cs->decode = b[0] == 0xFF ? XMT_ENC_UTF16LE : XMT_ENC_UTF16BE;
    cs->utf16 = 1;
    return XMT_OK;
  }
  size_t ls, le;
  if (declared_label(data, len, &ls, &le)) {
    if (charset_from_label(data + ls, le - ls, cs))
      return XMT_OK;
    *at = ls;
    snprintf(msg, msglen,
             "unsupported encoding '%.*s' (HTML pages in UTF-8, UTF-16, "
             "ISO-8859-1, windows-1252 and US-ASCII are supported)",
             (int)(le - ls < 40 ? le - ls : 40), data + ls);
    return XMT_ERR_ENCODING;
  }
  /* Undeclared: UTF-8 if it decodes as such, else what browsers guess. */
  if (xmt_utf8_valid_prefix(data, len) == len)
    cs->out = cs->decode = XMT_ENC_UTF8;
  else
    cs->out = cs->decode = XMT_ENC_CP1252;
  return XMT_OK;
}

/* --- Decoding ---------------------------------------------------------------
 */

static xmt_status append_replacement(struct xmt_buf *out) {
  return xmt_buf_append(out, "\xEF\xBF\xBD", 3);
}

/* A code point XML 1.0 can hold and HTML allows as a character. */
static int xml_char(uint32_t cp) {
  if (cp < 0x20)
    return cp == '\t' || cp == '\n' || cp == '\r';
  return !(cp >= 0xD800 && cp <= 0xDFFF) && cp != 0xFFFE && cp != 0xFFFF &&
         cp <= 0x10FFFF;
}

/* Appends a code point, replacing what XML cannot hold. A form feed is
 * HTML whitespace and becomes a space. */
static xmt_status append_cp(struct xmt_buf *out, uint32_t cp) {
  if (cp == '\f')
    cp = ' ';
  return xml_char(cp) ? xmt_buf_append_utf8(out, cp) : append_replacement(out);
}

/* Appends bytes without references, charset decoded. */
static xmt_status decode_run(const struct html_charset *cs, const char *s,
                             size_t len, struct xmt_buf *out) {
  xmt_status st = XMT_OK;
  size_t i = 0;
  while (i < len && st == XMT_OK) {
    unsigned char c = (unsigned char)s[i];
    if (c < 0x20) { /* controls: same byte in every supported encoding */
      st = append_cp(out, c);
      i++;
      continue;
    }
    size_t j = i;
    if (cs->decode == XMT_ENC_UTF8 || cs->utf16) {
      size_t bad = 0;
      while (j < len && (unsigned char)s[j] >= 0x20) {
        uint32_t cp = 0;
        size_t k =
            (unsigned char)s[j] < 0x80
                ? 1
                : xmt_utf8_decode((const unsigned char *)s + j, len - j, &cp);
        if (k == 0 || cp == 0xFFFE || cp == 0xFFFF) {
          bad = k == 0 ? 1 : k; /* an invalid byte, or a non-character */
          break;
        }
        j += k;
      }
      st = xmt_buf_append(out, s + i, j - i);
      if (st == XMT_OK && bad > 0) {
        st = append_replacement(out);
        j += bad;
      }
    } else {
      while (j < len && (unsigned char)s[j] >= 0x20)
        j++;
      struct xmt_decoder dec;
      xmt_decoder_init(&dec, cs->decode);
      st = xmt_decoder_run(&dec, s + i, j - i, 1, out);
    }
    i = j;
  }
  return st;
}

/* windows-1252 meaning of a reference to 0x80..0x9F, as browsers read
 * it. */
static xmt_status append_c1_reference(struct xmt_buf *out, uint32_t cp) {
  struct xmt_decoder dec;
  char byte = (char)cp;
  xmt_decoder_init(&dec, XMT_ENC_CP1252);
  return xmt_decoder_run(&dec, &byte, 1, 1, out);
}

static int is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

/* The value of a few names pages use most, as libxml2's table has them
 * (and apos, which older libxml2 lacks); 0 for the others:
 * htmlEntityLookup reads its table of 253 names one by one, a twentieth
 * of the reading. */
static uint32_t common_entity(const char *name) {
  static const struct {
    const char *name;
    uint32_t cp;
  } common[] = {{"nbsp", 160},    {"amp", '&'},    {"lt", '<'},
                {"gt", '>'},      {"quot", '"'},   {"apos", '\''},
                {"mdash", 8212},  {"ndash", 8211}, {"ldquo", 8220},
                {"rdquo", 8221},  {"lsquo", 8216}, {"rsquo", 8217},
                {"hellip", 8230}, {"copy", 169},   {"reg", 174}};
  for (size_t i = 0; i < sizeof common / sizeof *common; i++)
    if (strcmp(name, common[i].name) == 0)
      return common[i].cp;
  return 0;
}

/* The value of the name (case counts), 0 when it is none; HTML's
 * AMP, COPY, GT, LT, QUOT and REG, not in libxml2's table, as their
 * lower case. */
static uint32_t entity(const char *name) {
  static const char *const upper[] = {"AMP", "COPY", "GT", "LT", "QUOT", "REG"};
  char lower[8];
  for (size_t i = 0; i < sizeof upper / sizeof *upper; i++)
    if (strcmp(name, upper[i]) == 0) {
      size_t k = 0;
      for (; name[k] != '\0'; k++)
        lower[k] = (char)(name[k] + 32);
      lower[k] = '\0';
      name = lower;
    }
  uint32_t cp = common_entity(name);
  if (cp == 0) {
    const htmlEntityDesc *e = htmlEntityLookup((const xmlChar *)name);
    cp = e != NULL ? e->value : 0;
  }
  return cp;
}

/* The length of the longest of the old names that browsers take without
 * ';' (HTML's legacy named references: Latin-1's and markup's) that the
 * n bytes at name start with; 0 when none. */
static size_t legacy_prefix(const char *name, size_t n) {
  static const char *const legacy[] = {
      "AElig",  "AMP",    "Aacute", "Acirc",  "Agrave", "Aring",  "Atilde",
      "Auml",   "COPY",   "Ccedil", "ETH",    "Eacute", "Ecirc",  "Egrave",
      "Euml",   "GT",     "Iacute", "Icirc",  "Igrave", "Iuml",   "LT",
      "Ntilde", "Oacute", "Ocirc",  "Ograve", "Oslash", "Otilde", "Ouml",
      "QUOT",   "REG",    "THORN",  "Uacute", "Ucirc",  "Ugrave", "Uuml",
      "Yacute", "aacute", "acirc",  "acute",  "aelig",  "agrave", "amp",
      "aring",  "atilde", "auml",   "brvbar", "ccedil", "cedil",  "cent",
      "copy",   "curren", "deg",    "divide", "eacute", "ecirc",  "egrave",
      "eth",    "euml",   "frac12", "frac14", "frac34", "gt",     "iacute",
      "icirc",  "iexcl",  "igrave", "iquest", "iuml",   "laquo",  "lt",
      "macr",   "micro",  "middot", "nbsp",   "not",    "ntilde", "oacute",
      "ocirc",  "ograve", "ordf",   "ordm",   "oslash", "otilde", "ouml",
      "para",   "plusmn", "pound",  "quot",   "raquo",  "reg",    "sect",
      "shy",    "sup1",   "sup2",   "sup3",   "szlig",  "thorn",  "times",
      "uacute", "ucirc",  "ugrave", "uml",    "uuml",   "yacute", "yen",
      "yuml"};
  size_t best = 0;
  for (size_t i = 0; i < sizeof legacy / sizeof *legacy; i++) {
    size_t k = strlen(legacy[i]);
    if (k <= n && k > best && memcmp(name, legacy[i], k) == 0)
      best = k;
  }
  return best;
}

/* Decodes the reference at s[0] == '&': bytes used, 0 when it is no
 * reference (the '&' is text). */
static size_t reference(const char *s, size_t len, int in_attr,
                        struct xmt_buf *out, xmt_status *st) {
  size_t i = 1;
  if (i < len && s[i] == '#') {
    int hex = i + 1 < len && (s[i + 1] == 'x' || s[i + 1] == 'X');
    i += hex ? 2 : 1;
    size_t digits = i;
    uint32_t cp = 0;
    for (; i < len; i++) {
      char c = s[i];
      int d = c >= '0' && c <= '9' ? c - '0'
              : hex && (c | 0x20) >= 'a' && (c | 0x20) <= 'f'
                  ? (c | 0x20) - 'a' + 10
                  : -1;
      if (d < 0)
        break;
      cp = cp > 0x10FFFF ? cp : cp * (hex ? 16u : 10u) + (uint32_t)d;
    }
    if (i == digits)
      return 0;
    if (i < len && s[i] == ';')
      i++;
    if (cp >= 0x80 && cp <= 0x9F)
      *st = append_c1_reference(out, cp);
    else
      *st = cp == 0 ? append_replacement(out) : append_cp(out, cp);
    return i;
  }
  while (i < len && is_alnum(s[i]) && i < 40)
    i++;
  if (i == 1)
    return 0;
  char name[48];
  memcpy(name, s + 1, i - 1);
  name[i - 1] = '\0';
  uint32_t cp = i < len && s[i] == ';' ? entity(name) : 0;
  if (cp != 0) {
    *st = append_cp(out, cp);
    return i + 1;
  }
  /* Without ';', or a name unknown with it: the longest old name it
   * starts with, as browsers read it ("&copy2024" is "(c)2024"); in an
   * attribute not before a letter, a digit or '=', where "&copy=1" in a
   * URL must stay. */
  size_t k = legacy_prefix(name, i - 1);
  char next = 1 + k < len ? s[1 + k] : '\0';
  if (k == 0 || (in_attr && (is_alnum(next) || next == '=')))
    return 0;
  name[k] = '\0';
  *st = append_cp(out, entity(name));
  return 1 + k;
}

xmt_status xmt_html_decode(const struct html_charset *cs, const char *s,
                           size_t len, int mode, struct xmt_buf *out) {
  xmt_status st = XMT_OK;
  size_t i = 0;
  while (i < len && st == XMT_OK) {
    const char *amp = mode < 2 ? memchr(s + i, '&', len - i) : NULL;
    size_t j = amp != NULL ? (size_t)(amp - s) : len;
    st = decode_run(cs, s + i, j - i, out);
    i = j;
    if (st != XMT_OK || i == len)
      break;
    size_t used = reference(s + i, len - i, mode, out, &st);
    if (used == 0) {
      st = xmt_buf_append_byte(out, '&');
      used = 1;
    }
    i += used;
  }
  return st;
}

xmt_status xmt_html_escape(struct xmt_buf *out, const char *s, size_t len,
                           char quote) {
  size_t from = 0;
  xmt_status st = XMT_OK;
  for (size_t i = 0; i < len && st == XMT_OK; i++) {
    const char *rep = NULL;
    if (s[i] == '&')
      rep = "&amp;";
    else if (s[i] == '<')
      rep = "&lt;";
    else if (s[i] == '"' && quote == '"')
      rep = "&quot;";
    else if (s[i] == '\'' && quote == '\'')
      rep = "&#39;";
    if (rep == NULL)
      continue;
    st = xmt_buf_append(out, s + from, i - from);
    if (st == XMT_OK)
      st = xmt_buf_append_str(out, rep);
    from = i + 1;
  }
  return st == XMT_OK ? xmt_buf_append(out, s + from, len - from) : st;
}

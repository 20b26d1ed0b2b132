/* reader.c -- streaming XLIFF 1.0-1.2 reader: skeleton bytes, <file> tags
 * and trans-units, from expat events and their byte positions.
 *
 * This file holds the helpers, the expat handlers, the entities and the
 * public calls (encoding, feeding expat); a unit's assembly is in
 * reader_unit.c, its inline codes in reader_inline.c, the state they share
 * in reader_private.h. */
#include "config.h"

#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "reader_private.h"

/* --- Small helpers ----------------------------------------------------------
 */

/* Splits "ns|local"; returns the local name and whether the element is an
 * XLIFF one (the document's namespace, or none as some tools write). */
const char *xmt_reader_xliff_name(const xmt_xliff_reader *r, const char *name,
                                  int *is_xliff) {
  /* Nearly every name is in the document's namespace: tried first, without
   * a scan for the bar. */
  if (r->ns != NULL && strncmp(name, r->ns, r->ns_len) == 0 &&
      name[r->ns_len] == '|') {
    *is_xliff = 1;
    return name + r->ns_len + 1;
  }
  const char *bar = strrchr(name, '|');
  if (bar == NULL) {
    *is_xliff = 1;
    return name;
  }
  *is_xliff = r->ns != NULL && strlen(r->ns) == (size_t)(bar - name) &&
              memcmp(name, r->ns, (size_t)(bar - name)) == 0;
  return bar + 1;
}

/* 1 when name is "NS|local". */
int xmt_reader_ns_name(const char *name, const char *ns, const char *local) {
  size_t n = strlen(ns);
  return strncmp(name, ns, n) == 0 && name[n] == '|' &&
         strcmp(name + n + 1, local) == 0;
}

void xmt_reader_fail(xmt_xliff_reader *r, xmt_status st, unsigned long line,
                     unsigned long column, const char *fmt, ...) {
  if (r->status != XMT_OK)
    return;
  r->status = st;
  const struct xmt_where where = {
      .file = r->filename,
      .line = line,
      .column = column,
      .unit_id = r->unit != NULL ? r->unit->id : NULL,
  };
  va_list ap;
  va_start(ap, fmt);
  /* clang-tidy 14 misreads va_start in a function with a format attribute */
  // NOLINTNEXTLINE(clang-analyzer-valist.Uninitialized)
  xmt_error_vat(&r->err, st, &where, fmt, ap);
  va_end(ap);
  XML_StopParser(r->parser, XML_FALSE);
}

void xmt_reader_fail_status(xmt_xliff_reader *r, xmt_status st) {
  xmt_reader_fail(r, st, cur_line(r), cur_column(r), "%s", xmt_strerror(st));
}

/* Line and 1-based column of byte `to`, counting from pos_upto (the bytes
 * in between must still be in the window). */
void xmt_reader_locate(const xmt_xliff_reader *r, uint64_t to,
                       unsigned long *line, unsigned long *col) {
  const char *p = window_at(r, r->pos_upto), *end = window_at(r, to);
  unsigned long l = r->pos_line, c = r->pos_col;
  xmt_utf8_advance(p, (size_t)(end - p), &l, &c);
  *line = l;
  *col = c + 1;
}

void xmt_reader_advance_position(xmt_xliff_reader *r, uint64_t to) {
  if (to <= r->pos_upto)
    return;
  unsigned long col;
  xmt_reader_locate(r, to, &r->pos_line, &col);
  r->pos_col = col - 1;
  r->pos_upto = to;
}

void xmt_reader_emit_skeleton(xmt_xliff_reader *r, uint64_t upto) {
  if (upto <= r->flushed || r->status != XMT_OK)
    return;
  xmt_reader_advance_position(r, upto);
  if (r->cb.skeleton(r->user, window_at(r, r->flushed),
                     (size_t)(upto - r->flushed)) != 0)
    xmt_reader_fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
                    "stopped by the skeleton callback");
  r->flushed = upto;
}

/* The translate flag and xml:space of a file or group, inherited when it
 * has none of its own. */
static void push_translate(xmt_xliff_reader *r, const char *value,
                           const char *space) {
  if (r->ntranslate == r->translate_cap) {
    char *t =
        xmt_grow_array(r->translate, &r->translate_cap, r->ntranslate + 1, 1);
    if (t == NULL) {
      xmt_reader_fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    r->translate = t;
  }
  int yes = value != NULL ? strcmp(value, "no") != 0 : inherited_translate(r);
  int keep =
      space != NULL ? strcmp(space, "preserve") == 0 : inherited_preserve(r);
  r->translate[r->ntranslate++] =
      (char)((yes ? FLAG_TRANSLATE : 0) | (keep ? FLAG_PRESERVE : 0));
}

void xmt_reader_push_frame(xmt_xliff_reader *r, enum frame f) {
  if (r->nframes == r->frames_cap) {
    char *fr = xmt_grow_array(r->frames, &r->frames_cap, r->nframes + 1, 1);
    if (fr == NULL) {
      xmt_reader_fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    r->frames = fr;
  }
  r->frames[r->nframes++] = (char)f;
}

void xmt_reader_keep(xmt_xliff_reader *r, struct kept *k, const char *value) {
  xmt_buf_reset(&k->buf);
  k->set = value != NULL;
  if (value != NULL && xmt_buf_append_str(&k->buf, value) != XMT_OK)
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
}

void xmt_reader_set_string(xmt_xliff_reader *r, char **dst, const char *value) {
  free(*dst);
  *dst = NULL;
  if (value != NULL && (*dst = xmt_strdup(value)) == NULL)
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
}

/* --- expat handlers
 * ------------------------------------------------------------ */

/* XMT_XLIFF_1x for "1.0" to "1.2" (of a version attribute or the end of a
 * namespace name), else 0. */
static int version_of(const char *v, size_t len) {
  if (len != 3 || v[0] != '1' || v[1] != '.' || v[2] < '0' || v[2] > '2')
    return 0;
  return 10 + (v[2] - '0');
}

/* XLIFF 1.0 has no namespace; 1.1 and 1.2 have their own, and the output
 * keeps the version and namespace of the input. */
static void check_root(xmt_xliff_reader *r, const char *name,
                       const char **atts) {
  const char *bar = strrchr(name, '|');
  const char *local = bar != NULL ? bar + 1 : name;
  size_t pl = sizeof XLIFF_NS - 1;
  int ns_version = 0;
  if (bar != NULL && (size_t)(bar - name) > pl &&
      memcmp(name, XLIFF_NS, pl) == 0)
    ns_version = version_of(name + pl - 2, (size_t)(bar - name) - pl + 2);
  const char *version = attr(atts, "version");
  int v = version != NULL ? version_of(version, strlen(version)) : 0;
  if (strcmp(local, "xliff") != 0) {
    xmt_reader_fail(
        r, XMT_ERR_NOT_XLIFF, cur_line(r), cur_column(r),
        "root element is <%s>, not <xliff>: not an XLIFF 1.x document", local);
    return;
  }
  if ((bar != NULL && ns_version == 0) ||
      (version != NULL && v == 0 && ns_version == 0)) {
    xmt_reader_fail(
        r, XMT_ERR_NOT_XLIFF, cur_line(r), cur_column(r),
        "XLIFF version %s is not supported (only XLIFF 1.0, 1.1 and 1.2)",
        version != NULL ? version : "of another namespace");
    return;
  }
  r->version = ns_version ? ns_version : v ? v : XMT_XLIFF_12;
  const char *space = attr(atts, "xml:space");
  r->root_preserve = space != NULL && strcmp(space, "preserve") == 0;
  if (bar != NULL) {
    free(r->ns);
    if ((r->ns = malloc((size_t)(bar - name) + 1)) == NULL) {
      xmt_reader_fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    memcpy(r->ns, name, (size_t)(bar - name));
    r->ns[bar - name] = '\0';
    r->ns_len = (size_t)(bar - name);
    if (xmt_xml_names_bare(&r->names, r->ns) != XMT_OK)
      xmt_reader_fail_status(r, XMT_ERR_NOMEM);
  }
}

/* memoQ's attributes are written with the prefix the document binds. */
static void on_ns_start(void *user, const char *prefix, const char *uri) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK || prefix == NULL || uri == NULL ||
      strcmp(uri, MQ_NS) != 0)
    return;
  char buf[128];
  snprintf(buf, sizeof buf, "%s:", prefix);
  xmt_reader_set_string(r, &r->mq_prefix, buf);
}

/* An xs:boolean of Trados ("true", "1", and the "True" and "TRUE" its
 * tools write; spaces around it collapse): a value that is none of its
 * false ones counts as true, so that a segment whose lock is misspelled
 * is kept, not translated. */
static int sdl_true(const char *v) {
  size_t n = strlen(v);
  while (n > 0 && xmt_is_xml_space(*v))
    v++, n--;
  while (n > 0 && xmt_is_xml_space(v[n - 1]))
    n--;
  return !((n == 5 && strncasecmp(v, "false", 5) == 0) ||
           (n == 1 && *v == '0'));
}

/* What the names of a tag say against XML namespaces, refused as expat's
 * namespace mode refuses it. */
static void names_failed(xmt_xliff_reader *r, enum XML_Error e) {
  if (e == XML_ERROR_NO_MEMORY)
    xmt_reader_fail_status(r, XMT_ERR_NOMEM);
  else
    xmt_reader_fail(r, XMT_ERR_XML, cur_line(r), cur_column(r), "%s",
                    XML_ErrorString(e));
  XML_StopParser(r->parser, XML_FALSE);
}

static void on_start(void *user, const char *qname, const char **raw_atts) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK)
    return;
  const char **atts;
  enum XML_Error e;
  const char *name = xmt_xml_names_start(&r->names, qname, raw_atts, &atts, &e);
  if (name == NULL) {
    names_failed(r, e);
    return;
  }
  uint64_t at = (uint64_t)XML_GetCurrentByteIndex(r->parser);
  int count = XML_GetCurrentByteCount(r->parser);
  r->depth++;
  /* An element an internal entity's text holds has no bytes of its own
   * (expat points at the reference): its markup cannot be kept. */
  if (r->unit != NULL && (count == 0 || *window_at(r, at) != '<')) {
    xmt_reader_fail(r, XMT_ERR_XML, cur_line(r), cur_column(r),
                    "element <%s> from an entity's text in a trans-unit: "
                    "xliffmt cannot write it back; write it out in the "
                    "document",
                    xmt_reader_xliff_name(r, name, &(int){0}));
    return;
  }
  if (!r->seen_root) {
    r->seen_root = 1;
    check_root(r, name, atts);
    return;
  }
  if (r->unit == NULL) {
    int is_xliff;
    const char *local = xmt_reader_xliff_name(r, name, &is_xliff);
    r->safe_end = at + (uint64_t)count;
    if (!is_xliff)
      return;
    if (same(local, "trans-unit")) {
      xmt_reader_start_unit(r, atts, at, count);
    } else if (same(local, "group")) {
      push_translate(r, attr(atts, "translate"), attr(atts, "xml:space"));
    } else if (same(local, "file")) {
      r->ntranslate = 0;
      push_translate(r, NULL, attr(atts, "xml:space"));
      xmt_reader_set_string(r, &r->source_language,
                            attr(atts, "source-language"));
      xmt_reader_set_string(r, &r->target_language,
                            attr(atts, "target-language"));
      if (r->cb.file != NULL && r->status == XMT_OK) {
        xmt_reader_emit_skeleton(r, at);
        /* Our own line count: expat's scans from its last call. */
        xmt_reader_advance_position(r, at);
        struct xmt_xliff_file_info info = {
            attr(atts, "original"), r->source_language, r->target_language,
            attr(atts, "datatype"), r->pos_line};
        if (r->status == XMT_OK &&
            r->cb.file(r->user, &info, window_at(r, at), (size_t)count) != 0)
          xmt_reader_fail(r, XMT_ERR_ABORTED, cur_line(r), cur_column(r), "%s",
                          "stopped by the file callback");
        xmt_reader_advance_position(r, at + (uint64_t)count);
        r->flushed = at + (uint64_t)count;
      }
    }
    return;
  }
  if (r->depth == r->unit_depth + 1) {
    xmt_reader_start_part(r, name, atts, at, count);
    return;
  }
  if (r->part == PART_SEG_DEFS && r->depth == r->part_depth + 1 &&
      xmt_reader_ns_name(name, SDL_NS, "seg")) {
    size_t k;
    xmt_xliff_unit *u = r->unit;
    if (xmt_unit_add_sdlseg(u, attr(atts, "id"), &k) != XMT_OK) {
      xmt_reader_fail_status(r, XMT_ERR_NOMEM);
      return;
    }
    const char *locked = attr(atts, "locked");
    const char *conf = attr(atts, "conf"), *origin = attr(atts, "origin");
    u->sdlsegs[k].locked = locked != NULL && sdl_true(locked);
    u->sdlsegs[k].confirmed =
        conf != NULL && (strcmp(conf, "Translated") == 0 ||
                         strcmp(conf, "ApprovedTranslation") == 0 ||
                         strcmp(conf, "ApprovedSignOff") == 0);
    u->sdlsegs[k].untouched =
        origin == NULL || strcmp(origin, "not-translated") == 0;
    u->sdlsegs[k].tag.start = unit_offset(r, at);
    u->sdlsegs[k].tag.end = unit_offset(r, at + (uint64_t)count);
    return;
  }
  if (r->part == PART_SOURCE || r->part == PART_SEG_SOURCE ||
      r->part == PART_TARGET)
    xmt_reader_inline_start(r, name, atts, at, count);
}

/* A comment or processing instruction inside a part is kept in place. */
static void on_other(xmt_xliff_reader *r) {
  if (r->status != XMT_OK || r->unit == NULL)
    return;
  if (r->part == PART_SOURCE || r->part == PART_SEG_SOURCE ||
      r->part == PART_TARGET)
    xmt_reader_inline_other(r, (uint64_t)XML_GetCurrentByteIndex(r->parser),
                            XML_GetCurrentByteCount(r->parser));
}

static void on_comment(void *user, const char *data) {
  (void)data;
  on_other(user);
}

static void on_pi(void *user, const char *target, const char *data) {
  xmt_xliff_reader *r = user;
  (void)data;
  /* Namespaces forbid a colon in a target: refused where it stands, as
   * expat's namespace mode (check's schema pass) refuses it. */
  const char *colon = strchr(target, ':');
  if (colon != NULL && r->status == XMT_OK) {
    xmt_reader_fail(r, XMT_ERR_XML, cur_line(r),
                    cur_column(r) + 2 +
                        xmt_utf8_count(target, (size_t)(colon - target)),
                    "%s", XML_ErrorString(XML_ERROR_INVALID_TOKEN));
    XML_StopParser(r->parser, XML_FALSE);
    return;
  }
  on_other(user);
}

static void on_end(void *user, const char *qname) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK)
    return;
  enum XML_Error e;
  const char *name = xmt_xml_names_end(&r->names, qname, &e);
  if (name == NULL) {
    names_failed(r, e);
    return;
  }
  uint64_t at = (uint64_t)XML_GetCurrentByteIndex(r->parser);
  int count = XML_GetCurrentByteCount(r->parser);
  if (r->unit == NULL) {
    int is_xliff;
    const char *local = xmt_reader_xliff_name(r, name, &is_xliff);
    if (is_xliff && r->ntranslate > 0 &&
        (same(local, "group") || same(local, "file")))
      r->ntranslate--;
    r->safe_end = at + (uint64_t)count;
  } else if (r->depth == r->unit_depth) {
    xmt_reader_finish_unit(r, at + (uint64_t)count);
  } else if (r->depth == r->part_depth && r->part != PART_NONE) {
    xmt_reader_end_part(r, at, count);
  } else if (r->part == PART_SOURCE || r->part == PART_SEG_SOURCE ||
             r->part == PART_TARGET) {
    xmt_reader_inline_end(r, at, count);
  }
  r->depth--;
}

static int is_space(const char *s, int len) {
  for (int i = 0; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
      return 0;
  return 1;
}

static void on_text(void *user, const char *text, int len) {
  xmt_xliff_reader *r = user;
  if (r->status != XMT_OK || r->unit == NULL)
    return;
  if (r->code_depth > 0) {
    /* A <sub>'s text: a sub-flow of the unit, to be translated. */
    if (r->sub_depth > 0 &&
        (r->part == PART_SOURCE || r->part == PART_SEG_SOURCE) &&
        !is_space(text, len))
      r->sub_has_text = 1;
    return;
  }
  xmt_status st = XMT_OK;
  switch (r->part) {
  case PART_SOURCE:
    st = xmt_ib_text(&r->ib, text, (size_t)len);
    break;
  case PART_SEG_SOURCE:
    st = xmt_buf_append(&r->seg_text, text, (size_t)len);
    if (st == XMT_OK && r->in_segment)
      st = xmt_ib_text(&r->ib, text, (size_t)len);
    break;
  case PART_TARGET:
    if (!is_space(text, len)) {
      r->target_content = 1;
      if (r->tseg != SIZE_MAX) {
        r->unit->tsegs[r->tseg].empty = 0;
        r->unit->tsegs[r->tseg].text = 1;
      }
    }
    st = xmt_ib_text(&r->ib, text, (size_t)len);
    break;
  case PART_NONE:
  case PART_SEG_DEFS:
  case PART_OTHER:
    break;
  }
  if (st != XMT_OK)
    xmt_reader_fail_status(r, st);
}

/* --- Entities ---------------------------------------------------------------
 * External entities are never read. Outside translatable text a reference
 * to one only passes through with the bytes around it; inside, its text
 * would be missing from what is translated, so the run stops. */

static void refuse_entity(xmt_xliff_reader *r, const char *name,
                          const char *why) {
  if (builder_active(r) && r->keep_entities) {
    char ref[300];
    int n = snprintf(ref, sizeof ref, "&%.256s;", name);
    /* The reference as a placeholder that is written back as it is. */
    xmt_status st =
        xmt_ib_code(&r->ib, XMT_TAG_PLACEHOLDER, "x", NULL, ref, (size_t)n);
    if (st != XMT_OK)
      xmt_reader_fail_status(r, st);
    return;
  }
  if (builder_active(r))
    xmt_reader_fail(
        r, XMT_ERR_XML, cur_line(r), cur_column(r),
        "entity &%s; in translatable text is %s: xliffmt does not read "
        "it, and translating without its text would lose it",
        name, why);
}

static int XMLCALL on_external_entity(XML_Parser parser,
                                      const XML_Char *context,
                                      const XML_Char *base,
                                      const XML_Char *system_id,
                                      const XML_Char *public_id) {
  (void)base, (void)public_id;
  xmt_xliff_reader *r = XML_GetUserData(parser);
  /* The context ends with the entity's name, after any namespace
   * bindings. */
  const char *name = context != NULL ? context : "?";
  const char *ff = strrchr(name, '\f');
  if (ff != NULL)
    name = ff + 1;
  char why[320];
  snprintf(why, sizeof why, "external (SYSTEM \"%.256s\")",
           system_id != NULL ? system_id : "");
  refuse_entity(r, name, why);
  return XML_STATUS_OK;
}

static void XMLCALL on_skipped_entity(void *user, const XML_Char *name,
                                      int is_parameter_entity) {
  if (!is_parameter_entity)
    refuse_entity(user, name, "not declared in the document");
}

/* --- Public API ------------------------------------------------------------
 */

xmt_xliff_reader *
xmt_xliff_reader_new(const struct xmt_xliff_reader_callbacks *callbacks,
                     void *user) {
  if (callbacks == NULL || callbacks->skeleton == NULL)
    return NULL;
  xmt_xliff_reader *r = calloc(1, sizeof *r);
  if (r == NULL)
    return NULL;
  r->cb = *callbacks;
  r->user = user;
  r->pos_line = 1;
  /* Namespaces are resolved by r->names: cheaper than expat's own for
   * documents of one namespace (xml_names.c). */
  r->parser = XML_ParserCreate("UTF-8");
  if (r->parser == NULL) {
    free(r);
    return NULL;
  }
  XML_SetUserData(r->parser, r);
  XML_SetElementHandler(r->parser, on_start, on_end);
  XML_SetCharacterDataHandler(r->parser, on_text);
  XML_SetCommentHandler(r->parser, on_comment);
  XML_SetProcessingInstructionHandler(r->parser, on_pi);
  XML_SetExternalEntityRefHandler(r->parser, on_external_entity);
  XML_SetSkippedEntityHandler(r->parser, on_skipped_entity);
  xmt_xml_names_init(&r->names);
  r->names.on_declare = on_ns_start;
  r->names.user = r;
  r->tseg = SIZE_MAX;
  xmt_ib_init(&r->ib);
  return r;
}

void xmt_xliff_reader_free(xmt_xliff_reader *r) {
  if (r == NULL)
    return;
  XML_ParserFree(r->parser);
  free(r->filename);
  xmt_error_clear(&r->err);
  xmt_buf_free(&r->sniff);
  xmt_buf_free(&r->window);
  xmt_buf_free(&r->input);
  xmt_raw_block_release(r->raw_block);
  free(r->translate);
  free(r->source_language);
  free(r->target_language);
  free(r->ns);
  free(r->mq_prefix);
  xmt_xliff_unit_free(r->unit);
  xmt_ib_free(&r->ib);
  xmt_xml_names_free(&r->names);
  free(r->segment_mid);
  free(r->frames);
  xmt_buf_free(&r->code_key.buf);
  xmt_buf_free(&r->code_pos.buf);
  xmt_reader_clear_codes(r);
  free(r->codes);
  xmt_buf_free(&r->seg_text);
  free(r);
}

void xmt_xliff_reader_keep_entities(xmt_xliff_reader *r, int keep) {
  if (r == NULL)
    return;
  r->keep_entities = keep != 0;
}

xmt_status xmt_xliff_reader_set_filename(xmt_xliff_reader *r,
                                         const char *name) {
  if (r == NULL)
    return XMT_ERR_USAGE;
  char *copy = xmt_strdup(name);
  if (name != NULL && copy == NULL)
    return XMT_ERR_NOMEM;
  free(r->filename);
  r->filename = copy;
  return XMT_OK;
}

const char *xmt_xliff_reader_version(const xmt_xliff_reader *r) {
  if (r == NULL)
    return NULL;
  return r->version == XMT_XLIFF_10   ? "1.0"
         : r->version == XMT_XLIFF_11 ? "1.1"
                                      : "1.2";
}

enum xmt_encoding xmt_xliff_reader_encoding(const xmt_xliff_reader *r) {
  return r != NULL ? r->enc : 0;
}

const struct xmt_error *xmt_xliff_reader_error(const xmt_xliff_reader *r) {
  return r != NULL ? &r->err.pub : NULL;
}

/* Names the error expat stopped on; invalid UTF-8 gets its own message. */
static void expat_failed(xmt_xliff_reader *r) {
  enum XML_Error code = XML_GetErrorCode(r->parser);
  unsigned long line = cur_line(r), column = cur_column(r);
  uint64_t at = (uint64_t)XML_GetCurrentByteIndex(r->parser);
  if (code == XML_ERROR_INVALID_TOKEN && r->enc == XMT_ENC_UTF8 &&
      at >= r->base && at < r->base + r->window.len) {
    const unsigned char *p = (const unsigned char *)window_at(r, at);
    size_t avail = (size_t)(r->base + r->window.len - at);
    uint32_t cp;
    if (*p >= 0x80 && xmt_utf8_decode(p, avail, &cp) == 0) {
      xmt_reader_fail(
          r, XMT_ERR_ENCODING, line, column,
          "invalid UTF-8 byte 0x%02X (is the encoding declaration right?)",
          (unsigned)*p);
      return;
    }
  }
  /* expat points at the name in "</name>"; report the "<" as elsewhere. */
  if (code == XML_ERROR_TAG_MISMATCH && column > 2)
    column -= 2;
  xmt_reader_fail(r, XMT_ERR_XML, line, column, "%s", XML_ErrorString(code));
}

static void compact_window(xmt_xliff_reader *r) {
  size_t done = (size_t)(r->flushed - r->base);
  if (done == 0 || done < r->window.len / 2)
    return;
  memmove(r->window.data, r->window.data + done, r->window.len - done);
  r->window.len -= done;
  r->base = r->flushed;
}

/* Parses the len bytes at the end of the window. */
static xmt_status parse_window(xmt_xliff_reader *r, size_t len, int is_final) {
  size_t before = r->window.len - len;
  /* A byte order mark takes no column. */
  if (r->base == 0 && before == 0 && len >= 3 &&
      memcmp(r->window.data, "\xEF\xBB\xBF", 3) == 0)
    r->pos_upto = 3;
  if (XML_Parse(r->parser, r->window.data + before, (int)len, is_final) ==
      XML_STATUS_ERROR) {
    if (r->status == XMT_OK)
      expat_failed(r);
    return r->status;
  }
  if (r->status != XMT_OK)
    return r->status;
  if (r->unit == NULL)
    xmt_reader_emit_skeleton(r,
                             is_final ? r->base + r->window.len : r->safe_end);
  if (is_final && r->status == XMT_OK && !r->seen_root)
    xmt_reader_fail(r, XMT_ERR_NOT_XLIFF, 1, 1, "%s", "no root element");
  compact_window(r);
  return r->status;
}

static xmt_status feed(xmt_xliff_reader *r, const char *utf8, size_t len,
                       int is_final) {
  xmt_status st = xmt_buf_append(&r->window, utf8, len);
  if (st != XMT_OK) {
    xmt_reader_fail_status(r, st);
    return r->status;
  }
  return parse_window(r, len, is_final);
}

static xmt_status start(xmt_xliff_reader *r, int is_final) {
  char msg[256];
  unsigned long column;
  xmt_status st = xmt_encoding_detect(r->sniff.data, r->sniff.len, is_final,
                                      &r->enc, msg, sizeof msg, &column);
  if (st == XMT_ERR_USAGE)
    return XMT_OK; /* need more bytes */
  if (st != XMT_OK) {
    r->status = st;
    xmt_error_at(&r->err, st, XMT_AT(r->filename, 1, column), "%s", msg);
    return st;
  }
  r->started = 1;
  xmt_decoder_init(&r->dec, r->enc);
  return XMT_OK;
}

static xmt_status decode_and_feed(xmt_xliff_reader *r, const char *bytes,
                                  size_t len, int is_final) {
  if (r->enc == XMT_ENC_UTF8)
    return feed(r, bytes, len, is_final);
  struct xmt_buf utf8 = {0};
  xmt_status st = xmt_decoder_run(&r->dec, bytes, len, is_final, &utf8);
  if (st == XMT_ERR_ENCODING) {
    r->status = st;
    xmt_error_at(&r->err, st,
                 XMT_AT(r->filename, r->dec.line, r->dec.column + 1),
                 "byte sequence invalid in %s", xmt_encoding_name(r->enc));
  } else if (st != XMT_OK) {
    r->status = st;
    xmt_error_at(&r->err, st, XMT_IN(r->filename), "%s", xmt_strerror(st));
  } else {
    st = feed(r, utf8.data != NULL ? utf8.data : "", utf8.len, is_final);
  }
  xmt_buf_free(&utf8);
  return st;
}

xmt_status xmt_xliff_reader_parse(xmt_xliff_reader *r, const char *bytes,
                                  size_t len, int is_final) {
  if (r == NULL)
    return XMT_ERR_USAGE;
  if (r->status != XMT_OK)
    return r->status;
  if (!r->started) {
    xmt_status st = xmt_buf_append(&r->sniff, bytes, len);
    if (st == XMT_OK)
      st = start(r, is_final);
    if (st != XMT_OK && r->status == XMT_OK) {
      r->status = st;
      xmt_error_at(&r->err, st, XMT_IN(r->filename), "%s", xmt_strerror(st));
    }
    if (st != XMT_OK || !r->started)
      return st;
    bytes = r->sniff.data;
    len = r->sniff.len;
  }
  /* Keep each expat call within int range and the decode buffer small. */
  do {
    size_t n = len > FEED_MAX ? FEED_MAX : len;
    int last = is_final && n == len;
    xmt_status st = decode_and_feed(r, bytes, n, last);
    if (st != XMT_OK)
      return st;
    bytes += n;
    len -= n;
  } while (len > 0);
  if (r->sniff.data != NULL)
    xmt_buf_free(&r->sniff);
  return XMT_OK;
}

void *xmt_xliff_reader_buffer(xmt_xliff_reader *r, size_t len) {
  /* UTF-8 goes straight into the window, where expat reads it. */
  r->in_window = r->status == XMT_OK && r->started && r->enc == XMT_ENC_UTF8 &&
                 len <= FEED_MAX;
  struct xmt_buf *b = r->in_window ? &r->window : &r->input;
  if (!r->in_window)
    xmt_buf_reset(b);
  if (xmt_buf_grow(b, len) != XMT_OK)
    return NULL;
  return b->data + b->len;
}

xmt_status xmt_xliff_reader_parse_buffer(xmt_xliff_reader *r, size_t len,
                                         int is_final) {
  if (!r->in_window)
    return xmt_xliff_reader_parse(r, r->input.data, len, is_final);
  r->in_window = 0;
  if (r->status != XMT_OK)
    return r->status;
  r->window.len += len;
  r->window.data[r->window.len] = '\0';
  return parse_window(r, len, is_final);
}

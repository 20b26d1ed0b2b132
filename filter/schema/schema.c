/* schema.c -- validates an XLIFF 1.2 or 2.0 document against its OASIS
 * schema as a stream: expat reads the document (as the XLIFF reader does,
 * transcoded to UTF-8 first) and its events drive libxml2's schema
 * validator through xmlSchemaSAXPlug. No tree is built, so memory does
 * not grow with the document, and nesting is as deep as expat allows
 * (libxml2's own parser stops at 256 levels). */
#include "config.h"

#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_private.h"

#define NS12 "urn:oasis:names:tc:xliff:document:1.2"
#define NS20 "urn:oasis:names:tc:xliff:document:2.0"
#define CHUNK 65536

struct drive {
  XML_Parser parser;
  xmlSchemaPtr schema;
  xmlSchemaValidCtxtPtr vctxt;
  xmlSchemaSAXPlugPtr plug;
  xmlSAXHandler own; /* no handlers: the plug's are all that run */
  xmlSAXHandlerPtr sax;
  void *sax_user;
  int strict;
  int done; /* validation stopped: another root, or an error of ours */
  char **ns;  /* prefix, URI pairs declared on the coming element */
  size_t nns, capns;
  const xmlChar **attrs; /* 5 per attribute, as SAX2 gives them */
  size_t capattrs;
  struct xmt_buf names; /* the split names of the element and attributes */
  xmt_rule_fn fn;
  void *user;
  xmt_status st;
  struct xmt_error_store *err;
};

/* A schema error, at the place of the event being validated. */
static void on_error(void *user, xmlErrorPtr e) {
  struct drive *d = user;
  if (e == NULL || d->done)
    return;
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", e->message != NULL ? e->message : "error");
  size_t len = strlen(msg);
  while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
    msg[--len] = '\0';
  unsigned long line = (unsigned long)XML_GetCurrentLineNumber(d->parser);
  unsigned long col = (unsigned long)XML_GetCurrentColumnNumber(d->parser) + 1;
  if (d->fn(d->user, line, col, NULL, msg, e->level == XML_ERR_WARNING) != 0) {
    d->st = XMT_ERR_ABORTED;
    d->done = 1;
    XML_StopParser(d->parser, XML_FALSE);
  }
}

static void stop(struct drive *d, xmt_status st) {
  if (d->st == XMT_OK)
    d->st = st;
  d->done = 1;
  XML_StopParser(d->parser, XML_FALSE);
}

/* The schema for a root element in namespace uri, and the plug that
 * validates what follows; validation ends when there is none. */
static int begin(struct drive *d, const char *uri) {
  enum xmt_schema_kind kind;
  if (uri != NULL && strcmp(uri, NS12) == 0)
    kind = d->strict ? XMT_SCHEMA_XLIFF12_STRICT : XMT_SCHEMA_XLIFF12;
  else if (uri != NULL && strcmp(uri, NS20) == 0)
    kind = XMT_SCHEMA_XLIFF20;
  else
    return 0; /* XLIFF 1.0, 1.1 or no namespace: no schema shipped */
  d->schema = xmt_schema_compile(kind, d->err);
  if (d->schema == NULL) {
    d->st = d->err->pub.status;
    return 0;
  }
  d->vctxt = xmlSchemaNewValidCtxt(d->schema);
  if (d->vctxt == NULL) {
    d->st = xmt_error_nomem(d->err);
    return 0;
  }
  xmlSchemaSetValidStructuredErrors(d->vctxt, on_error, d);
  memset(&d->own, 0, sizeof d->own);
  d->own.initialized = XML_SAX2_MAGIC;
  d->sax = &d->own;
  d->sax_user = NULL;
  d->plug = xmlSchemaSAXPlug(d->vctxt, &d->sax, &d->sax_user);
  if (d->plug == NULL) {
    d->st = xmt_error_nomem(d->err);
    return 0;
  }
  return 1;
}

/* Splits expat's "uri|local|prefix" into three strings appended to
 * d->names; offs gets their offsets (SIZE_MAX for none). */
static int split(struct drive *d, const char *name, size_t offs[3]) {
  const char *bar = strchr(name, '|');
  const char *parts[3] = {NULL, name, NULL};
  size_t lens[3] = {0, strlen(name), 0};
  if (bar != NULL) {
    const char *bar2 = strchr(bar + 1, '|');
    parts[0] = name, lens[0] = (size_t)(bar - name);
    parts[1] = bar + 1;
    lens[1] = bar2 != NULL ? (size_t)(bar2 - bar - 1) : strlen(bar + 1);
    if (bar2 != NULL)
      parts[2] = bar2 + 1, lens[2] = strlen(bar2 + 1);
  }
  for (int k = 0; k < 3; k++) {
    offs[k] = SIZE_MAX;
    if (parts[k] == NULL)
      continue;
    offs[k] = d->names.len;
    if (xmt_buf_append(&d->names, parts[k], lens[k]) != XMT_OK ||
        xmt_buf_append(&d->names, "", 1) != XMT_OK)
      return 0;
  }
  return 1;
}

static const xmlChar *at(const struct drive *d, size_t off) {
  return off == SIZE_MAX ? NULL : (const xmlChar *)d->names.data + off;
}

static void free_ns(struct drive *d) {
  for (size_t i = 0; i < d->nns; i++)
    free(d->ns[i]);
  d->nns = 0;
}

static void XMLCALL on_ns(void *user, const XML_Char *prefix,
                          const XML_Char *uri) {
  struct drive *d = user;
  if (d->done)
    return;
  char **ns = xmt_grow_array(d->ns, &d->capns, d->nns + 2, sizeof *ns);
  if (ns == NULL) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  d->ns = ns;
  ns[d->nns] = prefix != NULL ? xmt_strdup(prefix) : NULL;
  ns[d->nns + 1] = xmt_strdup(uri != NULL ? uri : "");
  if ((prefix != NULL && ns[d->nns] == NULL) || ns[d->nns + 1] == NULL) {
    free(ns[d->nns]);
    free(ns[d->nns + 1]);
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  d->nns += 2;
}

static void XMLCALL on_start(void *user, const XML_Char *name,
                             const XML_Char **atts) {
  struct drive *d = user;
  if (d->done)
    return;
  size_t n = 0, el[3];
  while (atts[2 * n] != NULL)
    n++;
  xmt_buf_reset(&d->names);
  if (!split(d, name, el)) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  if (d->plug == NULL && !begin(d, (const char *)at(d, el[0]))) {
    free_ns(d);
    stop(d, d->st); /* an unknown root: nothing to validate */
    return;
  }
  const xmlChar **a =
      xmt_grow_array(d->attrs, &d->capattrs, 5 * n + 1, sizeof *a);
  size_t *offs = calloc(3 * n + 1, sizeof *offs);
  if (a == NULL || offs == NULL) {
    free(offs);
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  d->attrs = a;
  for (size_t i = 0; i < n; i++)
    if (!split(d, atts[2 * i], offs + 3 * i)) {
      free(offs);
      stop(d, XMT_ERR_NOMEM);
      return;
    }
  /* the names are in place: their pointers are taken now */
  for (size_t i = 0; i < n; i++) {
    const char *v = atts[2 * i + 1];
    a[5 * i] = at(d, offs[3 * i + 1]);
    a[5 * i + 1] = at(d, offs[3 * i + 2]);
    a[5 * i + 2] = at(d, offs[3 * i]);
    a[5 * i + 3] = (const xmlChar *)v;
    a[5 * i + 4] = (const xmlChar *)v + strlen(v);
  }
  free(offs);
  d->sax->startElementNs(d->sax_user, at(d, el[1]), at(d, el[2]), at(d, el[0]),
                         (int)(d->nns / 2), (const xmlChar **)d->ns, (int)n,
                         0, a);
  free_ns(d);
}

static void XMLCALL on_end(void *user, const XML_Char *name) {
  struct drive *d = user;
  if (d->done)
    return;
  size_t el[3];
  xmt_buf_reset(&d->names);
  if (!split(d, name, el)) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  d->sax->endElementNs(d->sax_user, at(d, el[1]), at(d, el[2]), at(d, el[0]));
}

static void XMLCALL on_text(void *user, const XML_Char *s, int len) {
  struct drive *d = user;
  if (!d->done && d->sax != NULL && d->sax->characters != NULL)
    d->sax->characters(d->sax_user, (const xmlChar *)s, len);
}

/* Feeds bytes (the document's own encoding) to expat as UTF-8, as the
 * XLIFF reader does; 0 once validation has ended. */
struct feed {
  struct xmt_buf head; /* bytes before the encoding is known */
  struct xmt_decoder dec;
  int started;
};

static int feed(struct drive *d, struct feed *in, const char *bytes,
                size_t len, int final) {
  if (!in->started) {
    if (xmt_buf_append(&in->head, bytes, len) != XMT_OK) {
      stop(d, XMT_ERR_NOMEM);
      return 0;
    }
    enum xmt_encoding enc;
    char msg[64];
    unsigned long col;
    xmt_status st = xmt_encoding_detect(in->head.data, in->head.len, final,
                                        &enc, msg, sizeof msg, &col);
    if (st == XMT_ERR_USAGE)
      return 1; /* more bytes first */
    if (st != XMT_OK)
      return 0; /* the reader tells of the encoding */
    xmt_decoder_init(&in->dec, enc);
    in->started = 1;
    bytes = in->head.data, len = in->head.len;
  }
  struct xmt_buf utf8 = {0};
  const char *text = bytes;
  if (in->dec.enc != XMT_ENC_UTF8) {
    if (xmt_decoder_run(&in->dec, bytes, len, final, &utf8) != XMT_OK) {
      xmt_buf_free(&utf8);
      return 0; /* the reader tells of the bytes */
    }
    text = utf8.data != NULL ? utf8.data : "", len = utf8.len;
  }
  /* A malformed document is the reader's to tell: validation just ends. */
  int ok = XML_Parse(d->parser, text, (int)len, final) == XML_STATUS_OK;
  xmt_buf_free(&utf8);
  if (in->started && in->head.data != NULL)
    xmt_buf_free(&in->head);
  return ok && !d->done;
}

static xmt_status run(struct drive *d, const char *held, size_t held_len,
                      FILE *fp) {
  struct feed in;
  memset(&in, 0, sizeof in);
  char *chunk = fp != NULL ? malloc(CHUNK) : NULL;
  if (fp != NULL && chunk == NULL)
    return xmt_error_nomem(d->err);
  int more = 1;
  /* expat copies what it is given: slices keep that copy small */
  for (size_t off = 0; more && off < held_len; off += CHUNK) {
    size_t n = held_len - off < CHUNK ? held_len - off : CHUNK;
    more = feed(d, &in, held + off, n, fp == NULL && off + n == held_len);
  }
  if (held_len == 0 && fp == NULL)
    more = feed(d, &in, "", 0, 1);
  while (more && fp != NULL) {
    size_t n = fread(chunk, 1, CHUNK, fp);
    int final = n < CHUNK;
    more = feed(d, &in, chunk, n, final) && !final;
  }
  free(chunk);
  xmt_buf_free(&in.head);
  return d->st;
}

xmt_status xmt_schema_check(xmt_filter *f, const char *path, xmt_rule_fn fn,
                            void *user) {
  struct drive d;
  memset(&d, 0, sizeof d);
  d.fn = fn;
  d.user = user;
  d.err = &f->err;
  d.strict = (f->flags & XMT_FILTER_SCHEMA_STRICT) != 0;
  d.parser = XML_ParserCreateNS("UTF-8", '|');
  if (d.parser == NULL)
    return xmt_error_nomem(&f->err);
  XML_SetReturnNSTriplet(d.parser, 1);
  XML_SetUserData(d.parser, &d);
  XML_SetElementHandler(d.parser, on_start, on_end);
  XML_SetCharacterDataHandler(d.parser, on_text);
  XML_SetStartNamespaceDeclHandler(d.parser, on_ns);
  xmt_status st;
  if (strcmp(path, "-") == 0) {
    /* standard input, held whole for the reader after us */
    st = run(&d, f->stdin_head.bytes.data, f->stdin_head.bytes.len, NULL);
  } else {
    FILE *fp = xmt_input_open(path, &f->err);
    st = fp == NULL ? f->err.pub.status : run(&d, NULL, 0, fp);
    if (fp != NULL)
      fclose(fp);
  }
  if (d.plug != NULL)
    xmlSchemaSAXUnplug(d.plug);
  xmlSchemaFreeValidCtxt(d.vctxt);
  xmlSchemaFree(d.schema);
  free_ns(&d);
  free(d.ns);
  free(d.attrs);
  xmt_buf_free(&d.names);
  XML_ParserFree(d.parser);
  return st;
}

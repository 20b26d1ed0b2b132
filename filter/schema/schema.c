/* schema.c -- validates an XLIFF 1.2 or 2.0 document against its OASIS
 * schema as a stream: expat reads the document (as the XLIFF reader does,
 * transcoded to UTF-8 first) and its events drive libxml2's schema
 * validator through xmlSchemaSAXPlug. No tree is built, so memory does
 * not grow with the document, and nesting is as deep as expat allows
 * (libxml2's own parser stops at 256 levels). */
#include "config.h"

#include <expat.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema_private.h"

#define NS12 "urn:oasis:names:tc:xliff:document:1.2"
#define NS20 "urn:oasis:names:tc:xliff:document:2.0"
#define CHUNK 65536
/* children of an XLIFF 2 <file> or <group> between two reopenings */
#define REOPEN_AFTER 4096

/* An open XLIFF 2 <file> or <group>, as it started: what the validator is
 * given again when it is reopened (reopen()). */
struct reopen {
  const xmlChar **attrs; /* 5 per attribute, values in chars */
  char *chars;
  int nattrs;
  int nns;         /* its namespace bindings, in d->bindings */
  int loop;        /* its last child a <unit> or <group> */
  size_t children; /* since it started or was reopened */
  size_t told;     /* the problems told when it started */
};

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
  /* memory ran out in libxml2 or expat: what the validator holds may be
   * half made (libxml2 2.9 goes on after a failed allocation and reads
   * what it did not get), so nothing more is given to it */
  int broken;
  /* The validator keeps the names and namespace bindings it is given
   * until their element ends, as libxml2's parser gives them: names are
   * interned, and each open element's bindings stay on a stack. */
  xmlDictPtr dict;
  const xmlChar **ns; /* prefix, URI pairs declared on the coming element */
  size_t nns, capns;
  const xmlChar ***bindings; /* per open element, NULL for none */
  size_t depth, capdepth;
  /* the local name, prefix and URI of each open element: a document cut
   * short is closed for the validator, which frees its state only as its
   * elements end */
  const xmlChar *(*open)[3];
  size_t capopen;
  const xmlChar **attrs; /* 5 per attribute, as SAX2 gives them */
  size_t capattrs;
  struct reopen *re; /* per open element */
  size_t capre;
  size_t told;   /* problems told by the validator */
  int synthetic; /* events of reopen(): what they raise is not told */
  /* XLIFF 1.2: the trans-unit and bin-unit ids of the current <file>
   * (their kind 't' or 'b' and column as the value, line as the number) */
  struct xmt_memo ids;
  xmt_rule_fn fn;
  void *user;
  xmt_status st;
  struct xmt_error_store *err;
};

static void stop(struct drive *d, xmt_status st) {
  if (d->st == XMT_OK)
    d->st = st == XMT_ERR_NOMEM ? xmt_error_nomem(d->err) : st;
  d->done = 1;
  XML_StopParser(d->parser, XML_FALSE);
}

/* An allocation of libxml2's that failed: told as XML_ERR_NO_MEMORY, or
 * as an error whose message could not be made. */
static int is_nomem(const xmlError *e) {
  return e->code == XML_ERR_NO_MEMORY || e->message == NULL;
}

static void broken(struct drive *d, xmt_status st) {
  d->broken = 1;
  stop(d, st);
}

/* A schema error, at the place of the event being validated. */
static void on_error(void *user, xmlErrorPtr e) {
  struct drive *d = user;
  if (e == NULL)
    return;
  if (is_nomem(e)) {
    broken(d, XMT_ERR_NOMEM);
    return;
  }
  if (d->done || d->synthetic)
    return;
  d->told++;
  char msg[1024];
  snprintf(msg, sizeof msg, "%s", e->message);
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

/* What libxml2 tells outside the validator's own channel while it
 * validates (its allocations that failed, in the validator, its regular
 * expressions and its dictionary): the run stops, and nothing reaches
 * stderr. */
static void on_other_error(void *user, xmlErrorPtr e) {
  struct drive *d = user;
  if (e == NULL || e->level == XML_ERR_WARNING)
    return;
  if (is_nomem(e)) {
    broken(d, XMT_ERR_NOMEM);
    return;
  }
  if (d->st == XMT_OK) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", e->message);
    size_t len = strlen(msg);
    while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
      msg[--len] = '\0';
    d->st = xmt_error_set(d->err, XMT_ERR_INTERNAL,
                          "the schema validator failed: %s", msg);
  }
  broken(d, d->st);
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

/* Splits expat's "uri|local|prefix" into its interned parts (NULL for
 * none); 0 when out of memory. */
static int split(struct drive *d, const char *name, const xmlChar *part[3]) {
  const char *bar = strchr(name, '|');
  const char *from[3] = {NULL, name, NULL};
  size_t lens[3] = {0, strlen(name), 0};
  if (bar != NULL) {
    const char *bar2 = strchr(bar + 1, '|');
    from[0] = name, lens[0] = (size_t)(bar - name);
    from[1] = bar + 1;
    lens[1] = bar2 != NULL ? (size_t)(bar2 - bar - 1) : strlen(bar + 1);
    if (bar2 != NULL)
      from[2] = bar2 + 1, lens[2] = strlen(bar2 + 1);
  }
  for (int k = 0; k < 3; k++) {
    part[k] = NULL;
    if (from[k] != NULL && lens[k] > INT_MAX)
      return 0;
    if (from[k] != NULL &&
        (part[k] = xmlDictLookup(d->dict, (const xmlChar *)from[k],
                                 (int)lens[k])) == NULL)
      return 0;
  }
  return 1;
}

static const xmlChar *intern(struct drive *d, const char *s) {
  return s != NULL ? xmlDictLookup(d->dict, (const xmlChar *)s, -1) : NULL;
}

static void XMLCALL on_ns(void *user, const XML_Char *prefix,
                          const XML_Char *uri) {
  struct drive *d = user;
  if (d->done)
    return;
  const xmlChar **ns = xmt_grow_array(d->ns, &d->capns, d->nns + 2, sizeof *ns);
  if (ns == NULL) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  d->ns = ns;
  ns[d->nns] = intern(d, prefix);
  ns[d->nns + 1] = intern(d, uri != NULL ? uri : "");
  if ((prefix != NULL && ns[d->nns] == NULL) || ns[d->nns + 1] == NULL) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  d->nns += 2;
}

/* The bindings declared on the element starting, kept until its end. */
static const xmlChar **push_bindings(struct drive *d, int *ok) {
  const xmlChar ***stack =
      xmt_grow_array(d->bindings, &d->capdepth, d->depth + 1, sizeof *stack);
  const xmlChar **b = NULL;
  *ok = stack != NULL;
  if (stack == NULL)
    return NULL;
  d->bindings = stack;
  if (d->nns > 0) {
    b = malloc(d->nns * sizeof *b);
    if (b == NULL) {
      *ok = 0;
      return NULL;
    }
    memcpy(b, d->ns, d->nns * sizeof *b);
  }
  stack[d->depth++] = b;
  return b;
}

/* The 5 SAX2 pointers of each attribute into d->attrs; 0 when out of
 * memory. */
static int attributes(struct drive *d, const XML_Char **atts, size_t n) {
  const xmlChar **a =
      xmt_grow_array(d->attrs, &d->capattrs, 5 * n + 1, sizeof *a);
  if (a == NULL)
    return 0;
  d->attrs = a;
  for (size_t i = 0; i < n; i++) {
    const char *v = atts[2 * i + 1];
    const xmlChar *part[3];
    if (!split(d, atts[2 * i], part))
      return 0;
    a[5 * i] = part[1];
    a[5 * i + 1] = part[2];
    a[5 * i + 2] = part[0];
    a[5 * i + 3] = (const xmlChar *)v;
    a[5 * i + 4] = (const xmlChar *)v + strlen(v);
  }
  return 1;
}

/* XLIFF 1.2: the ids of the <trans-unit>s and <bin-unit>s of a <file>
 * are unique in it, trans-units and bin-units alike, which the
 * schema's key K_unit_id stated (taken out: see schema_load.c). A
 * trans-unit id used twice is told by check's own rule, on the units
 * read; a repeat that a <bin-unit> takes part in is told here, at the
 * repeat. */
static void unit_ids(struct drive *d, const xmlChar *const el[3],
                     const XML_Char **atts) {
  if (el[0] == NULL || strcmp((const char *)el[0], NS12) != 0)
    return;
  const char *local = (const char *)el[1];
  if (strcmp(local, "file") == 0) {
    xmt_memo_clear(&d->ids);
    return;
  }
  int bin = strcmp(local, "bin-unit") == 0;
  if (!bin && strcmp(local, "trans-unit") != 0)
    return;
  const char *id = NULL;
  for (size_t i = 0; atts[i] != NULL && id == NULL; i += 2)
    if (strcmp(atts[i], "id") == 0)
      id = atts[i + 1];
  if (id == NULL)
    return; /* the schema tells it */
  unsigned long line = (unsigned long)XML_GetCurrentLineNumber(d->parser);
  unsigned long col = (unsigned long)XML_GetCurrentColumnNumber(d->parser) + 1;
  const char *value = NULL;
  size_t value_len = 0, first = 0;
  size_t len = strlen(id);
  if (!xmt_memo_get(&d->ids, id, len, &value, &value_len, &first)) {
    char v[1 + sizeof col];
    v[0] = bin ? 'b' : 't';
    memcpy(v + 1, &col, sizeof col);
    if (xmt_memo_put(&d->ids, id, len, v, sizeof v, line) != XMT_OK)
      stop(d, XMT_ERR_NOMEM);
    return;
  }
  int first_bin = value_len > 0 && value[0] == 'b';
  if (!bin && !first_bin)
    return; /* two trans-units: check's rule */
  unsigned long first_col = 0;
  if (value_len == 1 + sizeof first_col)
    memcpy(&first_col, value + 1, sizeof first_col);
  char msg[400];
  snprintf(msg, sizeof msg,
           "%s id \"%.64s\" is used more than once in <file> (first at line "
           "%zu, column %lu, by a %s)",
           bin ? "bin-unit" : "trans-unit", id, first, first_col,
           first_bin ? "bin-unit" : "trans-unit");
  if (d->fn(d->user, line, col, id, msg, 0) != 0)
    stop(d, XMT_ERR_ABORTED);
}

static int is20(const xmlChar *const el[3], const char *local) {
  return el[0] != NULL && strcmp((const char *)el[0], NS20) == 0 &&
         strcmp((const char *)el[1], local) == 0;
}

/* What reopen() needs of the element starting at depth k (an XLIFF 2
 * <file> or <group>: its n attributes in d->attrs, copied); 0 when out
 * of memory. */
static int keep_start(struct drive *d, size_t k, const xmlChar *const el[3],
                      int n, int nns) {
  struct reopen *re = xmt_grow_array(d->re, &d->capre, k + 1, sizeof *re);
  if (re == NULL)
    return 0;
  d->re = re;
  memset(&re[k], 0, sizeof re[k]);
  re[k].told = d->told;
  if (!is20(el, "file") && !is20(el, "group"))
    return 1;
  size_t bytes = 1;
  for (int i = 0; i < n; i++)
    bytes += (size_t)(d->attrs[5 * i + 4] - d->attrs[5 * i + 3]) + 1;
  re[k].attrs = malloc((5 * (size_t)n + 1) * sizeof *re[k].attrs);
  re[k].chars = malloc(bytes);
  if (re[k].attrs == NULL || re[k].chars == NULL) {
    free(re[k].attrs), free(re[k].chars);
    re[k].attrs = NULL, re[k].chars = NULL;
    return 0;
  }
  char *c = re[k].chars;
  for (int i = 0; i < 5 * n; i += 5) {
    size_t len = (size_t)(d->attrs[i + 4] - d->attrs[i + 3]);
    memcpy(re[k].attrs + i, d->attrs + i, 3 * sizeof *d->attrs);
    memcpy(c, d->attrs[i + 3], len);
    c[len] = '\0';
    re[k].attrs[i + 3] = (const xmlChar *)c;
    re[k].attrs[i + 4] = (const xmlChar *)c + len;
    c += len + 1;
  }
  re[k].nattrs = n;
  re[k].nns = nns;
  return 1;
}

static void drop_start(struct drive *d, size_t k) {
  if (d->re != NULL && k < d->capre) {
    free(d->re[k].attrs);
    free(d->re[k].chars);
    memset(&d->re[k], 0, sizeof d->re[k]);
  }
}

/* libxml2 2.9's validator, once a content model with a wildcard (the
 * ##other of a <file> or <group>) has matched a child by a transition
 * that is not its state's last, keeps a copy of each further child until
 * the element ends: about 100 bytes a unit, 58 MB for a <file> of
 * 580,000 units. A <file>'s or <group>'s units and groups repeat without
 * bound, so the element ended for the validator and started again (its
 * attributes and namespace bindings as they were) with one <unit> in it
 * is back in the state it was in, with nothing kept. Only while nothing
 * has been told since the element started: after an error libxml2 may
 * judge the rest otherwise. What these events raise is not told (the
 * start's attributes were judged when it started). */
static void reopen(struct drive *d, size_t k) {
  const xmlChar *const *el = d->open[k];
  const struct reopen *re = &d->re[k];
  const xmlChar *unit = intern(d, "unit"), *seg = intern(d, "segment");
  const xmlChar *src = intern(d, "source"), *id = intern(d, "id");
  if (unit == NULL || seg == NULL || src == NULL || id == NULL) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  static const char value[] = "u";
  const xmlChar *a[5] = {id, NULL, NULL, (const xmlChar *)value,
                         (const xmlChar *)value + 1};
  xmlSAXHandlerPtr sax = d->sax;
  d->synthetic = 1;
  sax->endElementNs(d->sax_user, el[0], el[1], el[2]);
  sax->startElementNs(d->sax_user, el[0], el[1], el[2], re->nns, d->bindings[k],
                      re->nattrs, 0, re->attrs);
  sax->startElementNs(d->sax_user, unit, el[1], el[2], 0, NULL, 1, 0, a);
  sax->startElementNs(d->sax_user, seg, el[1], el[2], 0, NULL, 0, 0, NULL);
  sax->startElementNs(d->sax_user, src, el[1], el[2], 0, NULL, 0, 0, NULL);
  sax->endElementNs(d->sax_user, src, el[1], el[2]);
  sax->endElementNs(d->sax_user, seg, el[1], el[2]);
  sax->endElementNs(d->sax_user, unit, el[1], el[2]);
  d->synthetic = 0;
  d->re[k].children = 1;
}

/* The child el starting in the element at depth k: reopened first when
 * its units and groups have grown long. */
static void child(struct drive *d, size_t k, const xmlChar *const el[3]) {
  struct reopen *parent = &d->re[k];
  int loop = is20(el, "unit") || is20(el, "group");
  if (parent->attrs != NULL && loop && parent->loop &&
      parent->children >= REOPEN_AFTER && parent->told == d->told)
    reopen(d, k);
  parent->children++;
  parent->loop = loop;
}

static void XMLCALL on_start(void *user, const XML_Char *name,
                             const XML_Char **atts) {
  struct drive *d = user;
  if (d->done)
    return;
  size_t n = 0;
  while (atts[2 * n] != NULL)
    n++;
  const xmlChar *el[3];
  if (!split(d, name, el)) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  if (d->plug == NULL && !begin(d, (const char *)el[0])) {
    stop(d, d->st); /* an unknown root: nothing to validate */
    return;
  }
  if (d->depth > 0 && d->re != NULL)
    child(d, d->depth - 1, el);
  if (d->done)
    return;
  int nns = (int)(d->nns / 2);
  int ok;
  const xmlChar **b = push_bindings(d, &ok);
  const xmlChar *(*open)[3] =
      ok ? xmt_grow_array(d->open, &d->capopen, d->depth, sizeof *open) : NULL;
  if (open != NULL)
    d->open = open; /* grown even if what follows fails */
  if (open == NULL || !attributes(d, atts, n) ||
      !keep_start(d, d->depth - 1, el, (int)n, nns)) {
    if (ok) /* never started: not one of the elements to close */
      free(d->bindings[--d->depth]);
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  open[d->depth - 1][0] = el[1];
  open[d->depth - 1][1] = el[2];
  open[d->depth - 1][2] = el[0];
  d->nns = 0;
  d->sax->startElementNs(d->sax_user, el[1], el[2], el[0], nns, b, (int)n, 0,
                         d->attrs);
  unit_ids(d, el, atts);
}

static void XMLCALL on_end(void *user, const XML_Char *name) {
  struct drive *d = user;
  if (d->done)
    return;
  const xmlChar *el[3];
  if (!split(d, name, el)) {
    stop(d, XMT_ERR_NOMEM);
    return;
  }
  d->sax->endElementNs(d->sax_user, el[1], el[2], el[0]);
  if (d->depth > 0) {
    drop_start(d, d->depth - 1);
    free(d->bindings[--d->depth]);
  }
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

static int feed(struct drive *d, struct feed *in, const char *bytes, size_t len,
                int final) {
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
    xmt_status st = xmt_decoder_run(&in->dec, bytes, len, final, &utf8);
    if (st != XMT_OK) {
      xmt_buf_free(&utf8);
      if (st == XMT_ERR_NOMEM)
        stop(d, st);
      return 0; /* the reader tells of the bytes */
    }
    text = utf8.data != NULL ? utf8.data : "", len = utf8.len;
  }
  /* A malformed document is the reader's to tell: validation just ends. */
  int ok = XML_Parse(d->parser, text, (int)len, final) == XML_STATUS_OK;
  if (!ok && XML_GetErrorCode(d->parser) == XML_ERROR_NO_MEMORY)
    broken(d, XMT_ERR_NOMEM);
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
  d.dict = xmlDictCreate();
  if (d.parser == NULL || d.dict == NULL) {
    XML_ParserFree(d.parser);
    xmlDictFree(d.dict);
    return xmt_error_nomem(&f->err);
  }
  XML_SetReturnNSTriplet(d.parser, 1);
  XML_SetUserData(d.parser, &d);
  XML_SetElementHandler(d.parser, on_start, on_end);
  XML_SetCharacterDataHandler(d.parser, on_text);
  XML_SetStartNamespaceDeclHandler(d.parser, on_ns);
  /* libxml2's handler of this thread, ours while we validate */
  xmlStructuredErrorFunc prev = xmlStructuredError;
  void *prev_ctx = xmlStructuredErrorContext;
  xmlSetStructuredErrorFunc(&d, on_other_error);
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
  /* a document cut short: its open elements closed, nothing told (not
   * after a failure inside the validator, whose state is not sound) */
  d.done = 1;
  for (size_t k = d.depth;
       !d.broken && d.plug != NULL && d.open != NULL && k > 0; k--)
    d.sax->endElementNs(d.sax_user, d.open[k - 1][0], d.open[k - 1][1],
                        d.open[k - 1][2]);
  if (d.plug != NULL)
    xmlSchemaSAXUnplug(d.plug);
  xmlSchemaFreeValidCtxt(d.vctxt);
  xmlSchemaFree(d.schema);
  while (d.depth > 0) {
    drop_start(&d, d.depth - 1);
    free(d.bindings[--d.depth]);
  }
  free(d.re);
  free(d.bindings);
  free(d.open);
  free(d.ns);
  free(d.attrs);
  xmt_memo_free(&d.ids);
  xmlDictFree(d.dict);
  XML_ParserFree(d.parser);
  xmlSetStructuredErrorFunc(prev_ctx, prev);
  return d.st != XMT_OK ? d.st : st;
}

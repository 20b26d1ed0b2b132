/* findings_stream.c -- the findings of a document a chunk of units at a
 * time: what the shipped stylesheets need, without the document or its
 * findings whole in memory (a 50 MB document took 2.6 GB as trees).
 *
 * The document is read three times, as a stream (xmlTextReader, a
 * trans-unit expanded at a time): once for the lines of its trans-units
 * (a problem on another unit's line is that unit's), once for the counts
 * of the summary and the usual length ratio (the length flag of every row
 * needs it), and once for the chunks. Each chunk is a findings document
 * of the units of one <file>, the same elements xmt_findings_build writes
 * for them. What stays for the whole run: the check's problems, a line a
 * trans-unit, the states, the attributes of each <file>, the flags of
 * each row (during the second pass, its lengths too). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/xmlreader.h>

#include "report_private.h"

/* What an element is to the walk; libxml2 refuses a document nested
 * deeper than 256 (XML_PARSE_HUGE is not given). */
enum { NONE, ROOT, FILE_EL, IN_YES, IN_NO };
#define MAX_DEPTH 512

struct walker {
  xmlTextReaderPtr r;
  int skip; /* the subtree of the current node is done with */
  unsigned char state[MAX_DEPTH];
  size_t file; /* <file> elements begun */
  int body_seen;
  struct xmt_error_store *err;
  const char *path;
  int error_seen;
};

struct file_attrs {
  char *v[XMT_FINDINGS_FILE_ATTRS];
};

struct xmt_findings_stream {
  xmt_filter *f;
  const char *path;
  const struct xmt_units_text *units;
  size_t chunk_units;
  struct xmt_findings b;
  struct xmt_check_report report;
  struct file_attrs *files;
  size_t nfiles, files_cap;
  struct xmt_findings_row *all; /* the second pass's rows */
  size_t nall, all_cap;
  unsigned *flags; /* of every row, for the third pass */
  size_t counts[XMT_FINDINGS_FLAGS];
  size_t nrows, done;
  double median;
  int ended, counting;
  struct walker w;
};

/* --- Reading ----------------------------------------------------------- */

static void on_xml_error(void *user, xmlErrorPtr e) {
  struct walker *w = user;
  if (w->error_seen || e == NULL || e->level < XML_ERR_ERROR)
    return;
  w->error_seen = 1;
  char message[256];
  snprintf(message, sizeof message, "%s",
           e->message != NULL ? e->message : "error");
  size_t n = strlen(message);
  while (n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' '))
    message[--n] = '\0';
  xmt_error_at(w->err, XMT_ERR_XML,
               XMT_AT(w->path, e->line > 0 ? (unsigned long)e->line : 0,
                      e->int2 > 0 ? (unsigned long)e->int2 : 0),
               "the document is not well-formed XML: %s", message);
}

/* The options of xmt_report_read_xml, which reads it whole. */
static xmt_status walk_open(struct xmt_findings_stream *s) {
  struct walker *w = &s->w;
  xmlFreeTextReader(w->r);
  memset(w, 0, sizeof *w);
  w->err = &s->f->err, w->path = s->path;
  int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA;
  if (s->units != NULL && s->units->len > (size_t)INT_MAX)
    return xmt_error_at(w->err, XMT_ERR_USAGE, XMT_IN(s->path),
                        "the document is over 2 GB");
  if (s->units != NULL && s->units->fp != NULL) {
    /* a temporary file: read again from its start, named as the input */
    rewind(s->units->fp);
    if (lseek(fileno(s->units->fp), 0, SEEK_SET) != 0)
      return xmt_error_at(w->err, XMT_ERR_IO, XMT_IN(s->path),
                          "cannot read the units of the document again: %s",
                          strerror(errno));
    w->r = xmlReaderForFd(fileno(s->units->fp), s->path, NULL, options);
  } else {
    w->r = s->units != NULL
               ? xmlReaderForMemory(s->units->data, (int)s->units->len, s->path,
                                    NULL, options)
               : xmlReaderForFile(s->path, NULL, options);
  }
  if (w->r == NULL)
    return xmt_error_nomem(w->err);
  xmlTextReaderSetStructuredErrorHandler(w->r, on_xml_error, w);
  return XMT_OK;
}

static xmt_status walk_failed(struct walker *w) {
  if (!w->error_seen)
    xmt_error_at(w->err, XMT_ERR_XML, XMT_IN(w->path),
                 "the document is not well-formed XML: %s", "no root element");
  return w->err->pub.status;
}

/* The next element in document order, its subtree skipped when the one
 * before was done with: 1, 0 at the end, -1 on error (in err). */
static int next_element(struct walker *w, xmlNodePtr *n, int *depth) {
  for (;;) {
    int rc = w->skip ? xmlTextReaderNext(w->r) : xmlTextReaderRead(w->r);
    w->skip = 0;
    if (rc <= 0) {
      if (rc < 0 || w->error_seen)
        return walk_failed(w), -1;
      return 0;
    }
    if (xmlTextReaderNodeType(w->r) != XML_READER_TYPE_ELEMENT)
      continue;
    *depth = xmlTextReaderDepth(w->r);
    *n = xmlTextReaderCurrentNode(w->r);
    if (*n == NULL || *depth < 0 || *depth >= MAX_DEPTH) {
      xmt_error_nomem(w->err);
      return -1;
    }
    return 1;
  }
}

enum { W_END, W_FILE, W_UNIT, W_ERROR };

/* The next <file> of the root, or trans-unit of a <file>'s first <body>
 * or the groups in it (expanded into *unit), as xmt_findings_build
 * walks the tree. */
static int walk(struct walker *w, xmlNodePtr *unit, int *translatable) {
  xmlNodePtr n;
  int d, rc;
  while ((rc = next_element(w, &n, &d)) > 0) {
    int parent = d > 0 ? w->state[d - 1] : NONE;
    w->state[d] = NONE;
    if (d == 0) {
      w->state[0] = ROOT;
    } else if (parent == ROOT && xmt_findings_is(n, "file")) {
      w->state[d] = FILE_EL;
      w->file++, w->body_seen = 0;
      return W_FILE;
    } else if (parent == FILE_EL && !w->body_seen &&
               xmt_findings_is(n, "body")) {
      w->state[d] = IN_YES;
      w->body_seen = 1;
    } else if ((parent == IN_YES || parent == IN_NO) &&
               xmt_findings_is(n, "group")) {
      int no = xmt_findings_prop_is(n, "translate", "no");
      w->state[d] = parent == IN_YES && !no ? IN_YES : IN_NO;
    } else if ((parent == IN_YES || parent == IN_NO) &&
               xmt_findings_is(n, "trans-unit")) {
      w->skip = 1;
      if ((*unit = xmlTextReaderExpand(w->r)) == NULL)
        return walk_failed(w), W_ERROR;
      *translatable = parent == IN_YES;
      return W_UNIT;
    } else {
      w->skip = 1;
    }
  }
  return rc < 0 ? W_ERROR : W_END;
}

/* Every trans-unit start tag's line, as xmt_findings_build takes them:
 * any element below the root, not inside another trans-unit. */
static xmt_status read_lines(struct xmt_findings_stream *s) {
  xmt_status st = walk_open(s);
  xmlNodePtr n;
  int d, rc = 0;
  while (st == XMT_OK && (rc = next_element(&s->w, &n, &d)) > 0 && !s->b.nomem)
    if (d > 0 && xmt_findings_is(n, "trans-unit")) {
      xmt_findings_line(&s->b, (unsigned long)xmlGetLineNo(n));
      s->w.skip = 1;
    }
  if (st == XMT_OK && rc < 0)
    st = s->f->err.pub.status;
  xmt_findings_sort_lines(&s->b);
  return st;
}

/* --- Chunks ------------------------------------------------------------ */

static void file_element(struct xmt_findings_stream *s, xmlNodePtr parent,
                         size_t index, xmlNodePtr *out) {
  char num[32];
  snprintf(num, sizeof num, "%zu", index);
  xmlNodePtr fo = xmt_findings_add(&s->b, parent, "file");
  xmt_findings_set(&s->b, fo, "index", num);
  for (int k = 0; k < XMT_FINDINGS_FILE_ATTRS && index <= s->nfiles; k++)
    xmt_findings_set(&s->b, fo, xmt_findings_file_attrs[k],
                     s->files[index - 1].v[k]);
  if (out != NULL)
    *out = fo;
}

static xmlNodePtr chunk_root(struct xmt_findings_stream *s) {
  xmlNodePtr root = xmt_findings_begin(&s->b, s->path, &s->report);
  if (root != NULL && s->nfiles > 0) {
    xmt_findings_set(&s->b, root, "source-language", s->files[0].v[1]);
    xmt_findings_set(&s->b, root, "target-language", s->files[0].v[2]);
  }
  return root;
}

/* The attributes of the <file> the walk is on, kept for the head. */
static void keep_file(struct xmt_findings_stream *s) {
  struct file_attrs *fa =
      xmt_grow_array(s->files, &s->files_cap, s->nfiles + 1, sizeof *fa);
  if (fa == NULL) {
    s->b.nomem = 1;
    return;
  }
  s->files = fa;
  fa = &s->files[s->nfiles++];
  memset(fa, 0, sizeof *fa);
  xmlNodePtr n = xmlTextReaderCurrentNode(s->w.r);
  for (int k = 0; k < XMT_FINDINGS_FILE_ATTRS && n != NULL; k++) {
    xmlChar *v = xmlGetProp(n, BAD_CAST xmt_findings_file_attrs[k]);
    if (v != NULL && (fa->v[k] = xmt_strdup((const char *)v)) == NULL)
      s->b.nomem = 1;
    xmlFree(v);
  }
}

/* The units of the next chunk into s->b.out and its rows; *file is
 * their <file>'s index; no rows and s->ended at the end. */
static xmt_status read_chunk(struct xmt_findings_stream *s, size_t *file) {
  xmlNodePtr root = chunk_root(s), file_out = NULL;
  size_t n = 0;
  while (root != NULL && !s->b.nomem && n < s->chunk_units) {
    xmlNodePtr unit;
    int translatable;
    int ev = walk(&s->w, &unit, &translatable);
    if (ev == W_ERROR)
      return s->f->err.pub.status;
    if (ev == W_END) {
      s->ended = 1;
      break;
    }
    if (ev == W_FILE && s->counting)
      keep_file(s);
    if (ev == W_FILE && n > 0)
      break; /* a chunk is of one <file> */
    if (ev != W_UNIT)
      continue;
    if (file_out == NULL)
      file_element(s, root, *file = s->w.file, &file_out);
    if (file_out != NULL)
      xmt_findings_unit(&s->b, unit, file_out, translatable);
    n++;
  }
  return s->b.nomem ? xmt_error_nomem(&s->f->err) : XMT_OK;
}

/* The second pass: every row's lengths and flags, the usual ratio, the
 * counts of the flags. */
static xmt_status count_rows(struct xmt_findings_stream *s) {
  xmt_status st = walk_open(s);
  s->counting = s->b.rows_only = 1;
  while (st == XMT_OK && !s->ended) {
    size_t file = 0;
    if ((st = read_chunk(s, &file)) != XMT_OK)
      break;
    struct xmt_findings_row *all = xmt_grow_array(
        s->all, &s->all_cap, s->nall + s->b.nrows + 1, sizeof *all);
    if (all == NULL) {
      st = xmt_error_nomem(&s->f->err);
      break;
    }
    s->all = all;
    for (size_t i = 0; i < s->b.nrows; i++) {
      all[s->nall] = s->b.rows[i];
      all[s->nall++].node = NULL;
    }
  }
  if (st == XMT_OK && xmt_findings_median(s->all, s->nall, &s->median) != 0)
    st = xmt_error_nomem(&s->f->err);
  if (st == XMT_OK) {
    xmt_findings_length(s->all, s->nall, s->median);
    xmt_findings_flags(&s->b, s->all, s->nall, s->counts);
    s->nrows = s->nall;
    /* The third pass takes them as found: the codes compared and the
     * words counted once. */
    s->flags = malloc((s->nall + 1) * sizeof *s->flags);
    if (s->flags == NULL) {
      st = xmt_error_nomem(&s->f->err);
    } else {
      for (size_t i = 0; i < s->nall; i++)
        s->flags[i] = s->all[i].flags;
      s->b.known_flags = s->flags, s->b.nknown = s->nall;
    }
  }
  free(s->all);
  s->all = NULL, s->nall = 0;
  s->counting = s->b.rows_only = 0;
  return st;
}

/* --- The stream -------------------------------------------------------- */

void xmt_findings_stream_free(xmt_findings_stream *s) {
  if (s == NULL)
    return;
  xmlFreeTextReader(s->w.r);
  for (size_t i = 0; i < s->nfiles; i++)
    for (int k = 0; k < XMT_FINDINGS_FILE_ATTRS; k++)
      free(s->files[i].v[k]);
  free(s->files);
  free(s->all);
  free(s->flags);
  xmt_findings_free(&s->b);
  free(s);
}

xmt_status xmt_findings_stream_open(xmt_filter *f, const char *path,
                                    const struct xmt_units_text *units,
                                    size_t chunk_units,
                                    xmt_findings_stream **out) {
  *out = NULL;
  xmt_findings_stream *s = calloc(1, sizeof *s);
  if (s == NULL)
    return xmt_error_nomem(&f->err);
  s->f = f, s->path = path, s->units = units;
  s->chunk_units = chunk_units > 0 ? chunk_units : 1;
  xmt_status st = xmt_findings_check(&s->b, f, path, units, &s->report);
  if (st == XMT_OK)
    st = read_lines(s);
  if (st == XMT_OK && s->b.nomem)
    st = xmt_error_nomem(&f->err);
  if (st == XMT_OK)
    st = count_rows(s);
  if (st == XMT_OK) {
    st = walk_open(s); /* for the chunks */
    s->ended = 0;
  }
  if (st != XMT_OK) {
    xmt_findings_stream_free(s);
    return st;
  }
  *out = s;
  return XMT_OK;
}

xmlDocPtr xmt_findings_stream_head(xmt_findings_stream *s) {
  xmlNodePtr root = chunk_root(s);
  if (root != NULL) {
    xmlNodePtr summary = xmt_findings_add(&s->b, root, "summary");
    /* The rest are spliced in after it, as rows are. */
    xmt_findings_problems(&s->b, xmt_findings_add(&s->b, root, "problems"), 0,
                          1);
    for (size_t i = 0; i < s->nfiles; i++)
      file_element(s, root, i + 1, NULL);
    if (summary != NULL)
      xmt_findings_summary(&s->b, summary, &s->report, s->nrows, s->counts);
  }
  xmlDocPtr head = s->b.out;
  s->b.out = NULL;
  if (s->b.nomem) {
    xmlFreeDoc(head);
    xmt_error_nomem(&s->f->err);
    return NULL;
  }
  return head;
}

size_t xmt_findings_stream_nproblems(const xmt_findings_stream *s) {
  return s->b.nproblems;
}

xmlDocPtr xmt_findings_stream_problems(xmt_findings_stream *s, size_t from,
                                       size_t n) {
  xmlNodePtr root = chunk_root(s);
  if (root != NULL)
    xmt_findings_problems(&s->b, xmt_findings_add(&s->b, root, "problems"),
                          from, n);
  xmlDocPtr doc = s->b.out;
  s->b.out = NULL;
  if (s->b.nomem) {
    xmlFreeDoc(doc);
    xmt_error_nomem(&s->f->err);
    return NULL;
  }
  return doc;
}

xmt_status xmt_findings_stream_next(xmt_findings_stream *s, xmlDocPtr *chunk,
                                    size_t *file, size_t *before) {
  *chunk = NULL;
  while (!s->ended) {
    xmt_status st = read_chunk(s, file);
    if (st != XMT_OK)
      return st;
    if (s->b.nrows == 0 && s->b.root->children == NULL)
      continue; /* a <file> without units, or the end */
    size_t counts[XMT_FINDINGS_FLAGS] = {0};
    xmt_findings_flags(&s->b, s->b.rows, s->b.nrows, counts);
    *before = s->done;
    s->done += s->b.nrows;
    *chunk = s->b.out;
    s->b.out = NULL;
    return s->b.nomem ? xmt_error_nomem(&s->f->err) : XMT_OK;
  }
  return XMT_OK;
}

/* unit.c -- trans-units as the reader hands them out. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xliff_private.h"

xmt_xliff_unit *xmt_unit_new(size_t strings) {
  /* malloc, not calloc, which passes by the thread's cache of freed
   * chunks: one unit in each trans-unit. The strings are written over. */
  xmt_xliff_unit *u = malloc(sizeof *u + strings);
  if (u != NULL) {
    memset(u, 0, sizeof *u);
    u->translatable = 1;
    u->strings = (char *)(u + 1);
    u->segs = u->segs_inline;
    u->segs_cap = sizeof u->segs_inline / sizeof *u->segs_inline;
  }
  return u;
}

static void free_segs(xmt_xliff_unit *u) {
  if (u->segs != u->segs_inline)
    free(u->segs);
}

/* Bytes of units kept in blocks of this size; a unit larger than an
 * eighth of it gets its own allocation. */
#define RAW_BLOCK_SIZE (256u * 1024u)

void xmt_raw_block_release(struct xmt_raw_block *b) {
  if (b != NULL && __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0)
    free(b);
}

xmt_status xmt_unit_set_raw(xmt_xliff_unit *u, struct xmt_raw_block **block,
                            const char *bytes, size_t len) {
  char *at;
  if (len + 1 > RAW_BLOCK_SIZE / 8) {
    if ((at = malloc(len + 1)) == NULL)
      return XMT_ERR_NOMEM;
    u->raw.cap = len + 1;
  } else {
    struct xmt_raw_block *b = *block;
    if (b == NULL || b->size - b->used < len + 1) {
      if ((b = malloc(sizeof *b + RAW_BLOCK_SIZE)) == NULL)
        return XMT_ERR_NOMEM;
      b->refs = 1; /* the holder's */
      b->used = 0;
      b->size = RAW_BLOCK_SIZE;
      xmt_raw_block_release(*block);
      *block = b;
    }
    at = b->data + b->used;
    b->used += len + 1;
    __atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
    u->raw_block = b;
    u->raw.cap = 0; /* not a buffer of its own */
  }
  memcpy(at, bytes, len);
  at[len] = '\0';
  u->raw.data = at;
  u->raw.len = len;
  return XMT_OK;
}

void xmt_unit_clear_segments(xmt_xliff_unit *u) {
  for (size_t i = 0; i < u->nsegs; i++) {
    free(u->segs[i].mid);
    if (u->segs[i].source != u->whole_source)
      xmt_segment_free(u->segs[i].source);
    if (u->segs[i].target != u->segs[i].source)
      xmt_segment_free(u->segs[i].target);
    xmt_segment_free(u->segs[i].flowed);
  }
  u->nsegs = 0;
  xmt_unit_free_target_gaps(u);
  for (size_t i = 0; i < u->ngaps; i++)
    xmt_segment_free(u->gaps[i]);
  free(u->gaps);
  u->gaps = NULL;
  u->ngaps = 0;
}

void xmt_unit_release_placed(xmt_xliff_unit *u) {
  if (u == NULL)
    return;
  for (size_t k = 0; k < u->nsubs; k++)
    xmt_unit_drop_sub_target(u, k);
  if (u->gaps != NULL) { /* cut by a segmenter: every segment is its */
    xmt_unit_clear_segments(u);
    free_segs(u);
    u->segs = u->segs_inline;
    u->segs_cap = sizeof u->segs_inline / sizeof *u->segs_inline;
    return;
  }
  for (size_t i = 0; i < u->nsegs; i++) {
    struct xmt_unit_segment *s = &u->segs[i];
    if (s->target != s->source)
      xmt_segment_free(s->target);
    s->target = NULL;
    xmt_segment_free(s->flowed);
    s->flowed = NULL;
  }
}

void xmt_unit_drop_target(xmt_xliff_unit *u, size_t i) {
  if (u != NULL && i >= u->nsegs && i - u->nsegs < u->nsubs)
    xmt_unit_drop_sub_target(u, i - u->nsegs);
  if (u == NULL || i >= u->nsegs)
    return;
  struct xmt_unit_segment *s = &u->segs[i];
  if (s->target != s->source)
    xmt_segment_free(s->target);
  s->target = NULL;
}

/* The code points of seg's text. */
static size_t text_chars(const xmt_segment *seg) {
  size_t len;
  const char *t = seg != NULL ? xmt_segment_text(seg, &len) : NULL;
  return t != NULL ? xmt_utf8_count(t, len) : 0;
}

size_t xmt_unit_target_chars(const xmt_xliff_unit *u) {
  size_t n = 0;
  for (size_t i = 0; i < u->nsegs; i++)
    n += text_chars(u->segs[i].target);
  for (size_t i = 0; u->gaps != NULL && i < u->ngaps; i++)
    n += text_chars(u->gaps[i]);
  return n;
}

size_t xmt_unit_written_chars(const xmt_xliff_unit *u) {
  for (size_t i = 0; i < u->nsegs; i++)
    if (u->segs[i].target != NULL)
      return xmt_unit_target_chars(u);
  return u->has_target ? text_chars(u->existing) : 0;
}

/* i in decimal, at the end of buf; returns its first digit. snprintf
 * took 600 instructions a segment for it. */
static char *decimal(char buf[24], size_t i) {
  char *p = buf + 23;
  *p = '\0';
  do
    *--p = (char)('0' + i % 10);
  while ((i /= 10) > 0);
  return p;
}

xmt_status xmt_unit_set_generated(xmt_xliff_unit *u, xmt_segment **sources,
                                  xmt_segment **gaps, size_t n) {
  /* Most units are cut in one or two: their segments stay in the unit. */
  struct xmt_unit_segment local[sizeof u->segs_inline / sizeof *u->segs_inline];
  size_t cap = sizeof local / sizeof *local;
  struct xmt_unit_segment *segs = n <= cap ? local : calloc(n, sizeof *segs);
  if (segs == NULL)
    return XMT_ERR_NOMEM;
  if (segs == local)
    memset(local, 0, sizeof local);
  for (size_t i = 0; i < n; i++) {
    char buf[24], *mid = decimal(buf, i);
    if ((segs[i].mid = xmt_memdup(mid, (size_t)(buf + 23 - mid))) == NULL) {
      while (i-- > 0)
        free(segs[i].mid);
      if (segs != local)
        free(segs);
      return XMT_ERR_NOMEM;
    }
    segs[i].source = sources[i];
    segs[i].tseg = segs[i].sdlseg = SIZE_MAX;
  }
  xmt_unit_clear_segments(u);
  free_segs(u);
  if (segs == local) {
    memcpy(u->segs_inline, local, sizeof local);
    segs = u->segs_inline;
  } else {
    cap = n;
  }
  u->segs = segs;
  u->segs_cap = cap;
  u->nsegs = n;
  u->gaps = gaps;
  u->ngaps = n + 1;
  u->segmented = 1;
  u->mirrored = 0; /* the target's mrks belong to the old segments */
  return XMT_OK;
}

void xmt_xliff_unit_free(xmt_xliff_unit *u) {
  if (u == NULL)
    return;
  xmt_unit_clear_segments(u);
  free_segs(u);
  xmt_segment_free(u->existing);
  xmt_segment_free(u->whole_source);
  if (u->raw_block != NULL)
    xmt_raw_block_release(u->raw_block);
  else
    xmt_buf_free(&u->raw);
  for (size_t i = 0; i < u->ntsegs; i++)
    free(u->tsegs[i].mid);
  free(u->tsegs);
  for (size_t i = 0; i < u->nsdlsegs; i++)
    free(u->sdlsegs[i].id);
  free(u->sdlsegs);
  free(u->outside);
  xmt_unit_free_subs(u);
  free(u->state);
  free(u);
}

xmt_status xmt_unit_add_segment(xmt_xliff_unit *u, const char *mid,
                                xmt_segment *source, size_t *index) {
  if (u->nsegs == u->segs_cap) {
    size_t cap = u->segs_cap;
    int was_inline = u->segs == u->segs_inline;
    /* The first segments live inside the unit: they are copied out. */
    struct xmt_unit_segment *s = xmt_grow_array(was_inline ? NULL : u->segs,
                                                &cap, u->nsegs + 1, sizeof *s);
    if (s == NULL)
      return XMT_ERR_NOMEM;
    if (was_inline)
      memcpy(s, u->segs, u->nsegs * sizeof *s);
    u->segs = s;
    u->segs_cap = cap;
  }
  struct xmt_unit_segment *s = &u->segs[u->nsegs];
  memset(s, 0, sizeof *s);
  s->tseg = s->sdlseg = SIZE_MAX;
  s->source = source != NULL ? source : xmt_segment_new();
  s->mid = xmt_strdup(mid);
  if (s->source == NULL || (mid != NULL && s->mid == NULL)) {
    if (source == NULL)
      xmt_segment_free(s->source);
    free(s->mid);
    return XMT_ERR_NOMEM;
  }
  *index = u->nsegs++;
  return XMT_OK;
}

xmt_status xmt_unit_add_tseg(xmt_xliff_unit *u, const char *mid,
                             size_t *index) {
  struct xmt_target_seg *t =
      xmt_grow_one(&u->tsegs, u->ntsegs, &u->tsegs_cap, sizeof *t);
  if (t == NULL)
    return XMT_ERR_NOMEM;
  t->empty = 1;
  if (mid != NULL && (t->mid = xmt_strdup(mid)) == NULL)
    return XMT_ERR_NOMEM;
  *index = u->ntsegs++;
  return XMT_OK;
}

xmt_status xmt_unit_add_sdlseg(xmt_xliff_unit *u, const char *id,
                               size_t *index) {
  struct xmt_sdl_seg *t =
      xmt_grow_one(&u->sdlsegs, u->nsdlsegs, &u->sdlsegs_cap, sizeof *t);
  if (t == NULL)
    return XMT_ERR_NOMEM;
  if (id != NULL && (t->id = xmt_strdup(id)) == NULL)
    return XMT_ERR_NOMEM;
  *index = u->nsdlsegs++;
  return XMT_OK;
}

xmt_status xmt_unit_add_outside(xmt_xliff_unit *u, size_t *index) {
  if (xmt_grow_one(&u->outside, u->noutside, &u->outside_cap,
                   sizeof *u->outside) == NULL)
    return XMT_ERR_NOMEM;
  *index = u->noutside++;
  return XMT_OK;
}

static int same_id(const char *a, const char *b) {
  return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* 1 when the target's mrk of segment s (which has one) still waits for a
 * translation. Trados writes one for every segment of a file it prepares:
 * empty, or holding a copy of the segment's codes with no text, which is
 * no translation either. Its sdl:seg says more: a confirmed segment is
 * the translator's word, even empty. Codes that a memory, an engine or a
 * translator put there (an origin other than "not-translated") are their
 * answer, kept as any other; only an empty mrk is open whatever its
 * origin, as it always was. */
static int target_open(const xmt_xliff_unit *u,
                       const struct xmt_unit_segment *s) {
  const struct xmt_sdl_seg *d =
      s->sdlseg != SIZE_MAX ? &u->sdlsegs[s->sdlseg] : NULL;
  if (s->locked || (d != NULL && d->confirmed))
    return 0;
  if (s->tseg == SIZE_MAX)
    return 1; /* its mrk is missing: added with the translation */
  const struct xmt_target_seg *t = &u->tsegs[s->tseg];
  return t->empty || (d != NULL && d->untouched && !t->text);
}

/* Segment ids of the target's mrk or of sdl:seg elements, sorted by id
 * and place, so that each segment finds the first with its id by binary
 * search: a unit of thousands of segments took quadratic time. Units of a
 * few segments walk the list, without allocating. */
struct mid_ref {
  const char *mid;
  size_t k;
};

#define MIDS_WALKED 8

static int mid_order(const void *x, const void *y) {
  const struct mid_ref *a = x, *b = y;
  int c = strcmp(a->mid, b->mid);
  return c != 0 ? c : (a->k > b->k) - (a->k < b->k);
}

/* refs of the n ids (NULL ones left out), sorted; NULL for a few ids or
 * when out of memory, which walks the list instead. */
static struct mid_ref *mid_index(const void *array, size_t size, size_t offset,
                                 size_t n, size_t *count) {
  *count = 0;
  struct mid_ref *refs = n > MIDS_WALKED ? malloc(n * sizeof *refs) : NULL;
  if (refs == NULL)
    return NULL;
  for (size_t k = 0; k < n; k++) {
    const char *mid = *(char *const *)((const char *)array + k * size + offset);
    if (mid != NULL) {
      refs[*count].mid = mid;
      refs[(*count)++].k = k;
    }
  }
  qsort(refs, *count, sizeof *refs, mid_order);
  return refs;
}

/* The first of the n ids equal to mid, or SIZE_MAX. */
static size_t mid_find(const struct mid_ref *refs, size_t count,
                       const void *array, size_t size, size_t offset, size_t n,
                       const char *mid) {
  if (mid == NULL)
    return SIZE_MAX;
  if (refs == NULL) {
    for (size_t k = 0; k < n; k++)
      if (same_id(*(char *const *)((const char *)array + k * size + offset),
                  mid))
        return k;
    return SIZE_MAX;
  }
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    if (strcmp(refs[m].mid, mid) < 0)
      lo = m + 1;
    else
      hi = m;
  }
  return lo < count && strcmp(refs[lo].mid, mid) == 0 ? refs[lo].k : SIZE_MAX;
}

#define TSEG_MID sizeof *u->tsegs, offsetof(struct xmt_target_seg, mid)
#define SDLSEG_ID sizeof *u->sdlsegs, offsetof(struct xmt_sdl_seg, id)
#define SEG_MID sizeof *u->segs, offsetof(struct xmt_unit_segment, mid)

/* A mid two segments share, or NULL. */
static const char *mid_twice(const xmt_xliff_unit *u) {
  size_t n;
  struct mid_ref *refs = mid_index(u->segs, SEG_MID, u->nsegs, &n);
  const char *twice = NULL;
  if (refs != NULL) {
    for (size_t k = 1; twice == NULL && k < n; k++)
      if (strcmp(refs[k - 1].mid, refs[k].mid) == 0)
        twice = refs[k].mid;
    free(refs);
    return twice;
  }
  for (size_t i = 0; twice == NULL && i < u->nsegs; i++)
    for (size_t k = i + 1; twice == NULL && k < u->nsegs; k++)
      if (same_id(u->segs[i].mid, u->segs[k].mid))
        twice = u->segs[i].mid;
  return twice;
}

const char *xmt_unit_resolve(xmt_xliff_unit *u) {
  const char *twice = u->segmented ? mid_twice(u) : NULL;
  if (twice != NULL)
    return twice;
  u->mirrored = u->segmented && u->ntsegs > 0 && u->target.end != 0;
  int marked = u->mirrored;
  int open = 0;
  size_t nt, nd;
  struct mid_ref *tmids = mid_index(u->tsegs, TSEG_MID, u->ntsegs, &nt);
  struct mid_ref *dmids = mid_index(u->sdlsegs, SDLSEG_ID, u->nsdlsegs, &nd);
  for (size_t i = 0; i < u->nsegs; i++) {
    struct xmt_unit_segment *s = &u->segs[i];
    s->tseg = mid_find(tmids, nt, u->tsegs, TSEG_MID, u->ntsegs, s->mid);
    s->sdlseg = mid_find(dmids, nd, u->sdlsegs, SDLSEG_ID, u->nsdlsegs, s->mid);
    s->locked = s->sdlseg != SIZE_MAX && u->sdlsegs[s->sdlseg].locked;
    /* A target of mrks is kept, its segments filled where they stand:
     * one whose mrk is missing gets one, so that a translator's finished
     * segments are not translated again. */
    if (s->tseg == SIZE_MAX && s->mid == NULL)
      u->mirrored = 0;
    else if (target_open(u, s))
      open = 1;
  }
  free(tmids);
  free(dmids);
  /* A target with a segment still open is no translation of the unit;
   * nor is another tool's whose mrks leave a segment out: that
   * segment's text is in no target. */
  if ((u->mirrored && open) || (marked && !u->mirrored))
    u->has_target = 0;
  return NULL;
}

size_t xmt_unit_stray_tseg(const xmt_xliff_unit *u) {
  if (!u->segmented || u->ntsegs == 0 || u->nsdlsegs == 0)
    return SIZE_MAX;
  char *taken = calloc(u->ntsegs, 1);
  if (taken == NULL)
    return SIZE_MAX; /* the check is lost, not the unit */
  for (size_t i = 0; i < u->nsegs; i++)
    if (u->segs[i].tseg != SIZE_MAX)
      taken[u->segs[i].tseg] = 1;
  size_t stray = SIZE_MAX;
  for (size_t k = 0; stray == SIZE_MAX && k < u->ntsegs; k++)
    if (!taken[k] && u->tsegs[k].mid != NULL)
      stray = k;
  free(taken);
  return stray;
}

int xmt_xliff_unit_segment_wanted(const xmt_xliff_unit *u, size_t i,
                                  int overwrite) {
  if (u == NULL)
    return 0;
  if (i >= u->nsegs || u->segs[i].locked)
    return 0;
  if (u->mirrored && !overwrite && !target_open(u, &u->segs[i]))
    return 0;
  return 1;
}

int xmt_xliff_unit_wants_target(
    const xmt_xliff_unit *u, const struct xmt_xliff_target_options *options) {
  if (u == NULL || options == NULL)
    return 0;
  if (!u->translatable || u->nsegs == 0 ||
      (u->has_target && !u->copied && !options->overwrite))
    return 0;
  int any = 0;
  for (size_t i = 0; i < u->nsegs; i++) {
    if (!xmt_xliff_unit_segment_wanted(u, i, options->overwrite))
      continue;
    /* Trados segments are filled one by one where they stand: one the
     * engine failed on stays empty, as untranslated. */
    if (u->segs[i].target == NULL && u->nsdlsegs > 0 && u->mirrored)
      continue;
    if (u->segs[i].target == NULL)
      return 0;
    any = 1;
  }
  return any;
}

int xmt_xliff_unit_segment_locked(const xmt_xliff_unit *u, size_t i) {
  return u != NULL ? i < u->nsegs && u->segs[i].locked : 0;
}

const char *xmt_xliff_unit_id(const xmt_xliff_unit *u) {
  return u != NULL ? u->id : NULL;
}
const char *xmt_xliff_unit_resname(const xmt_xliff_unit *u) {
  return u != NULL ? u->resname : NULL;
}
int xmt_xliff_unit_translatable(const xmt_xliff_unit *u) {
  return u != NULL ? u->translatable : 0;
}
int xmt_xliff_unit_preserve_space(const xmt_xliff_unit *u) {
  return u != NULL ? u->preserve_space : 0;
}
int xmt_xliff_unit_approved(const xmt_xliff_unit *u) {
  return u != NULL ? u->approved : 0;
}
int xmt_xliff_unit_segmented(const xmt_xliff_unit *u) {
  return u != NULL ? u->segmented : 0;
}
int xmt_xliff_unit_has_target(const xmt_xliff_unit *u) {
  return u != NULL ? u->has_target && !u->copied : 0;
}
const char *xmt_xliff_unit_target_state(const xmt_xliff_unit *u) {
  return u != NULL ? u->state : NULL;
}
unsigned long xmt_xliff_unit_line(const xmt_xliff_unit *u) {
  return u != NULL ? u->line : 0;
}
unsigned long xmt_xliff_unit_column(const xmt_xliff_unit *u) {
  return u != NULL ? u->column : 0;
}
const char *xmt_xliff_unit_source_language(const xmt_xliff_unit *u) {
  return u != NULL ? u->source_language : NULL;
}
const char *xmt_xliff_unit_target_language(const xmt_xliff_unit *u) {
  return u != NULL ? u->target_language : NULL;
}
size_t xmt_xliff_unit_segment_count(const xmt_xliff_unit *u) {
  return u != NULL ? u->nsegs : 0;
}
const char *xmt_xliff_unit_segment_mid(const xmt_xliff_unit *u, size_t i) {
  return u != NULL ? (i < u->nsegs ? u->segs[i].mid : NULL) : NULL;
}
const xmt_segment *xmt_xliff_unit_source(const xmt_xliff_unit *u, size_t i) {
  return u != NULL ? (i < u->nsegs ? u->segs[i].source : NULL) : NULL;
}
const xmt_segment *xmt_unit_mt_source(const xmt_xliff_unit *u, size_t i) {
  if (i >= u->nsegs)
    return i - u->nsegs < u->nsubs ? u->subs[i - u->nsegs].source : NULL;
  return u->segs[i].flowed != NULL ? u->segs[i].flowed : u->segs[i].source;
}
const xmt_segment *xmt_unit_gap(const xmt_xliff_unit *u, size_t i) {
  return u->gaps != NULL && i < u->ngaps ? u->gaps[i] : NULL;
}
const xmt_segment *xmt_unit_segment_target(const xmt_xliff_unit *u, size_t i) {
  if (i >= u->nsegs)
    return i - u->nsegs < u->nsubs ? u->subs[i - u->nsegs].target : NULL;
  return u->segs[i].target;
}
const xmt_segment *xmt_xliff_unit_existing_target(const xmt_xliff_unit *u) {
  return u != NULL ? u->existing : NULL;
}

xmt_status xmt_xliff_unit_set_target(xmt_xliff_unit *u, size_t i,
                                     const xmt_segment *target) {
  if (u != NULL && i >= u->nsegs && i - u->nsegs < u->nsubs && target != NULL)
    return xmt_unit_set_sub_target(u, i - u->nsegs, target);
  if (u == NULL || i >= u->nsegs || target == NULL)
    return XMT_ERR_USAGE;
  struct xmt_unit_segment *s = &u->segs[i];
  return xmt_unit_keep_target(&s->target, s->source, target);
}

xmt_status xmt_unit_keep_target(xmt_segment **slot, xmt_segment *source,
                                const xmt_segment *target) {
  if (*slot == source)
    *slot = NULL;
  /* A translation equal to its source (numbers, names, identity runs)
   * shares the source segment instead of copying it. */
  if (xmt_segment_equal(target, source)) {
    xmt_segment_free(*slot);
    *slot = source;
    return XMT_OK;
  }
  if (*slot == NULL && (*slot = xmt_segment_new()) == NULL)
    return XMT_ERR_NOMEM;
  return xmt_segment_copy(*slot, target);
}

/* --- White space that is not significant ---------------------------------
 */

/* Text [a, b) of seg with each white space run of it that holds a line
 * break made one space, into out; offsets[k] is where tag k goes. A run
 * stops at a code, so a code keeps the space on each side of it. */
static xmt_status flow_text(const xmt_segment *seg, size_t a, size_t b,
                            struct xmt_buf *out, size_t *offsets) {
  size_t len, ntags = xmt_segment_tag_count(seg), k = 0;
  const char *text = xmt_segment_text(seg, &len);
  struct xmt_tag t;
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && i <= len;) {
    size_t next = len + 1; /* offset of the first tag after i */
    for (; k < ntags && xmt_segment_tag(seg, k, &t) == XMT_OK; k++) {
      if (t.offset > i) {
        next = t.offset;
        break;
      }
      offsets[k] = out->len;
    }
    if (i == len)
      break;
    size_t j = i;
    while (i >= a && j < b && j < next && xmt_is_xml_space(text[j]))
      j++;
    if (j > i && (memchr(text + i, '\n', j - i) != NULL ||
                  memchr(text + i, '\r', j - i) != NULL)) {
      st = xmt_buf_append_byte(out, ' ');
    } else {
      j = j > i ? j : i + 1;
      st = xmt_buf_append(out, text + i, j - i);
    }
    i = j;
  }
  return st;
}

static xmt_status flow_segment(struct xmt_unit_segment *s) {
  size_t len, a = 0;
  const char *text = xmt_segment_text(s->source, &len);
  size_t b = len;
  while (a < b && xmt_is_xml_space(text[a]))
    a++;
  while (b > a && xmt_is_xml_space(text[b - 1]))
    b--;
  if (memchr(text + a, '\n', b - a) == NULL &&
      memchr(text + a, '\r', b - a) == NULL)
    return XMT_OK;
  size_t ntags = xmt_segment_tag_count(s->source);
  size_t *offsets = malloc((ntags > 0 ? ntags : 1) * sizeof *offsets);
  struct xmt_buf out = {0};
  xmt_segment *flowed = xmt_segment_new();
  xmt_status st = offsets != NULL && flowed != NULL ? XMT_OK : XMT_ERR_NOMEM;
  if (st == XMT_OK)
    st = flow_text(s->source, a, b, &out, offsets);
  if (st == XMT_OK)
    st = xmt_segment_retag(flowed, s->source, out.data != NULL ? out.data : "",
                           out.len, offsets);
  if (st == XMT_OK) {
    s->flowed = flowed;
    flowed = NULL;
  }
  xmt_segment_free(flowed);
  xmt_buf_free(&out);
  free(offsets);
  return st;
}

xmt_status xmt_unit_flow(xmt_xliff_unit *u) {
  if (u == NULL)
    return XMT_ERR_USAGE;
  xmt_status st = XMT_OK;
  for (size_t i = 0; st == XMT_OK && !u->preserve_space && i < u->nsegs; i++)
    if (u->segs[i].flowed == NULL)
      st = flow_segment(&u->segs[i]);
  return st;
}

/* The unit's target: its one segment's translation (or source, when it
 * wants none) lent, or its segments' joined in scratch. */
xmt_status xmt_xliff_unit_target(const xmt_xliff_unit *u,
                                 const struct xmt_xliff_target_options *o,
                                 xmt_segment *scratch,
                                 const xmt_segment **target) {
  *target = NULL;
  if (u->segmented && u->gaps == NULL)
    return XMT_ERR_USAGE;
  if (!xmt_xliff_unit_wants_target(u, o))
    return XMT_OK;
  if (u->gaps == NULL) { /* not copied: the caller only reads it */
    *target = u->segs[0].target != NULL ? u->segs[0].target : u->segs[0].source;
    return XMT_OK;
  }
  xmt_status st = xmt_unit_joined_target(u, scratch);
  if (st == XMT_OK)
    *target = scratch;
  return st;
}

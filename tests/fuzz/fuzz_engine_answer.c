/* fuzz_engine_answer.c -- arbitrary bytes as an engine's answers. A
 * backend answers each request with the next record of the input; in
 * every tag mode the run must either fail segments cleanly or write a
 * well-formed document whose targets hold every code of their source
 * exactly once.
 *
 * Lone bx/ex (partners in other units) are among the codes.
 *
 * Input: an options byte (1: self-trained aligner, 2: a markup backend for
 * raw mode, 4: no probes, 8: one segment per batch, 16: segmentation),
 * then records: a control byte, a length byte and that many bytes.
 * Control & 3: 0 the bytes are the answer; 1 the answer, with the next
 * record as its Pharaoh alignment; 2 a segment error; 3 no response at
 * all. Records are used in turn and again from the first. */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "filter_private.h"
#include "fuzz.h"

static const char doc[] =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<xliff version=\"1.2\" "
    "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\">\n"
    "<file original=\"f.docx\" source-language=\"en\" "
    "target-language=\"fr\" datatype=\"x-undefined\">\n<body>\n"
    "<trans-unit id=\"1\"><source>Plain words here.</source></trans-unit>\n"
    "<trans-unit id=\"2\"><source>A <g id=\"1\">bold <g id=\"2\">and "
    "nested</g> span</g> with<x id=\"3\"/> a break.</source></trans-unit>\n"
    "<trans-unit id=\"3\"><source><bx id=\"1\"/>Isolated start and "
    "<bpt id=\"2\">&lt;a&gt;</bpt>link<ept id=\"2\">&lt;/a&gt;</ept> "
    "end<ex id=\"1\"/>; <ph id=\"4\">{0}</ph> &amp; "
    "<it id=\"5\" pos=\"open\">&lt;i&gt;</it>it.</source></trans-unit>\n"
    "<trans-unit id=\"4\"><source>First sentence <g id=\"1\">here. "
    "Second</g> one.</source>\n<seg-source><mrk mtype=\"seg\" "
    "mid=\"0\">First sentence <g id=\"1\">here. Second</g> "
    "one.</mrk></seg-source></trans-unit>\n"
    "<trans-unit id=\"5\"><source>Two sentences. <g id=\"1\">Across "
    "one. And</g> another!</source></trans-unit>\n"
    "<trans-unit id=\"6\" translate=\"no\"><source>Not "
    "this.</source></trans-unit>\n"
    "<trans-unit id=\"keep\"><source>Kept <x id=\"1\"/>target.</source>"
    "<target>Cible <x id=\"1\"/>gard\xc3\xa9"
    "e.</target></trans-unit>\n"
    "<trans-unit id=\"8\" xml:space=\"preserve\"><source>  <g id=\"1\"> "
    "</g>Spaces  and\ttabs  <x id=\"2\"/></source></trans-unit>\n"
    /* A run of formatting over two paragraphs: a lone bx, then its ex in
     * the next unit, across a sentence boundary too. */
    "<trans-unit id=\"9\"><source><bx id=\"7\"/>Lone start here. And "
    "more.</source></trans-unit>\n"
    "<trans-unit id=\"10\"><source>It goes on. Then "
    "ends<ex id=\"7\"/> there.</source></trans-unit>\n"
    "</body>\n</file>\n</xliff>\n";

static char dir[] = "/tmp/xmt-fuzz-XXXXXX";
static char in_path[64], out_path[64];

static void cleanup(void) {
  unlink(in_path);
  unlink(out_path);
  rmdir(dir);
}

static void setup(void) {
  if (in_path[0] != '\0')
    return;
  if (mkdtemp(dir) == NULL)
    FUZZ_FAIL();
  snprintf(in_path, sizeof in_path, "%s/in.xlf", dir);
  snprintf(out_path, sizeof out_path, "%s/out.xlf", dir);
  FILE *f = fopen(in_path, "wb");
  if (f == NULL || fwrite(doc, 1, sizeof doc - 1, f) != sizeof doc - 1 ||
      fclose(f) != 0)
    FUZZ_FAIL();
  atexit(cleanup);
}

struct answers {
  const uint8_t *data;
  size_t size, at;
};

/* The next record: its control byte, bytes and length. 0 when none. */
static int next_record(struct answers *a, unsigned *ctl, const char **bytes,
                       size_t *len) {
  if (a->size < 2)
    return 0;
  if (a->at + 2 > a->size)
    a->at = 0;
  *ctl = a->data[a->at];
  size_t n = a->data[a->at + 1];
  if (n > a->size - a->at - 2)
    n = a->size - a->at - 2;
  *bytes = (const char *)a->data + a->at + 2;
  *len = n;
  a->at += 2 + n;
  return 1;
}

static int answer(void *state, const struct xmt_mt_request *req,
                  xmt_mt_response *const *resp, size_t n) {
  struct answers *a = state;
  for (size_t i = 0; i < n; i++) {
    unsigned ctl;
    const char *bytes;
    size_t len;
    if (!next_record(a, &ctl, &bytes, &len)) {
      (void)xmt_mt_response_set_text(resp[i], req[i].text, req[i].len);
      continue;
    }
    switch (ctl & 3) {
    case 0:
    case 1:
      (void)xmt_mt_response_set_text(resp[i], bytes, len);
      if ((ctl & 3) == 1 && next_record(a, &ctl, &bytes, &len)) {
        char pairs[256];
        memcpy(pairs, bytes, len);
        pairs[len] = '\0';
        (void)xmt_mt_response_set_alignment(resp[i], pairs, NULL, NULL);
      }
      break;
    case 2:
      (void)xmt_mt_response_set_error(resp[i], "refused");
      break;
    default:
      break;
    }
  }
  return 0;
}

static int open_answers(void *user, const struct xmt_backend_config *config,
                        void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  struct answers *a = user;
  a->at = 0;
  *state = a;
  return 0;
}

static void close_answers(void *state) { (void)state; }

static const struct xmt_backend plain = {
    XMT_BACKEND_ABI_VERSION, "fuzz", open_answers, answer, close_answers, NULL};
static const struct xmt_backend markup = {
    XMT_BACKEND_ABI_VERSION, "fuzz", open_answers, answer,
    close_answers,           answer};

struct verify {
  int bad;
  char bad_unit[32];
};

static int skip(void *user, const char *bytes, size_t len) {
  (void)user, (void)bytes, (void)len;
  return 0;
}

/* Occurrences of t's markup among the codes of seg (mrk left out). */
static size_t count_codes(const xmt_segment *seg, const struct xmt_tag *t) {
  size_t k = 0;
  for (size_t j = 0; j < xmt_segment_tag_count(seg); j++) {
    struct xmt_tag v;
    xmt_segment_tag(seg, j, &v);
    k += strcmp(v.name, "mrk") != 0 && v.markup_len == t->markup_len &&
         memcmp(v.markup, t->markup, t->markup_len) == 0;
  }
  return k;
}

/* 1 when the target holds each code of the source (the seg-source when
 * there is one, codes between its segments included) as often. */
static int codes_equal(const xmt_xliff_unit *u, const xmt_segment *target) {
  const xmt_segment *source = u->whole_source;
  xmt_segment *seg_source = NULL;
  if (u->seg_inner.end > 0) {
    seg_source = xmt_segment_new();
    if (seg_source == NULL ||
        xmt_xliff_inline_parse(seg_source, u->raw.data + u->seg_inner.start,
                               u->seg_inner.end - u->seg_inner.start,
                               NULL) != XMT_OK)
      FUZZ_FAIL();
    source = seg_source;
  }
  int same = 1;
  for (int side = 0; side < 2 && same; side++) {
    const xmt_segment *a = side ? target : source;
    for (size_t i = 0; i < xmt_segment_tag_count(a) && same; i++) {
      struct xmt_tag t;
      xmt_segment_tag(a, i, &t);
      same = strcmp(t.name, "mrk") == 0 ||
             count_codes(source, &t) == count_codes(target, &t);
    }
  }
  xmt_segment_free(seg_source);
  return same;
}

static int on_unit(void *user, xmt_xliff_unit *u) {
  struct verify *v = user;
  const char *id = xmt_xliff_unit_id(u);
  const xmt_segment *target = xmt_xliff_unit_existing_target(u);
  if (strcmp(id, "6") == 0 ? target != NULL
                           : target != NULL && !codes_equal(u, target)) {
    v->bad = 1;
    snprintf(v->bad_unit, sizeof v->bad_unit, "%s", id);
  }
  xmt_xliff_unit_free(u);
  return 0;
}

static void run(const uint8_t *data, size_t size, enum xmt_tag_mode mode) {
  unsigned opt = size > 0 ? data[0] : 0;
  struct answers a = {size > 0 ? data + 1 : data, size > 0 ? size - 1 : 0, 0};
  xmt_filter *f = xmt_filter_new();
  if (f == NULL)
    FUZZ_FAIL();
  xmt_filter_set_backend(f, opt & 2 ? &markup : &plain, &a, NULL);
  xmt_filter_set_languages(f, "en", "fr");
  xmt_filter_set_tag_mode(f, mode);
  xmt_filter_set_aligner(f, opt & 1 ? XMT_ALIGNER_SELF : XMT_ALIGNER_NONE,
                         NULL);
  xmt_filter_add_dictionary(f, "none");
  xmt_filter_set_probes(f, opt & 4 ? XMT_PROBES_OFF : XMT_PROBES_AUTO);
  /* the shipped rules take most of a run's time to compile */
  if (opt & 16)
    xmt_filter_set_segmentation(f, XMT_SEGMENT_UNSEGMENTED, NULL);
  if (opt & 8)
    xmt_filter_set_batch_size(f, 1);
  xmt_status st = xmt_filter_translate_file(f, in_path, out_path);
  if (st != XMT_OK && st != XMT_ERR_PARTIAL) {
    fprintf(stderr, "mode %d: %s\n", (int)mode,
            xmt_filter_error(f)->message ? xmt_filter_error(f)->message
                                         : xmt_strerror(st));
    FUZZ_FAIL();
  }
  xmt_filter_free(f);

  struct fuzz_out out = {0};
  FILE *fp = fopen(out_path, "rb");
  if (fp == NULL)
    FUZZ_FAIL();
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
    fuzz_sink(&out, buf, n);
  fclose(fp);
  unlink(out_path);
  struct verify v = {0};
  static const struct xmt_xliff_reader_callbacks cb = {skip, NULL, on_unit};
  xmt_xliff_reader *r = xmt_xliff_reader_new(&cb, &v);
  if (r == NULL)
    FUZZ_FAIL();
  if (!fuzz_well_formed(out.data, out.len) ||
      xmt_xliff_reader_parse(r, out.data, out.len, 1) != XMT_OK || v.bad) {
    fprintf(stderr, "tag mode %d, unit %s:\n%.*s\n", (int)mode,
            v.bad ? v.bad_unit : "-", (int)out.len, out.data);
    FUZZ_FAIL();
  }
  xmt_xliff_reader_free(r);
  free(out.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  setup();
  run(data, size, XMT_TAGS_PROJECT);
  run(data, size, XMT_TAGS_MASK);
  run(data, size, XMT_TAGS_RAW);
  return 0;
}

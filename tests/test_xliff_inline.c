/* test_xliff_inline.c -- XLIFF inline content to tagged segments and back:
 * exact text, tags and markup, lossless rendering, malformed snippets. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "want_tags.h"
#include "xliff_private.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Leaves freed, non-zero blocks of the sizes a small segment or rendering
 * allocates, so that a result the library forgets to NUL-terminate shows
 * (malloc hands recently freed blocks out first). */
static void dirty_heap(void) {
  static const size_t sizes[] = {16, 24, 32, 48, 64, 96, 128, 256, 512};
  void *blocks[N_ELEMS(sizes) * 7];
  for (size_t i = 0; i < N_ELEMS(blocks); i++) {
    size_t size = sizes[i % N_ELEMS(sizes)];
    blocks[i] = malloc(size);
    if (blocks[i] != NULL)
      memset(blocks[i], 0xA5, size);
  }
  for (size_t i = N_ELEMS(blocks); i-- > 0;)
    free(blocks[i]);
}

/* Parses len bytes of markup, asserting success and a well-formed tag
 * structure. The segment is to be freed by the caller. */
static xmt_segment *parse_len(const char *markup, size_t len) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  unsigned long column = 12345;
  dirty_heap();
  xmt_status st = xmt_xliff_inline_parse(seg, markup, len, &column);
  if (st != XMT_OK)
    fprintf(stderr, "\nparse of «%.*s»: status %d at column %lu\n", (int)len,
            markup, (int)st, column);
  CU_ASSERT_EQUAL(st, XMT_OK);
  size_t bad = 0;
  st = xmt_segment_check(seg, &bad);
  if (st != XMT_OK)
    fprintf(stderr, "\nparse of «%.*s»: check fails at tag %zu\n", (int)len,
            markup, bad);
  CU_ASSERT_EQUAL(st, XMT_OK);
  /* The text is a C string of its length. */
  size_t text_len = 0;
  const char *text = xmt_segment_text(seg, &text_len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(text);
  CU_ASSERT_EQUAL(text[text_len], '\0');
  return seg;
}

static xmt_segment *parse_ok(const char *markup) {
  return parse_len(markup, strlen(markup));
}

static void assert_parse(const char *markup, const char *text,
                         const struct xmt_want_tag *want, size_t n) {
  xmt_segment *seg = parse_ok(markup);
  xmt_assert_tags(seg, text, want, n);
  xmt_segment_free(seg);
}

/* The id of tag i of seg, copied into buf. */
static const char *tag_id(const xmt_segment *seg, size_t i, char *buf,
                          size_t size) {
  struct xmt_tag t;
  xmt_status st = xmt_segment_tag(seg, i, &t);
  CU_ASSERT_EQUAL(st, XMT_OK);
  snprintf(buf, size, "%s", st == XMT_OK ? t.id : "(no such tag)");
  return buf;
}

/* --- Parsing -------------------------------------------------------------- */

static void test_plain_text(void) {
  assert_parse("", "", NULL, 0);
  assert_parse("Hello, world.", "Hello, world.", NULL, 0);
  assert_parse("  two  spaces\tand\nlines  ", "  two  spaces\tand\nlines  ",
               NULL, 0);
  assert_parse("Stra\xC3\x9F"
               "e \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80",
               "Stra\xC3\x9F"
               "e \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80",
               NULL, 0);
}

static void test_g(void) {
  static const struct xmt_want_tag bold[] = {
      {XMT_TAG_OPEN, 5, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 9, "1", "g", "</g>"},
  };
  assert_parse("Text <g id=\"1\">bold</g>.", "Text bold.", bold, N_ELEMS(bold));
  static const struct xmt_want_tag nested[] = {
      {XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\" ctype=\"bold\">"},
      {XMT_TAG_OPEN, 1, "2", "g", "<g id='2'>"},
      {XMT_TAG_CLOSE, 2, "2", "g", "</g>"},
      {XMT_TAG_CLOSE, 3, "1", "g", "</g >"},
  };
  assert_parse("<g id=\"1\" ctype=\"bold\">a<g id='2'>b</g>c</g >", "abc",
               nested, N_ELEMS(nested));
  /* Offsets are in bytes of UTF-8. */
  static const struct xmt_want_tag wide[] = {
      {XMT_TAG_OPEN, 3, "7", "g", "<g id=\"7\">"},
      {XMT_TAG_CLOSE, 6, "7", "g", "</g>"},
  };
  assert_parse("\xC3\xA9 <g id=\"7\">\xE2\x82\xAC</g>!",
               "\xC3\xA9 \xE2\x82\xAC!", wide, N_ELEMS(wide));
  /* An empty pair, and a pair holding only a code. */
  static const struct xmt_want_tag empty[] = {
      {XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 0, "1", "g", "</g>"},
      {XMT_TAG_OPEN, 0, "2", "g", "<g id=\"2\">"},
      {XMT_TAG_PLACEHOLDER, 0, "3", "x", "<x id=\"3\"/>"},
      {XMT_TAG_CLOSE, 0, "2", "g", "</g>"},
  };
  assert_parse("<g id=\"1\"></g><g id=\"2\"><x id=\"3\"/></g>", "", empty,
               N_ELEMS(empty));
}

static void test_x(void) {
  static const struct xmt_want_tag x[] = {
      {XMT_TAG_PLACEHOLDER, 0, "1", "x", "<x id=\"1\"/>"},
  };
  assert_parse("<x id=\"1\"/>", "", x, N_ELEMS(x));
  static const struct xmt_want_tag two[] = {
      {XMT_TAG_PLACEHOLDER, 1, "1", "x", "<x id=\"1\" ctype=\"lb\" />"},
      {XMT_TAG_PLACEHOLDER, 1, "2", "x", "<x id=\"2\"></x>"},
  };
  assert_parse("a<x id=\"1\" ctype=\"lb\" /><x id=\"2\"></x>b", "ab", two,
               N_ELEMS(two));
}

static void test_bx_ex(void) {
  static const struct xmt_want_tag pair[] = {
      {XMT_TAG_OPEN, 0, "1", "bx", "<bx id=\"1\"/>"},
      {XMT_TAG_CLOSE, 1, "1", "ex", "<ex id=\"1\"/>"},
  };
  assert_parse("<bx id=\"1\"/>a<ex id=\"1\"/>", "a", pair, N_ELEMS(pair));
  /* rid pairs them when the ids differ. */
  static const struct xmt_want_tag rid[] = {
      {XMT_TAG_OPEN, 1, "7", "bx", "<bx id=\"1\" rid=\"7\"/>"},
      {XMT_TAG_CLOSE, 2, "7", "ex", "<ex id=\"2\" rid=\"7\"/>"},
  };
  assert_parse("a<bx id=\"1\" rid=\"7\"/>b<ex id=\"2\" rid=\"7\"/>c", "abc",
               rid, N_ELEMS(rid));
  /* Pairing them would cross the g: both stay isolated. */
  static const struct xmt_want_tag crossing[] = {
      {XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_ISOLATED_OPEN, 0, "2", "bx", "<bx id=\"2\"/>"},
      {XMT_TAG_CLOSE, 1, "1", "g", "</g>"},
      {XMT_TAG_ISOLATED_CLOSE, 1, "2", "ex", "<ex id=\"2\"/>"},
  };
  assert_parse("<g id=\"1\"><bx id=\"2\"/>a</g><ex id=\"2\"/>", "a", crossing,
               N_ELEMS(crossing));
  /* A pair around a g is fine. */
  static const struct xmt_want_tag around[] = {
      {XMT_TAG_OPEN, 0, "2", "bx", "<bx id=\"2\"/>"},
      {XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 1, "1", "g", "</g>"},
      {XMT_TAG_CLOSE, 1, "2", "ex", "<ex id=\"2\"/>"},
  };
  assert_parse("<bx id=\"2\"/><g id=\"1\">a</g><ex id=\"2\"/>", "a", around,
               N_ELEMS(around));
  /* Alone, or with a partner of another id, or in the wrong order. */
  static const struct xmt_want_tag lone_bx[] = {
      {XMT_TAG_ISOLATED_OPEN, 1, "3", "bx", "<bx id=\"3\"/>"},
  };
  assert_parse("a<bx id=\"3\"/>b", "ab", lone_bx, N_ELEMS(lone_bx));
  static const struct xmt_want_tag lone_ex[] = {
      {XMT_TAG_ISOLATED_CLOSE, 1, "3", "ex", "<ex id=\"3\"/>"},
  };
  assert_parse("a<ex id=\"3\"/>b", "ab", lone_ex, N_ELEMS(lone_ex));
  static const struct xmt_want_tag other_id[] = {
      {XMT_TAG_ISOLATED_OPEN, 0, "1", "bx", "<bx id=\"1\"/>"},
      {XMT_TAG_ISOLATED_CLOSE, 1, "2", "ex", "<ex id=\"2\"/>"},
  };
  assert_parse("<bx id=\"1\"/>a<ex id=\"2\"/>", "a", other_id,
               N_ELEMS(other_id));
  static const struct xmt_want_tag reversed[] = {
      {XMT_TAG_ISOLATED_CLOSE, 0, "1", "ex", "<ex id=\"1\"/>"},
      {XMT_TAG_ISOLATED_OPEN, 1, "1", "bx", "<bx id=\"1\"/>"},
  };
  assert_parse("<ex id=\"1\"/>a<bx id=\"1\"/>", "a", reversed,
               N_ELEMS(reversed));
  /* bx does not pair with ept. */
  static const struct xmt_want_tag mixed[] = {
      {XMT_TAG_ISOLATED_OPEN, 0, "1", "bx", "<bx id=\"1\"/>"},
      {XMT_TAG_ISOLATED_CLOSE, 1, "1", "ept", "<ept id=\"1\">x</ept>"},
  };
  assert_parse("<bx id=\"1\"/>a<ept id=\"1\">x</ept>", "a", mixed,
               N_ELEMS(mixed));
}

static void test_bpt_ept(void) {
  static const struct xmt_want_tag pair[] = {
      {XMT_TAG_OPEN, 0, "1", "bpt", "<bpt id=\"1\">&lt;b&gt;</bpt>"},
      {XMT_TAG_CLOSE, 1, "1", "ept", "<ept id=\"1\">&lt;/b&gt;</ept>"},
  };
  assert_parse("<bpt id=\"1\">&lt;b&gt;</bpt>x<ept id=\"1\">&lt;/b&gt;</ept>",
               "x", pair, N_ELEMS(pair));
  /* The code's bytes are kept as written: entities, CDATA, a sub. */
  static const struct xmt_want_tag kept[] = {
      {XMT_TAG_OPEN, 2, "4", "bpt",
       "<bpt id=\"4\" ctype=\"link\">&lt;a href=\"<sub>x &amp; "
       "y</sub>\"&#62;</bpt>"},
      {XMT_TAG_CLOSE, 6, "4", "ept", "<ept id=\"4\"><![CDATA[</a>]]></ept>"},
  };
  assert_parse("A <bpt id=\"4\" ctype=\"link\">&lt;a href=\"<sub>x &amp; "
               "y</sub>\"&#62;</bpt>link<ept id=\"4\"><![CDATA[</a>]]></ept>.",
               "A link.", kept, N_ELEMS(kept));
  static const struct xmt_want_tag lone[] = {
      {XMT_TAG_ISOLATED_OPEN, 0, "1", "bpt", "<bpt id=\"1\">&lt;b&gt;</bpt>"},
  };
  assert_parse("<bpt id=\"1\">&lt;b&gt;</bpt>x", "x", lone, N_ELEMS(lone));
}

static void test_ph(void) {
  static const struct xmt_want_tag ph[] = {
      {XMT_TAG_PLACEHOLDER, 0, "1", "ph",
       "<ph id=\"1\">a<sub>b<ph id=\"2\">c</ph></sub></ph>"},
  };
  assert_parse("<ph id=\"1\">a<sub>b<ph id=\"2\">c</ph></sub></ph>", "", ph,
               N_ELEMS(ph));
  static const struct xmt_want_tag between[] = {
      {XMT_TAG_PLACEHOLDER, 2, "5", "ph", "<ph id=\"5\">{0}</ph>"},
  };
  assert_parse("x <ph id=\"5\">{0}</ph> y", "x  y", between, N_ELEMS(between));
}

static void test_it(void) {
  static const struct xmt_want_tag open[] = {
      {XMT_TAG_ISOLATED_OPEN, 1, "1", "it",
       "<it id=\"1\" pos=\"open\">&lt;b&gt;</it>"},
  };
  assert_parse("a<it id=\"1\" pos=\"open\">&lt;b&gt;</it>b", "ab", open,
               N_ELEMS(open));
  static const struct xmt_want_tag close[] = {
      {XMT_TAG_ISOLATED_CLOSE, 1, "2", "it",
       "<it id=\"2\" pos=\"close\">&lt;/b&gt;</it>"},
  };
  assert_parse("a<it id=\"2\" pos=\"close\">&lt;/b&gt;</it>b", "ab", close,
               N_ELEMS(close));
  /* Two it of one id do not make a pair: their partners are elsewhere. */
  static const struct xmt_want_tag both[] = {
      {XMT_TAG_ISOLATED_OPEN, 0, "1", "it", "<it id=\"1\" pos=\"open\"/>"},
      {XMT_TAG_ISOLATED_CLOSE, 1, "1", "it", "<it id=\"1\" pos=\"close\"/>"},
  };
  assert_parse("<it id=\"1\" pos=\"open\"/>x<it id=\"1\" pos=\"close\"/>", "x",
               both, N_ELEMS(both));
}

static void test_mrk(void) {
  static const struct xmt_want_tag term[] = {
      {XMT_TAG_OPEN, 2, "", "mrk", "<mrk mtype=\"term\">"},
      {XMT_TAG_CLOSE, 3, "", "mrk", "</mrk>"},
  };
  assert_parse("a <mrk mtype=\"term\">x</mrk> b", "a x b", term, N_ELEMS(term));
  static const struct xmt_want_tag mid[] = {
      {XMT_TAG_OPEN, 0, "m1", "mrk", "<mrk mtype=\"abbrev\" mid=\"m1\">"},
      {XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 4, "1", "g", "</g>"},
      {XMT_TAG_CLOSE, 4, "m1", "mrk", "</mrk>"},
  };
  assert_parse("<mrk mtype=\"abbrev\" mid=\"m1\"><g id=\"1\">keep</g></mrk>",
               "keep", mid, N_ELEMS(mid));
  /* protected: its text is not to be translated, the whole one code */
  static const struct xmt_want_tag prot[] = {
      {XMT_TAG_PLACEHOLDER, 2, "m1", "mrk",
       "<mrk mtype=\"protected\" mid=\"m1\"><g id=\"1\">keep</g></mrk>"},
  };
  assert_parse(
      "a <mrk mtype=\"protected\" mid=\"m1\"><g id=\"1\">keep</g></mrk> b",
      "a  b", prot, N_ELEMS(prot));
}

static void test_entities_and_cdata(void) {
  assert_parse("a &amp; b &lt; c &gt; d &#x41;&#66; &quot;&apos;",
               "a & b < c > d AB \"'", NULL, 0);
  assert_parse("&#xE9;&#8364;&#x1F600;&#13;",
               "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\r", NULL, 0);
  assert_parse("a<![CDATA[<b>&amp;]]>c", "a<b>&amp;c", NULL, 0);
  static const struct xmt_want_tag cdata_in_g[] = {
      {XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 3, "1", "g", "</g>"},
  };
  assert_parse("<g id=\"1\"><![CDATA[x<y]]></g>", "x<y", cdata_in_g,
               N_ELEMS(cdata_in_g));
}

static void test_duplicate_ids(void) {
  xmt_segment *seg = parse_ok("<g id=\"1\">a</g><g id=\"1\">b</g>");
  /* Markup keeps the real ids; ids are unchanged for the first pair. */
  static const struct xmt_want_tag tags[] = {
      {XMT_TAG_OPEN, 0, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 1, "1", "g", "</g>"},
      {XMT_TAG_OPEN, 1, NULL, "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 2, NULL, "g", "</g>"},
  };
  xmt_assert_tags(seg, "ab", tags, N_ELEMS(tags));
  char a[64], b[64], c[64];
  CU_ASSERT_STRING_NOT_EQUAL(tag_id(seg, 2, a, sizeof a), "1");
  CU_ASSERT_STRING_EQUAL(tag_id(seg, 2, a, sizeof a),
                         tag_id(seg, 3, b, sizeof b));
  xmt_segment_free(seg);

  /* Pairs without ids: mrk and g. */
  seg = parse_ok("<mrk mtype=\"x-a\">a</mrk><mrk mtype=\"x-b\">b</mrk>");
  CU_ASSERT_STRING_NOT_EQUAL(tag_id(seg, 0, a, sizeof a),
                             tag_id(seg, 2, b, sizeof b));
  xmt_segment_free(seg);

  /* bx/ex pairs reusing an id. */
  seg = parse_ok("<bx id=\"1\"/>a<ex id=\"1\"/><bx id=\"1\"/>b<ex id=\"1\"/>");
  static const struct xmt_want_tag bx[] = {
      {XMT_TAG_OPEN, 0, "1", "bx", "<bx id=\"1\"/>"},
      {XMT_TAG_CLOSE, 1, "1", "ex", "<ex id=\"1\"/>"},
      {XMT_TAG_OPEN, 1, NULL, "bx", "<bx id=\"1\"/>"},
      {XMT_TAG_CLOSE, 2, NULL, "ex", "<ex id=\"1\"/>"},
  };
  xmt_assert_tags(seg, "ab", bx, N_ELEMS(bx));
  CU_ASSERT_STRING_NOT_EQUAL(tag_id(seg, 2, a, sizeof a), "1");
  xmt_segment_free(seg);

  /* A made-up key must not be one that the document uses itself. */
  seg = parse_ok("<g id=\"1\">a</g><g id=\"1#1\">b</g><g id=\"1\">c</g>");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 6);
  if (xmt_segment_tag_count(seg) == 6) {
    tag_id(seg, 0, a, sizeof a);
    tag_id(seg, 2, b, sizeof b);
    tag_id(seg, 4, c, sizeof c);
    CU_ASSERT_STRING_EQUAL(a, "1");
    CU_ASSERT_STRING_EQUAL(b, "1#1");
    CU_ASSERT_STRING_NOT_EQUAL(c, a);
    CU_ASSERT_STRING_NOT_EQUAL(c, b);
  }
  xmt_segment_free(seg);
}

/* --- Pairing and keys against their rules ---------------------------------
 * The rules as first written, quadratic in the number of codes, on a
 * model of the codes; random snippets must come out of the parser as
 * the model says. */

struct model_tag {
  enum xmt_tag_kind kind;
  const char *name;
  char key[16];
  size_t partner;
};

static int model_balanced(const struct model_tag *t, size_t i, size_t j) {
  long depth = 0;
  for (size_t k = i + 1; k < j; k++) {
    if (t[k].kind == XMT_TAG_OPEN)
      depth++;
    else if (t[k].kind == XMT_TAG_CLOSE && --depth < 0)
      return 0;
  }
  return depth == 0;
}

static void model_pair(struct model_tag *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (t[i].kind != XMT_TAG_ISOLATED_OPEN || strcmp(t[i].name, "it") == 0)
      continue;
    const char *want = strcmp(t[i].name, "bx") == 0 ? "ex" : "ept";
    for (size_t j = i + 1; j < n; j++)
      if (t[j].kind == XMT_TAG_ISOLATED_CLOSE && t[j].partner == SIZE_MAX &&
          strcmp(t[j].name, want) == 0 && strcmp(t[i].key, t[j].key) == 0) {
        if (model_balanced(t, i, j)) {
          t[i].kind = XMT_TAG_OPEN, t[j].kind = XMT_TAG_CLOSE;
          t[i].partner = j, t[j].partner = i;
        }
        break;
      }
  }
}

static void model_unique_keys(struct model_tag *t, size_t n) {
  unsigned count = 0;
  for (size_t i = 0; i < n; i++) {
    if (t[i].kind != XMT_TAG_OPEN)
      continue;
    int clash = 0;
    for (size_t k = 0; k < i && !clash; k++)
      clash = t[k].kind == XMT_TAG_OPEN && strcmp(t[k].key, t[i].key) == 0;
    if (!clash)
      continue;
    char key[16];
    int taken;
    do {
      snprintf(key, sizeof key, "%s#%u", t[i].key, ++count);
      taken = 0;
      for (size_t k = 0; k < n && !taken; k++)
        taken = t[k].kind == XMT_TAG_OPEN && strcmp(t[k].key, key) == 0;
    } while (taken);
    snprintf(t[i].key, sizeof t[i].key, "%s", key);
    if (t[i].partner != SIZE_MAX)
      snprintf(t[t[i].partner].key, sizeof t[i].key, "%s", key);
  }
}

/* A random snippet of up to 40 codes with ids from a few (some of the
 * form a made-up key takes), into markup and the model. */
static size_t random_snippet(unsigned long *seed, char *markup, size_t cap,
                             struct model_tag *t) {
  static const char *const ids[] = {"1", "2", "1#1", "1#2", "2#1", "1#1#1"};
  size_t open[40], nopen = 0, n = 0, len = 0;
  *seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
  size_t codes = 1 + (*seed >> 33) % 40;
  while (n < codes || nopen > 0) {
    *seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
    unsigned r = (unsigned)(*seed >> 33);
    const char *id = ids[(r >> 8) % N_ELEMS(ids)];
    struct model_tag *m = &t[n];
    m->partner = SIZE_MAX;
    snprintf(m->key, sizeof m->key, "%s", id);
    unsigned what = n < codes ? r % 9 : 1;
    if (what == 1 && nopen == 0)
      what = 0;
    if (what == 0 && nopen == N_ELEMS(open))
      what = 2;
    static const char *const names[] = {"g",   "g",  "bx", "ex", "bpt",
                                        "ept", "it", "it", "x"};
    static const enum xmt_tag_kind kinds[] = {
        XMT_TAG_OPEN,           XMT_TAG_CLOSE,          XMT_TAG_ISOLATED_OPEN,
        XMT_TAG_ISOLATED_CLOSE, XMT_TAG_ISOLATED_OPEN,  XMT_TAG_ISOLATED_CLOSE,
        XMT_TAG_ISOLATED_OPEN,  XMT_TAG_ISOLATED_CLOSE, XMT_TAG_PLACEHOLDER};
    m->kind = kinds[what];
    m->name = names[what];
    if (what == 0) {
      open[nopen++] = n;
      len += (size_t)snprintf(markup + len, cap - len, "<g id=\"%s\">t", id);
    } else if (what == 1) {
      size_t o = open[--nopen];
      m->partner = o, t[o].partner = n;
      snprintf(m->key, sizeof m->key, "%s", t[o].key);
      len += (size_t)snprintf(markup + len, cap - len, "</g>t");
    } else if (what == 4 || what == 5) {
      len += (size_t)snprintf(markup + len, cap - len, "<%s id=\"%s\">c</%s>t",
                              m->name, id, m->name);
    } else if (what == 6 || what == 7) {
      len += (size_t)snprintf(markup + len, cap - len,
                              "<it id=\"%s\" pos=\"%s\">c</it>t", id,
                              what == 6 ? "open" : "close");
    } else {
      len += (size_t)snprintf(markup + len, cap - len, "<%s id=\"%s\"/>t",
                              m->name, id);
    }
    n++;
  }
  return n;
}

static void test_pairing_rules(void) {
  unsigned long seed = 42;
  int bad = 0;
  for (int round = 0; round < 3000 && !bad; round++) {
    char markup[4096];
    struct model_tag t[128];
    size_t n = random_snippet(&seed, markup, sizeof markup, t);
    model_pair(t, n);
    model_unique_keys(t, n);
    xmt_segment *seg = parse_ok(markup);
    CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), n);
    for (size_t i = 0; i < n && i < xmt_segment_tag_count(seg) && !bad; i++) {
      struct xmt_tag got;
      xmt_segment_tag(seg, i, &got);
      if (got.kind != t[i].kind || strcmp(got.id, t[i].key) != 0) {
        fprintf(stderr, "\n%s\ntag %zu is %s %s, want %s %s\n", markup, i,
                xmt_tag_kind_label(got.kind), got.id,
                xmt_tag_kind_label(t[i].kind), t[i].key);
        bad = 1;
      }
    }
    CU_ASSERT_FALSE(bad);
    xmt_segment_free(seg);
  }
}

/* Many codes nested and side by side: the result of the rules, in time
 * linear or n log n in their number (quadratic took minutes). */
static void test_many_codes(void) {
  enum { N = 50000 };
  struct xmt_buf m = {0};
  char piece[64];
  for (int i = 1; i <= N; i++) {
    snprintf(piece, sizeof piece, "<g id=\"g\"><bx id=\"b%d\"/>", i);
    CU_ASSERT_EQUAL(xmt_buf_append_str(&m, piece), XMT_OK);
  }
  for (int i = N; i >= 1; i--) {
    snprintf(piece, sizeof piece, "<ex id=\"b%d\"/></g>", i);
    CU_ASSERT_EQUAL(xmt_buf_append_str(&m, piece), XMT_OK);
  }
  for (int i = 1; i <= N; i++)
    CU_ASSERT_EQUAL(xmt_buf_append_str(&m, "<g id=\"s\">t</g><x id=\"p\"/>"),
                    XMT_OK);
  xmt_segment *seg = parse_len(m.data, m.len);
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 7 * N);
  /* Each bx pairs with the ex in its own g; the g after the first get
   * the keys g#1, g#2..., the siblings s#N, s#N+1... (the count goes on). */
  struct xmt_tag t;
  char want[32];
  for (size_t i = 0; i < 4 * (size_t)N; i++) {
    xmt_segment_tag(seg, i, &t);
    size_t level = i < 2 * (size_t)N ? i / 2 + 1 : N - (i - 2 * N) / 2;
    int is_g = i < 2 * (size_t)N ? i % 2 == 0 : i % 2 == 1;
    if (is_g && level == 1)
      snprintf(want, sizeof want, "g");
    else if (is_g)
      snprintf(want, sizeof want, "g#%zu", level - 1);
    else
      snprintf(want, sizeof want, "b%zu", level);
    CU_ASSERT_EQUAL(t.kind, i < 2 * (size_t)N ? XMT_TAG_OPEN : XMT_TAG_CLOSE);
    CU_ASSERT_STRING_EQUAL(t.id, want);
  }
  for (size_t k = 0; k < (size_t)N; k++) {
    xmt_segment_tag(seg, 4 * (size_t)N + 3 * k, &t);
    if (k == 0)
      snprintf(want, sizeof want, "s");
    else
      snprintf(want, sizeof want, "s#%zu", N - 1 + k);
    CU_ASSERT_STRING_EQUAL(t.id, want);
  }
  xmt_segment_free(seg);
  xmt_buf_free(&m);
}

static void test_other_elements(void) {
  /* An element of another namespace is one placeholder, kept whole; so is
   * an XLIFF element that is not inline markup. */
  static const char foreign[] =
      "a<foo:b xmlns:foo=\"urn:foo\" k=\"v\">z<foo:c/></foo:b>c";
  xmt_segment *seg = parse_ok(foreign);
  size_t len = 0;
  const char *text = xmt_segment_text(seg, &len);
  XMT_ASSERT_BYTES_EQUAL(text, len, "ac", 2);
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 1);
  struct xmt_tag t;
  CU_ASSERT_EQUAL(xmt_segment_tag(seg, 0, &t), XMT_OK);
  CU_ASSERT_EQUAL(t.kind, XMT_TAG_PLACEHOLDER);
  CU_ASSERT_EQUAL(t.offset, 1);
  CU_ASSERT_STRING_EQUAL(t.id, "");
  static const char whole[] =
      "<foo:b xmlns:foo=\"urn:foo\" k=\"v\">z<foo:c/></foo:b>";
  XMT_ASSERT_BYTES_EQUAL(t.markup, t.markup_len, whole, sizeof whole - 1);
  xmt_segment_free(seg);

  seg = parse_ok("<source>x</source>y");
  text = xmt_segment_text(seg, &len);
  XMT_ASSERT_BYTES_EQUAL(text, len, "y", 1);
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 1);
  CU_ASSERT_EQUAL(xmt_segment_tag(seg, 0, &t), XMT_OK);
  CU_ASSERT_EQUAL(t.kind, XMT_TAG_PLACEHOLDER);
  XMT_ASSERT_BYTES_EQUAL(t.markup, t.markup_len, "<source>x</source>", 18);
  xmt_segment_free(seg);

  /* A g in another namespace is not a pair. */
  seg = parse_ok("<f:g xmlns:f=\"urn:f\" id=\"1\">x</f:g>");
  text = xmt_segment_text(seg, &len);
  XMT_ASSERT_BYTES_EQUAL(text, len, "", 0);
  CU_ASSERT_EQUAL_FATAL(xmt_segment_tag_count(seg), 1);
  CU_ASSERT_EQUAL(xmt_segment_tag(seg, 0, &t), XMT_OK);
  CU_ASSERT_EQUAL(t.kind, XMT_TAG_PLACEHOLDER);
  xmt_segment_free(seg);
}

/* An empty g has no content to pair around: it is one placeholder, and its
 * name is "g" as written (xmt_projector.h: "element name as written"). */
static void test_empty_g(void) {
  static const struct xmt_want_tag g[] = {
      {XMT_TAG_PLACEHOLDER, 1, "1", "g", "<g id=\"1\"/>"},
  };
  assert_parse("a<g id=\"1\"/>b", "ab", g, N_ELEMS(g));
}

static void test_parse_replaces_content(void) {
  xmt_segment *seg = parse_ok("old <x id=\"9\"/>text");
  CU_ASSERT_EQUAL(xmt_xliff_inline_parse(seg, "new", 3, NULL), XMT_OK);
  xmt_assert_tags(seg, "new", NULL, 0);
  /* Only len bytes are read. */
  CU_ASSERT_EQUAL(xmt_xliff_inline_parse(seg, "ab<x id=\"1\"/>", 2, NULL),
                  XMT_OK);
  xmt_assert_tags(seg, "ab", NULL, 0);
  xmt_segment_free(seg);
}

/* --- Rendering ------------------------------------------------------------ */

static void test_render_round_trip(void) {
  static const char *const canonical[] = {
      "",
      "plain text",
      "Text <g id=\"1\">bold</g>.",
      "<g id=\"1\">a<g id=\"2\">b</g>c</g>",
      "<g id='1' ctype='bold'>x</g >",
      "a<x id=\"1\"/>b<x id=\"2\" ctype=\"lb\" />",
      "<x\n id=\"1\"\tctype=\"x-a&amp;b\"/>",
      "<bx id=\"1\"/>a<ex id=\"1\"/>",
      "a<bx id=\"1\" rid=\"7\"/>b<ex id=\"2\" rid=\"7\"/>c",
      "<g id=\"1\"><bx id=\"2\"/>a</g><ex id=\"2\"/>",
      "<bpt id=\"1\">&lt;b&gt;</bpt>x<ept id=\"1\">&lt;/b&gt;</ept>",
      "<bpt id=\"1\"><![CDATA[<b>]]></bpt>x<ept id=\"1\">&#60;/b></ept>",
      "<ph id=\"1\">a<sub>b<ph id=\"2\">c</ph></sub></ph>",
      "<it id=\"1\" pos=\"open\">&lt;b&gt;</it>x<it id=\"2\" "
      "pos=\"close\">&lt;/b&gt;</it>",
      "a <mrk mtype=\"term\">x</mrk> b",
      "<g id=\"1\">a</g><g id=\"1\">b</g>",
      "a &amp; b &lt; c > d ]]&gt; e \"q\" 'a'",
      "]]",
      "a]]&gt;b]]]&gt;",
      "]]<x id=\"1\"/>>",
      "line&#13;\nnext\ttab&#13;",
      "Stra\xC3\x9F"
      "e <x id=\"1\"/>\xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80",
      "a<foo:b xmlns:foo=\"urn:foo\">z</foo:b>c",
      "<g id=\"1\"><x id=\"2\"/></g><g id=\"3\"></g>",
      "  spaced  out  ",
  };
  for (size_t i = 0; i < N_ELEMS(canonical); i++) {
    const char *in = canonical[i];
    xmt_segment *seg = parse_ok(in);
    size_t len = 12345;
    dirty_heap();
    char *out = xmt_xliff_inline_render(seg, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    XMT_ASSERT_BYTES_EQUAL(out, len, in, strlen(in));
    CU_ASSERT_EQUAL(out[len], '\0');
    /* And the rendering parses to the same segment. */
    xmt_segment *again = parse_len(out, len);
    CU_ASSERT_TRUE(xmt_segment_equal(seg, again));
    xmt_segment_free(again);
    free(out);
    xmt_segment_free(seg);
  }
}

static void test_render_escapes(void) {
  /* Only what must be: &, <, > after "]]", and CR. */
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  static const char text[] = "a&b<c>d]]>e\r\nf\"g'h]>i]]";
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, text, sizeof text - 1), XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_PLACEHOLDER, "1", "x",
                                         "<x id=\"1\"/>", 11),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, ">&", 2), XMT_OK);
  char *out = xmt_xliff_inline_render(seg, NULL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_STRING_EQUAL(
      out, "a&amp;b&lt;c>d]]&gt;e&#13;\nf\"g'h]>i]]<x id=\"1\"/>>&amp;");
  free(out);
  /* Tags render their markup as it is, even hand-made. */
  xmt_segment_clear(seg);
  CU_ASSERT_EQUAL(xmt_segment_append_tag(seg, XMT_TAG_OPEN, "1", "b", "<b>", 3),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, "x", 1), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_segment_append_tag(seg, XMT_TAG_CLOSE, "1", "b", "</b>", 4), XMT_OK);
  size_t len = 0;
  out = xmt_xliff_inline_render(seg, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  XMT_ASSERT_BYTES_EQUAL(out, len, "<b>x</b>", 8);
  free(out);
  xmt_segment_free(seg);
  /* An empty segment renders as "", NUL-terminated. */
  seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  dirty_heap();
  len = 12345;
  out = xmt_xliff_inline_render(seg, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_EQUAL(len, 0);
  CU_ASSERT_EQUAL(out[0], '\0');
  free(out);
  xmt_segment_free(seg);
}

/* Characters XML 1.0 cannot carry are never written, whatever the text
 * holds: C0 controls but tab, line feed and CR; U+FFFE, U+FFFF;
 * surrogates. C1 controls and U+FFFD are characters XML allows. */
static void test_render_drops_forbidden(void) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  static const char text[] = "a\x01"
                             "b\x0b\tc\x1f\xef\xbf\xbe"
                             "d\xef\xbf\xbf"
                             "e\xc2\x85"
                             "f\xef\xbf\xbd"
                             "g\x7f";
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, text, sizeof text - 1), XMT_OK);
  size_t len = 0;
  char *out = xmt_xliff_inline_render(seg, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  static const char want[] = "ab\tcde\xc2\x85"
                             "f\xef\xbf\xbd"
                             "g\x7f";
  XMT_ASSERT_BYTES_EQUAL(out, len, want, sizeof want - 1);
  free(out);
  xmt_segment_free(seg);
}

/* xmt_xml_allowed_run: what it passes over holds nothing XML forbids,
 * and it stops on a byte that may begin something forbidden; runs of
 * eight bytes and single bytes alike, with the forbidden at every place
 * of a word. */
static void test_allowed_run(void) {
  static const char text[] = "plain ascii text\x01"
                             "0123456\x1f"
                             "01234567\xef\xbf\xbe"
                             "caf\xc3\xa9 \xe2\x82\xac\t\n\r"
                             "\xed\xa0\x80"
                             "ok\xef\xbc\x81"
                             "end of the text";
  size_t len = sizeof text - 1;
  const unsigned char *u = (const unsigned char *)text;
  for (size_t i = 0; i <= len; i++) {
    size_t r = xmt_xml_allowed_run(text, len, i);
    CU_ASSERT_TRUE_FATAL(r >= i && r <= len);
    for (size_t k = i; k < r; k++)
      CU_ASSERT_EQUAL(xmt_xml_forbidden_at(text, len, k), 0);
    if (r < len)
      CU_ASSERT_TRUE(
          (u[r] < 0x20 && u[r] != '\t' && u[r] != '\n' && u[r] != '\r') ||
          u[r] == 0xED || u[r] == 0xEF);
  }
  CU_ASSERT_EQUAL(xmt_xml_allowed_run(text, len, 0), 16);
  CU_ASSERT_EQUAL(xmt_xml_allowed_run(text, len, 17), 24);
  CU_ASSERT_EQUAL(xmt_xml_allowed_run(text, len, 25), 33);
  CU_ASSERT_EQUAL(xmt_xml_allowed_run("abc", 3, 0), 3);
}

/* A unit built from a segment drops what XML cannot carry, wherever it
 * falls in a run of plain text, and keeps the rest byte for byte (a
 * segment holds valid UTF-8: no surrogates). */
/* Fills ib with text and codes: two g pairs with one id, a bx/ex pair. */
static void fill_codes(struct xmt_inline_builder *ib) {
  xmt_ib_reset(ib);
  static const struct {
    const char *inner;
    enum xmt_tag_kind kind;
    const char *name, *markup;
  } pairs[] = {{"b", XMT_TAG_ISOLATED_OPEN, "bx", "<bx id=\"7\"/>"},
               {"c", XMT_TAG_ISOLATED_CLOSE, "ex", "<ex id=\"7\"/>"}};
  CU_ASSERT_EQUAL(xmt_ib_text(ib, "A ", 2), XMT_OK);
  for (size_t i = 0; i < 2; i++) {
    CU_ASSERT_EQUAL(xmt_ib_open(ib, "g", "1", "<g id=\"1\">", 10), XMT_OK);
    CU_ASSERT_EQUAL(xmt_ib_text(ib, pairs[i].inner, 1), XMT_OK);
    CU_ASSERT_EQUAL(xmt_ib_close(ib, "</g>", 4), XMT_OK);
    CU_ASSERT_EQUAL(
        xmt_ib_code(ib, pairs[i].kind, pairs[i].name, "7", pairs[i].markup, 12),
        XMT_OK);
  }
  CU_ASSERT_EQUAL(xmt_ib_text(ib, " d", 2), XMT_OK);
}

/* A segment finished into a new one of its exact size is the one
 * finished into a segment given: pairs made, a key twice told apart. */
static void test_finish_new(void) {
  static const struct xmt_want_tag want[] = {
      {XMT_TAG_OPEN, 2, "1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 3, "1", "g", "</g>"},
      {XMT_TAG_OPEN, 3, "7", "bx", "<bx id=\"7\"/>"},
      {XMT_TAG_OPEN, 3, "1#1", "g", "<g id=\"1\">"},
      {XMT_TAG_CLOSE, 4, "1#1", "g", "</g>"},
      {XMT_TAG_CLOSE, 4, "7", "ex", "<ex id=\"7\"/>"}};
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  xmt_segment *given = xmt_segment_new(), *made = NULL;
  CU_ASSERT_PTR_NOT_NULL_FATAL(given);
  fill_codes(&ib);
  CU_ASSERT_EQUAL_FATAL(xmt_ib_finish(&ib, given), XMT_OK);
  fill_codes(&ib);
  CU_ASSERT_EQUAL_FATAL(xmt_ib_finish_new(&ib, &made), XMT_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(made);
  xmt_assert_tags(given, "A bc d", want, 6);
  xmt_assert_tags(made, "A bc d", want, 6);
  CU_ASSERT_TRUE(xmt_segment_equal(given, made));
  /* An unclosed pair is refused, and no segment made. */
  xmt_ib_reset(&ib);
  CU_ASSERT_EQUAL(xmt_ib_open(&ib, "g", "1", "<g id=\"1\">", 10), XMT_OK);
  xmt_segment *none = NULL;
  CU_ASSERT_EQUAL(xmt_ib_finish_new(&ib, &none), XMT_ERR_INTERNAL);
  CU_ASSERT_PTR_NULL(none);
  xmt_segment_free(made);
  xmt_segment_free(given);
  xmt_ib_free(&ib);
}

static void test_build_drops_forbidden(void) {
  static const char text[] = "\x01"
                             "abcdefg\x02"
                             "abcdefgh\xef\xbf\xbf"
                             "Stra\xc3\x9f"
                             "e\tx\xef\xbc\x81"
                             "tail\x1f";
  static const char want[] = "abcdefgabcdefghStra\xc3\x9f"
                             "e\tx\xef\xbc\x81"
                             "tail";
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  xmt_segment *source = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(source);
  CU_ASSERT_EQUAL(xmt_segment_append_text(source, text, sizeof text - 1),
                  XMT_OK);
  const struct xmt_unit_fields in = {
      .id = "u1", .line = 1, .column = 1, .translatable = 1};
  xmt_xliff_unit *unit = NULL;
  CU_ASSERT_EQUAL_FATAL(xmt_xliff_unit_build(&ib, &in, source, NULL, &unit),
                        XMT_OK);
  size_t len = 0;
  const char *got = xmt_segment_text(xmt_xliff_unit_source(unit, 0), &len);
  XMT_ASSERT_BYTES_EQUAL(got, len, want, sizeof want - 1);
  xmt_xliff_unit_free(unit);
  xmt_segment_free(source);
  xmt_ib_free(&ib);
}

/* A format that feeds the builder its pieces (xmt_xliff_unit_fill) gets
 * the unit made from the same text and codes as one segment: codes paired
 * and keyed alike, forbidden text dropped, the target its own. */
static xmt_status fill_pieces(void *user, int target,
                              struct xmt_inline_builder *ib) {
  const int *open_g = user;
  xmt_status st = xmt_ib_put_text(ib, target ? "Hola \x01" : "Hi \x02", 4);
  if (st == XMT_OK)
    st = xmt_ib_put_tag(ib, XMT_TAG_OPEN, "1", "g", "<g id=\"1\">", 10);
  if (st == XMT_OK)
    st = xmt_ib_put_text(ib, "you", 3);
  if (st == XMT_OK && !*open_g)
    st = xmt_ib_put_tag(ib, XMT_TAG_CLOSE, "1", "g", "</g>", 4);
  if (st == XMT_OK)
    st = xmt_ib_put_tag(ib, XMT_TAG_OPEN, "2", "bx", "<bx id=\"2\"/>", 12);
  if (st == XMT_OK)
    st = xmt_ib_put_tag(ib, XMT_TAG_CLOSE, "2", "ex", "<ex id=\"2\"/>", 12);
  return st == XMT_OK ? xmt_ib_put_text(ib, ".\x1f", 2) : st;
}

static void assert_same_segment(const xmt_segment *a, const xmt_segment *b) {
  struct xmt_buf ra = {0}, rb = {0};
  CU_ASSERT_EQUAL(xmt_inline_render_into(&ra, a), XMT_OK);
  CU_ASSERT_EQUAL(xmt_inline_render_into(&rb, b), XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(ra.data, ra.len, rb.data, rb.len);
  CU_ASSERT_EQUAL(xmt_segment_tag_count(a), xmt_segment_tag_count(b));
  xmt_buf_free(&ra);
  xmt_buf_free(&rb);
}

static void test_build_fill(void) {
  static const char want[] =
      "Hi <g id=\"1\">you</g><bx id=\"2\"/><ex id=\"2\"/>.";
  struct xmt_inline_builder ib;
  xmt_ib_init(&ib);
  xmt_segment *src = xmt_segment_new(), *trg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(src);
  CU_ASSERT_PTR_NOT_NULL_FATAL(trg);
  CU_ASSERT_EQUAL_FATAL(
      xmt_xliff_inline_parse(src, want, sizeof want - 1, NULL), XMT_OK);
  const char *t = "Hola<g id=\"1\">you</g><bx id=\"2\"/><ex id=\"2\"/>.";
  CU_ASSERT_EQUAL_FATAL(xmt_xliff_inline_parse(trg, t, strlen(t), NULL),
                        XMT_OK);
  const struct xmt_unit_fields in = {
      .id = "u1", .line = 1, .column = 1, .translatable = 1};
  xmt_xliff_unit *fed = NULL, *built = NULL;
  int open_g = 0;
  CU_ASSERT_EQUAL_FATAL(
      xmt_xliff_unit_fill(&ib, &in, fill_pieces, &open_g, 1, &fed), XMT_OK);
  CU_ASSERT_EQUAL_FATAL(xmt_xliff_unit_build(&ib, &in, src, trg, &built),
                        XMT_OK);
  struct xmt_buf r = {0};
  CU_ASSERT_EQUAL(xmt_inline_render_into(&r, xmt_xliff_unit_source(fed, 0)),
                  XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(r.data, r.len, want, sizeof want - 1);
  assert_same_segment(xmt_xliff_unit_source(fed, 0),
                      xmt_xliff_unit_source(built, 0));
  CU_ASSERT_PTR_NOT_NULL_FATAL(fed->existing);
  assert_same_segment(fed->existing, built->existing);
  CU_ASSERT_EQUAL(fed->has_target, 1);
  xmt_xliff_unit_free(fed);
  xmt_xliff_unit_free(built);
  /* a g left open fails, as a segment that never closes one */
  open_g = 1;
  fed = NULL;
  CU_ASSERT_EQUAL(xmt_xliff_unit_fill(&ib, &in, fill_pieces, &open_g, 0, &fed),
                  XMT_ERR_INLINE);
  CU_ASSERT_PTR_NULL(fed);
  xmt_buf_free(&r);
  xmt_segment_free(src);
  xmt_segment_free(trg);
  xmt_ib_free(&ib);
}

/* --- Malformed snippets --------------------------------------------------- */

static void assert_malformed(const char *markup, unsigned long column) {
  xmt_segment *seg = xmt_segment_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
  CU_ASSERT_EQUAL(xmt_segment_append_text(seg, "stale", 5), XMT_OK);
  unsigned long got = 0;
  xmt_status st = xmt_xliff_inline_parse(seg, markup, strlen(markup), &got);
  CU_ASSERT_EQUAL(st, XMT_ERR_XML);
  if (got != column)
    fprintf(stderr, "\n«%s»: error column %lu, want %lu\n", markup, got,
            column);
  CU_ASSERT_EQUAL(got, column);
  /* The segment is left empty, not half-built. */
  CU_ASSERT_STRING_EQUAL(xmt_segment_text(seg, NULL), "");
  CU_ASSERT_EQUAL(xmt_segment_tag_count(seg), 0);
  /* error_column may be NULL. */
  CU_ASSERT_EQUAL(xmt_xliff_inline_parse(seg, markup, strlen(markup), NULL),
                  XMT_ERR_XML);
  xmt_segment_free(seg);
}

static void test_malformed(void) {
  assert_malformed("&bogus;", 1);
  assert_malformed("x &bogus;", 3);
  /* An end tag that does not match is reported at its '<', as the reader
   * reports it in documents. */
  assert_malformed("a</g>", 2);
  assert_malformed("<g id=\"1\">a</x>", 12);
  assert_malformed("<x id=\"1\" id=\"2\"/>", 11);
  /* Columns are within their line. */
  assert_malformed("first line\n  &bogus;", 3);
  assert_malformed("first line\n"
                   "0123456789012345678901234567890123456789012345678901234567"
                   "89&bogus;",
                   61);
}

/* An unclosed element is found at the end of the snippet, where its end
 * tag is missing: column length + 1, not a column of the wrapper the
 * snippet is parsed in. */
static void test_malformed_unclosed(void) {
  assert_malformed("<g id=\"1\">x", 12);
  assert_malformed("a<x id=\"1\">", 12);
  assert_malformed("<mrk mtype=\"term\">", 19);
}

static CU_TestInfo inline_tests[] = {
    {"plain text", test_plain_text},
    {"g pairs", test_g},
    {"x placeholders", test_x},
    {"bx/ex pairing", test_bx_ex},
    {"bpt/ept pairing, markup kept", test_bpt_ept},
    {"ph with sub is one placeholder", test_ph},
    {"it is isolated", test_it},
    {"non-segment mrk is a pair", test_mrk},
    {"entities, references, CDATA", test_entities_and_cdata},
    {"duplicate pair ids", test_duplicate_ids},
    {"pairing and keys follow their rules", test_pairing_rules},
    {"many codes, nested and side by side", test_many_codes},
    {"foreign and other elements", test_other_elements},
    {"empty g", test_empty_g},
    {"parse replaces the segment", test_parse_replaces_content},
    {"render(parse(s)) == s", test_render_round_trip},
    {"render escapes", test_render_escapes},
    {"render drops what XML cannot carry", test_render_drops_forbidden},
    {"allowed runs stop where XML may forbid", test_allowed_run},
    {"a built unit drops what XML cannot carry", test_build_drops_forbidden},
    {"finished into a new segment of its size", test_finish_new},
    {"a unit fed in pieces is the unit of its segment", test_build_fill},
    {"malformed snippets", test_malformed},
    {"unclosed element column", test_malformed_unclosed},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"xliff/inline", NULL, NULL, NULL, NULL, inline_tests},
    CU_SUITE_INFO_NULL,
};

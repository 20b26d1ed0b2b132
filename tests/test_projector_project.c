/* test_projector_project.c -- tag projection: one test per rule, exact
 * outputs, and a property test over random segments and alignments.
 *
 * Segments are written as strings with <gN>..</gN> pairs, <xN/>
 * placeholders and <bxN/> / <exN/> isolated tags; the markup of each tag is
 * its own text, so a projected segment renders back as such a string. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "xmt_projector.h"

/* --- Helpers -------------------------------------------------------------- */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n'; }

/* Tokens are runs of non-space bytes. */
static void ws_tokens(xmt_tokens *tokens, const char *text, size_t len) {
  size_t i = 0;
  while (i < len) {
    while (i < len && is_space(text[i]))
      i++;
    size_t start = i;
    while (i < len && !is_space(text[i]))
      i++;
    if (i > start)
      CU_ASSERT_EQUAL(xmt_tokens_append(tokens, start, i), XMT_OK);
  }
}

/* Appends the tags and text of a tagged string to seg. */
static void parse_tagged(xmt_segment *seg, const char *s) {
  while (*s != '\0') {
    const char *lt = strchr(s, '<');
    size_t n = lt != NULL ? (size_t)(lt - s) : strlen(s);
    CU_ASSERT_EQUAL(xmt_segment_append_text(seg, s, n), XMT_OK);
    if (lt == NULL)
      break;
    const char *gt = strchr(lt, '>');
    CU_ASSERT_PTR_NOT_NULL_FATAL(gt);
    enum xmt_tag_kind kind;
    const char *name, *p = lt + 1;
    if (strncmp(p, "/g", 2) == 0) {
      kind = XMT_TAG_CLOSE, name = "g", p += 2;
    } else if (strncmp(p, "bx", 2) == 0) {
      kind = XMT_TAG_ISOLATED_OPEN, name = "bx", p += 2;
    } else if (strncmp(p, "ex", 2) == 0) {
      kind = XMT_TAG_ISOLATED_CLOSE, name = "ex", p += 2;
    } else if (*p == 'g') {
      kind = XMT_TAG_OPEN, name = "g", p++;
    } else {
      CU_ASSERT_EQUAL_FATAL(*p, 'x');
      kind = XMT_TAG_PLACEHOLDER, name = "x", p++;
    }
    char id[32];
    size_t idn = strspn(p, "0123456789");
    CU_ASSERT_FATAL(idn > 0 && idn < sizeof id);
    memcpy(id, p, idn);
    id[idn] = '\0';
    CU_ASSERT_EQUAL(
        xmt_segment_append_tag(seg, kind, id, name, lt, (size_t)(gt - lt) + 1),
        XMT_OK);
    s = gt + 1;
  }
}

/* Renders a segment with each tag's markup in place, into buf. */
static const char *render(const xmt_segment *seg, char *buf, size_t size) {
  size_t len, at = 0, pos = 0;
  const char *text = xmt_segment_text(seg, &len);
  struct xmt_tag tag;
  for (size_t i = 0; i <= xmt_segment_tag_count(seg); i++) {
    size_t off = len;
    if (i < xmt_segment_tag_count(seg)) {
      CU_ASSERT_EQUAL(xmt_segment_tag(seg, i, &tag), XMT_OK);
      off = tag.offset;
    }
    at += (size_t)snprintf(buf + at, size - at, "%.*s", (int)(off - pos),
                           text + pos);
    pos = off;
    if (i < xmt_segment_tag_count(seg))
      at += (size_t)snprintf(buf + at, size - at, "%.*s", (int)tag.markup_len,
                             tag.markup);
    if (at >= size)
      return "(too long)";
  }
  return buf;
}

/* The invariant of xmt_project(): out is target with every tag of source
 * exactly once, unchanged, and well nested. Returns 1 when it holds. */
static int invariant_holds(const xmt_segment *out, const xmt_segment *source,
                           const char *target, size_t target_len) {
  size_t len, n = xmt_segment_tag_count(source);
  const char *text = xmt_segment_text(out, &len);
  if (len != target_len || memcmp(text, target, len) != 0)
    return 0;
  if (xmt_segment_tag_count(out) != n || xmt_segment_check(out, NULL) != XMT_OK)
    return 0;
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag s, o;
    size_t found = 0;
    (void)xmt_segment_tag(source, i, &s);
    for (size_t j = 0; j < n; j++) {
      (void)xmt_segment_tag(out, j, &o);
      if (o.kind == s.kind && strcmp(o.id, s.id) == 0) {
        found++;
        if (strcmp(o.name, s.name) != 0 || o.markup_len != s.markup_len ||
            memcmp(o.markup, s.markup, s.markup_len) != 0)
          return 0;
      }
    }
    if (found != 1)
      return 0;
  }
  return 1;
}

/* Projects a tagged source string onto target with a Pharaoh alignment,
 * both tokenized at spaces (words 0), into words as xliffmt's own tokens
 * (1), or into words cut where the tags cut them (2:
 * xmt_tokens_cut_at_tags); returns the rendered result. */
static const char *project_tokens(const char *source, const char *target,
                                  const char *pharaoh,
                                  enum xmt_projection_rule rule, int words) {
  static char buf[4096];
  xmt_segment *src = xmt_segment_new(), *out = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_FATAL(src && out && st && tt && al);
  parse_tagged(src, source);
  size_t slen;
  const char *stext = xmt_segment_text(src, &slen);
  if (words) {
    CU_ASSERT_EQUAL(xmt_tokenize(st, stext, slen, XMT_TOKENIZE_DEFAULT),
                    XMT_OK);
    CU_ASSERT_EQUAL(
        xmt_tokenize(tt, target, strlen(target), XMT_TOKENIZE_DEFAULT), XMT_OK);
    if (words == 2)
      CU_ASSERT_EQUAL(
          xmt_tokens_cut_at_tags(st, src, tt, target, strlen(target)), XMT_OK);
  } else {
    ws_tokens(st, stext, slen);
    ws_tokens(tt, target, strlen(target));
  }
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, pharaoh, strlen(pharaoh),
                                      xmt_tokens_count(st),
                                      xmt_tokens_count(tt), NULL),
                  XMT_OK);
  xmt_status status =
      xmt_project(out, src, st, target, strlen(target), tt, al, rule);
  CU_ASSERT_EQUAL(status, XMT_OK);
  CU_ASSERT_TRUE(invariant_holds(out, src, target, strlen(target)));
  const char *result = status == XMT_OK ? render(out, buf, sizeof buf) : "";
  xmt_segment_free(src);
  xmt_segment_free(out);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
  xmt_alignment_free(al);
  return result;
}

static const char *project_rule(const char *source, const char *target,
                                const char *pharaoh,
                                enum xmt_projection_rule rule) {
  return project_tokens(source, target, pharaoh, rule, 0);
}

static const char *project(const char *source, const char *target,
                           const char *pharaoh) {
  return project_rule(source, target, pharaoh, XMT_RULE_MINMAX);
}

/* The same over word tokens, punctuation apart ("nom - du - paquet"). */
static const char *project_words(const char *source, const char *target,
                                 const char *pharaoh) {
  return project_tokens(source, target, pharaoh, XMT_RULE_MINMAX, 1);
}

/* The same over word tokens cut where a tag cuts a word. */
static const char *project_cut(const char *source, const char *target,
                               const char *pharaoh) {
  return project_tokens(source, target, pharaoh, XMT_RULE_MINMAX, 2);
}

/* Compares whole strings, printing both on a difference. */
#define ASSERT_PROJECTS(actual, expected)                                      \
  assert_str((actual), (expected), __LINE__)

static void assert_str(const char *actual, const char *expected, int line) {
  int same = strcmp(actual, expected) == 0;
  if (!same)
    fprintf(stderr, "\nline %d:\n  actual:   «%s»\n  expected: «%s»\n", line,
            actual, expected);
  CU_assertImplementation(same ? CU_TRUE : CU_FALSE, (unsigned int)line,
                          "ASSERT_PROJECTS", __FILE__, "", CU_FALSE);
}

/* --- One test per rule ------------------------------------------------------
 */

/* Rule 1: a pair spans min..max of the targets of its source tokens. */
static void test_rule1_pair_minmax(void) {
  ASSERT_PROJECTS(project("The <g1>black cat</g1> sleeps", "Le chat noir dort",
                          "0-0 1-2 2-1 3-3"),
                  "Le <g1>chat noir</g1> dort");
  ASSERT_PROJECTS(
      project("The <g1>black</g1> cat", "Le chat noir", "0-0 1-2 2-1"),
      "Le chat <g1>noir</g1>");
  /* The union of the targets, gaps included. */
  ASSERT_PROJECTS(project("<g1>a b</g1> c", "A C B", "0-0 1-2 2-1"),
                  "<g1>A C B</g1>");
}

/* A pair opens after an elided article or pronoun that its source words
 * link only together with the word it leans on. */
static void test_rule1_elision(void) {
  ASSERT_PROJECTS(project("This <g1>applies</g1> too", "Cela s' applique aussi",
                          "0-0 1-1 1-2 2-3"),
                  "Cela s' <g1>applique</g1> aussi");
  ASSERT_PROJECTS(project("This <g1>applies</g1> too",
                          "Cela s\xE2\x80\x99 applique aussi",
                          "0-0 1-1 1-2 2-3"),
                  "Cela s\xE2\x80\x99 <g1>applique</g1> aussi");
  /* "the" stands for "l'" alone: it stays inside. */
  ASSERT_PROJECTS(project("See <g1>the state</g1> now",
                          "Voir l' \xC3\xA9tat maintenant", "0-0 1-1 2-2 3-3"),
                  "Voir <g1>l' \xC3\xA9tat</g1> maintenant");
  /* "n'... pas" translates "don't" as a whole: "n'" stays inside. */
  ASSERT_PROJECTS(
      project("<g1>Don't</g1> stop", "N' arr\xC3\xAAte pas", "0-0 0-2 1-1"),
      "<g1>N' arr\xC3\xAAte pas</g1>");
  /* A pair over the elided word alone keeps it. */
  ASSERT_PROJECTS(
      project("See <g1>the</g1> state", "Voir l' \xC3\xA9tat", "0-0 1-1 2-2"),
      "Voir <g1>l'</g1> \xC3\xA9tat");
  /* An apostrophe alone is no elision. */
  ASSERT_PROJECTS(project("a <g1>b</g1> c", "A ' B C", "0-0 1-1 1-2 2-3"),
                  "A <g1>' B</g1> C");
}

/* Rule 1: a word joined with hyphens is taken whole ("nom-du-paquet" for
 * "package-name", its parts reordered), unless a part translates a word
 * outside the pair or the source pair is part of a word itself; a colon
 * the source pair does not end with stays outside. */
static void test_rule1_word_edges(void) {
  /* the package - name here / le nom - du - paquet ici */
  ASSERT_PROJECTS(project_words("the <g1>package-name</g1> here",
                                "le nom-du-paquet ici", "0-0 3-1 4-6"),
                  "le <g1>nom-du-paquet</g1> ici");
  /* der terminfo - Datenbank: "Datenbank" is "database" */
  ASSERT_PROJECTS(project_words("the <g1>terminfo</g1> database",
                                "der terminfo-Datenbank", "0-0 1-1 2-3"),
                  "der <g1>terminfo</g1>-Datenbank");
  /* a part of a joined word in the source: the same in the target */
  ASSERT_PROJECTS(project_words("the <g1>package</g1>-name here",
                                "le nom-du-paquet ici", "0-0 1-5 3-1 4-6"),
                  "le nom-du-<g1>paquet</g1> ici");
  ASSERT_PROJECTS(
      project_words("<g1>Note</g1> that", "Hinweis: dass", "0-0 0-1 1-2"),
      "<g1>Hinweis</g1>: dass");
  ASSERT_PROJECTS(
      project_words("<g1>Note:</g1> that", "Hinweis: dass", "0-0 1-1 2-2"),
      "<g1>Hinweis:</g1> dass");
  /* CJK punctuation is no letter: "-o" after "、" is no joined word */
  ASSERT_PROJECTS(project_words("set, <g1>-o</g1> and",
                                "\xE3\x81\x9F\xE3\x82\x81\xE3\x80\x81-o "
                                "\xE3\x81\xA8",
                                "0-0 1-1 2-2 3-3 4-4"),
                  "\xE3\x81\x9F\xE3\x82\x81\xE3\x80\x81<g1>-o</g1> "
                  "\xE3\x81\xA8");
}

/* Rule 1: a pair whose words come once in the source and once, the
 * same, in the translation goes on them, whatever the links. */
static void test_rule1_verbatim(void) {
  /* use - a to list / - a verwenden um aufzulisten: the links are wrong */
  ASSERT_PROJECTS(project_words("use <g1>-a</g1> to list",
                                "-a verwenden um aufzulisten",
                                "0-2 1-3 2-3 3-3 4-4"),
                  "<g1>-a</g1> verwenden um aufzulisten");
  /* twice in the translation: the links decide */
  ASSERT_PROJECTS(project_words("use <g1>-a</g1> to list",
                                "-a verwenden, -a um aufzulisten",
                                "0-2 1-4 2-5 3-6 4-7"),
                  "-a verwenden, <g1>-a</g1> um aufzulisten");
  /* twice in the source: the same */
  ASSERT_PROJECTS(project_words("use <g1>-a</g1> or -a to list",
                                "-a oder verwenden um aufzulisten",
                                "0-3 1-4 2-4 3-2 4-0 5-1 6-4 7-5"),
                  "-a oder verwenden <g1>um</g1> aufzulisten");
  /* a single character is no name */
  ASSERT_PROJECTS(project_words("use <g1>a</g1> to", "a b c", "0-2 1-1 2-2"),
                  "a <g1>b</g1> c");
}

/* Rule 1: a pair that cuts a word at a mark ("<g>package</g>.symbols")
 * wraps its piece, once the tokens are cut there on both sides; a
 * hyphen-joined word is still taken whole, up to the mark the source
 * pair stops at. */
static void test_rule1_tag_cuts(void) {
  /* debian / package . symbols here / debian / Paket . symbols hier */
  ASSERT_PROJECTS(project_cut("debian/<g1>package</g1>.symbols here",
                              "debian/Paket.symbols hier",
                              "0-0 1-1 2-2 3-3 4-4 5-5"),
                  "debian/<g1>Paket</g1>.symbols hier");
  /* fsck . type helper / Hilfsprogramm / sbin / fsck . Typ */
  ASSERT_PROJECTS(project_cut("fsck.<g1>type</g1> helper",
                              "Hilfsprogramm /sbin/fsck.Typ",
                              "0-4 1-5 2-6 3-0"),
                  "Hilfsprogramm /sbin/fsck.<g1>Typ</g1>");
  /* the form name @ hostname . / la forme nom @ nom_h\xC3\xB4te . */
  ASSERT_PROJECTS(project_cut("the form <g1>name</g1>@hostname.",
                              "la forme nom@nom_h\xC3\xB4te.",
                              "0-0 1-1 2-2 3-3 4-4 5-5"),
                  "la forme <g1>nom</g1>@nom_h\xC3\xB4te.");
  /* unique @ full - domain - name . / unique @ nom - domaine - complet .:
   * only "domaine" linked, the span takes the hyphens' words, not "@" */
  ASSERT_PROJECTS(project_cut("unique@<g1>full-domain-name</g1>.",
                              "unique@nom-domaine-complet.", "0-0 1-1 4-4 7-7"),
                  "unique@<g1>nom-domaine-complet</g1>.");
  /* without the cuts, the pair takes the whole word */
  ASSERT_PROJECTS(project_words("debian/<g1>package</g1>.symbols here",
                                "debian/Paket.symbols hier", "0-0 1-1 2-2 3-3"),
                  "debian/<g1>Paket.symbols</g1> hier");
}

/* Rule 2: a placeholder or isolated open goes before min(A(a)); an
 * isolated close after max(A(a-1)). */
static void test_rule2_placeholders_isolated(void) {
  ASSERT_PROJECTS(
      project("Click <x1/>here now", "Maintenant cliquez ici", "0-1 1-2 2-0"),
      "Maintenant cliquez <x1/>ici");
  ASSERT_PROJECTS(project("one <bx1/>two three<ex2/> four",
                          "uno tres dos cuatro", "0-0 1-2 2-1 3-3"),
                  "uno tres<ex2/> <bx1/>dos cuatro");
  /* Many targets: before the first, after the last. */
  ASSERT_PROJECTS(project("a <x1/>b<ex2/> c", "A B1 B2 C", "0-0 1-1 1-2 2-3"),
                  "A <x1/>B1 B2<ex2/> C");
  /* A placeholder glued to the word before it stays with that word. */
  ASSERT_PROJECTS(project("word<x1/> next", "suivant mot", "0-1 1-0"),
                  "suivant mot<x1/>");
}

/* Rule 3: tags before the first token stay at the start, tags after the
 * last at the end, whatever the alignment. */
static void test_rule3_start_end(void) {
  ASSERT_PROJECTS(project("<x1/>Hello world<x2/>", "monde bonjour", "0-1 1-0"),
                  "<x1/>monde bonjour<x2/>");
  ASSERT_PROJECTS(
      project("<bx1/>Hello world.<ex2/>", " monde bonjour. ", "0-1 1-0"),
      "<bx1/> monde bonjour. <ex2/>");
  ASSERT_PROJECTS(project("<x1/><g2></g2>a b<x3/>", "B A", "0-1 1-0"),
                  "<x1/><g2></g2>B A<x3/>");
}

/* Rule 4: unaligned tokens use the nearest aligned neighbour inside the
 * parent pair (closer wins, a tie goes left), else the scaled position. */
static void test_rule4_unaligned(void) {
  /* "big" is unaligned: "the" and "cat" are as near; left wins. */
  ASSERT_PROJECTS(project("the <g1>big</g1> cat", "le chat", "0-0 2-1"),
                  "<g1>le</g1> chat");
  ASSERT_PROJECTS(project("the big <x1/>fat cat", "le chat", "0-0 3-1"),
                  "le <x1/>chat");
  ASSERT_PROJECTS(project("the <x1/>big fat cat", "le chat", "0-0 3-1"),
                  "le <x1/>chat");
  ASSERT_PROJECTS(project("the big fat <x1/>cat", "chat le", "0-1 3-0"),
                  "<x1/>chat le");
  /* Only the parent's tokens count as neighbours: "e" is as near as "f"
   * and on the left, but outside g1. */
  ASSERT_PROJECTS(
      project("e <g1>b <x2/>c d f h</g1>", "w F E H", "0-2 4-1 5-3"),
      "w <g1><x2/>F E H</g1>");
  /* No aligned neighbour: proportional positions rounded to nearest, 4
   * source to 6 target tokens (1 * 6 / 4 = 1.5 -> 2). */
  ASSERT_PROJECTS(project("a <x1/>b c d", "u v w x y z", ""),
                  "u v <x1/>w x y z");
  ASSERT_PROJECTS(project("a b <g1>c d</g1>", "u v w x y z", ""),
                  "u v w <g1>x y z</g1>");
}

/* Rule 5: a child is clipped into its parent's projection. */
static void test_rule5_nested(void) {
  ASSERT_PROJECTS(project("<g1>The <g2>black</g2> cat</g1> sleeps",
                          "Le chat noir dort", "0-0 1-2 2-1 3-3"),
                  "<g1>Le chat <g2>noir</g2></g1> dort");
  /* g2 crosses g1 and shrinks to "C"; g3 ("d" is on "B") is then outside
   * g2 and is clipped onto it. */
  ASSERT_PROJECTS(project("<g1>a b</g1> <g2>c <g3>d</g3></g2>", "A x B C",
                          "0-0 1-2 3-2 2-3"),
                  "<g1>A x B</g1> <g2><g3>C</g3></g2>");
  /* Span scoring chooses g1 = "A" (ties: shortest); g2 is clipped to it. */
  ASSERT_PROJECTS(project_rule("<g1>a <g2>b</g2></g1> c", "A C B",
                               "0-0 1-2 2-1", XMT_RULE_SCORE),
                  "<g1><g2>A</g2></g1> C B");
  ASSERT_PROJECTS(project("<g1>a <g2>b</g2></g1> c", "A C B", "0-0 1-2 2-1"),
                  "<g1>A C <g2>B</g2></g1>");
}

/* Rule 6: crossing siblings: the later one shrinks to outside the earlier
 * one; siblings side by side in the source never nest (one word is cut
 * between them, a span over the other keeps its side with more links). */
static void test_rule6_crossing(void) {
  ASSERT_PROJECTS(
      project("<g1>a b</g1> <g2>c d</g2>", "A C B D", "0-0 1-2 2-1 3-3"),
      "<g1>A C B</g1> <g2>D</g2>");
  ASSERT_PROJECTS(
      project("<g1>a b</g1> <g2>c d</g2>", "C A D B", "0-1 1-3 2-0 3-2"),
      "<g2>C</g2> <g1>A D B</g1>");
  ASSERT_PROJECTS(project("<g1>a</g1> <g2>b</g2>", "AB", "0-0 1-0"),
                  "<g1>A</g1><g2>B</g2>");
  ASSERT_PROJECTS(project("<g1>a</g1> <g2>b c</g2>", "B A C", "0-1 1-0 2-2"),
                  "B <g1>A</g1> <g2>C</g2>");
  ASSERT_PROJECTS(project("<g1>a</g1> <g2>b c</g2>", "B C A", "0-2 1-0 2-1"),
                  "<g2>B C</g2> <g1>A</g1>");
  /* Not side by side: contained spans nest. */
  ASSERT_PROJECTS(project("<g1>a</g1> x <g2>b</g2>", "AB X", "0-0 1-1 2-0"),
                  "<g1><g2>AB</g2></g1> X");
}

/* Rule 7: pairs around no token stay empty, at their OPEN's place; tags at
 * one source position keep their order. */
static void test_rule7_zero_width(void) {
  ASSERT_PROJECTS(project("a <g1></g1>b", "B A", "0-1 1-0"), "<g1></g1>B A");
  ASSERT_PROJECTS(project("a <x1/><g2></g2><x3/>b c", "C B A", "0-2 1-1 2-0"),
                  "C <x1/><g2></g2><x3/>B A");
  ASSERT_PROJECTS(project("a <g1><x2/><g3></g3></g1>b", "B A", "0-1 1-0"),
                  "<g1><x2/><g3></g3></g1>B A");
  /* A pair around spaces only covers no token either; glued to the word
   * before it, it stays there. */
  ASSERT_PROJECTS(project("a<g1> </g1>b", "A  B", "0-0 1-1"), "A<g1></g1>  B");
  ASSERT_PROJECTS(project("a <g1> </g1>b", "A   B", "0-0 1-1"),
                  "A   <g1></g1>B");
}

/* Rule 8: a tag inside a word goes to an edge of the word aligned to it,
 * or to the same byte inside it when the word is unchanged. */
static void test_rule8_inside_word(void) {
  ASSERT_PROJECTS(project("ISA<g1>2</g1> text", "ISA2 texte", "0-0 1-1"),
                  "ISA<g1>2</g1> texte");
  ASSERT_PROJECTS(
      project("un<g1>believ</g1>able story", "histoire incroyable", "0-1 1-0"),
      "histoire <g1>incroyable</g1>");
  ASSERT_PROJECTS(project("fo<x1/>obar baz", "qux quux", "0-1 1-0"),
                  "qux <x1/>quux");
  ASSERT_PROJECTS(project("foob<x1/>ar baz", "qux quux", "0-1 1-0"),
                  "qux quux<x1/>");
  ASSERT_PROJECTS(
      project("na<x1/>ïve café", "caf\xC3\xA9 na\xC3\xAFve", "0-1 1-0"),
      "café na<x1/>ïve");
  ASSERT_PROJECTS(project("E=mc<bx1/>2 now", "now E=MC2", "0-1 1-0"),
                  "now <bx1/>E=MC2");
  ASSERT_PROJECTS(project("E=mc<ex1/>2 now", "now E=MC2", "0-1 1-0"),
                  "now E=MC2<ex1/>");
  ASSERT_PROJECTS(project("E=mc<bx1/>2 now", "now E=mc2", "0-1 1-0"),
                  "now E=mc<bx1/>2");
  /* Unchanged but aligned elsewhere: the edges of the aligned word. */
  ASSERT_PROJECTS(project("ab<x1/>c d", "abc D", "0-1 1-0"), "abc D<x1/>");
}

/* Rule 9: tags attach to words, not to spaces, and the text is never
 * changed. */
static void test_rule9_whitespace(void) {
  ASSERT_PROJECTS(project("a<g1> b </g1>c", "x  y  z", "0-0 1-1 2-2"),
                  "x  <g1>y</g1>  z");
  /* A code between spaces stays a word between words. */
  ASSERT_PROJECTS(project("a <x1/> b", "x   y", "0-0 1-1"), "x <x1/>  y");
  ASSERT_PROJECTS(project("a<x1/> b", "x   y", "0-0 1-1"), "x<x1/>   y");
  ASSERT_PROJECTS(project("<g1>a b</g1>", "  x  y  ", "0-0 1-1"),
                  "  <g1>x  y</g1>  ");
  /* Unchanged gaps between the same words keep the tag where it was. */
  ASSERT_PROJECTS(project("a <g1> b</g1>", "x  y", "0-0 1-1"), "x <g1> y</g1>");
  ASSERT_PROJECTS(project("a <g1> b</g1>", "x y", "0-0 1-1"), "x <g1>y</g1>");
}

/* An isolated code keeps the spacing it had in the source; in a short
 * message the engine's own spacing and the final punctuation anchor it
 * where the links are few or wrong. */
static void test_code_spacing(void) {
  /* The two spaces left where the code was come back from the engine:
   * the code goes there, one space on each side ("have" is linked wrong,
   * as the aligner does with little to learn from). */
  ASSERT_PROJECTS(project("You have <x1/> new messages.",
                          "Tienes  mensajes nuevos.", "0-0 1-1 2-2 3-2"),
                  "Tienes <x1/> mensajes nuevos.");
  ASSERT_PROJECTS(
      project("You have <x1/> items", "Tienes  elementos", "0-0 2-1"),
      "Tienes <x1/> elementos");
  /* A pair around nothing (DeepL's XML "<x id="9"></x>") is one code. */
  ASSERT_PROJECTS(project("You have <g1></g1> new messages.",
                          "Tienes  mensajes nuevos.", "0-0 1-1 2-2 3-2"),
                  "Tienes <g1></g1> mensajes nuevos.");
  /* Before the final punctuation in the source, before the same in the
   * target, whatever "!" is linked to; the space before it is kept. */
  ASSERT_PROJECTS(project("Welcome to our online shop, <x1/>!",
                          "Bienvenido a nuestra tienda on-line, !",
                          "0-0 1-1 2-2 3-4 4-3 5-3"),
                  "Bienvenido a nuestra tienda on-line, <x1/>!");
  /* Glued to the word after it: glued to that word's translation, not
   * to the spaces before it; glued to the word before, likewise. */
  ASSERT_PROJECTS(project("a <x1/>b c", "X  B C", "0-0 1-1 2-2"),
                  "X  <x1/>B C");
  ASSERT_PROJECTS(project("a<x1/>  b c", "X  B C", "0-0 1-1 2-2"),
                  "X<x1/>  B C");
  /* Spaces on both sides but one space in the target: the text is kept,
   * the code goes before the word. */
  ASSERT_PROJECTS(project("a <x1/> b c", "X B C", "0-0 1-1 2-2"), "X <x1/>B C");
  /* Two such gaps in the source: the echo is no anchor, links decide. */
  ASSERT_PROJECTS(project("a  b <x1/> c", "X  Y  Z", "0-0 1-1 2-2"),
                  "X  Y <x1/> Z");
}

/* Two pairs side by side in the source stay side by side in the target,
 * in source order, each on its own words, neither empty. */
static void test_adjacent_pairs(void) {
  /* One word the engine kept: each pair keeps its part of it. */
  ASSERT_PROJECTS(project("The <g1>red</g1><g2>blue</g2> flag is old.",
                          "El redblue la bandera es vieja.",
                          "0-0 1-1 2-3 3-4 4-5"),
                  "El <g1>red</g1><g2>blue</g2> la bandera es vieja.");
  /* One word translated: cut at the share of each in the source. */
  ASSERT_PROJECTS(project("The <g1>red</g1><g2>blue</g2> flag",
                          "La bandera rojiazul", "0-0 1-2 2-1"),
                  "La bandera <g1>roj</g1><g2>iazul</g2>");
  /* Two words: one each, in source order. */
  ASSERT_PROJECTS(project("The <g1>red</g1><g2>blue</g2> flag",
                          "La bandera roja azul", "0-0 1-2 1-3 2-1"),
                  "La bandera <g1>roja</g1> <g2>azul</g2>");
  ASSERT_PROJECTS(project("<g1>red</g1><g2>blue</g2>", "rojo azul", "0-0 0-1"),
                  "<g1>rojo</g1> <g2>azul</g2>");
  /* Three side by side on one word kept. */
  ASSERT_PROJECTS(
      project("a <g1>x</g1><g2>y</g2><g3>z</g3> b", "A xyz B", "0-0 1-1 2-2"),
      "A <g1>x</g1><g2>y</g2><g3>z</g3> B");
  /* Side by side with a space between, the second linked inside the
   * first's words: the first's words are shared out by the links. */
  ASSERT_PROJECTS(project("<g1>big red</g1> <g2>car</g2> now",
                          "gran coche rojo ahora", "0-0 1-2 2-1 3-3"),
                  "<g1>gran</g1> <g2>coche</g2> rojo ahora");
}

static void test_monotone(void) {
  ASSERT_PROJECTS(project("I <g1>like</g1> <x2/>green <g3>tea</g3>.",
                          "Ich mag grünen Tee.", "0-0 1-1 2-2 3-3"),
                  "Ich <g1>mag</g1> <x2/>grünen <g3>Tee.</g3>");
}

static void test_reversed(void) {
  ASSERT_PROJECTS(project("<g1>one</g1> <x2/><g3>two</g3> three<ex4/>",
                          "three two one", "0-2 1-1 2-0"),
                  "three <x2/><g3>two</g3> <g1>one</g1><ex4/>");
  ASSERT_PROJECTS(project("<g1>one</g1> <x2/><g3>two</g3> three<ex4/> four",
                          "four three two one", "0-3 1-2 2-1 3-0"),
                  "four three<ex4/> <x2/><g3>two</g3> <g1>one</g1>");
}

static void test_many_to_many(void) {
  ASSERT_PROJECTS(project("<g1>New York</g1> is <g2>big</g2>",
                          "Nueva-York es muy grande", "0-0 1-0 2-1 3-2 3-3"),
                  "<g1>Nueva-York</g1> es <g2>muy grande</g2>");
  ASSERT_PROJECTS(project("a <g1>b</g1> c", "X Y", "0-0 0-1 1-0 1-1 2-1"),
                  "<g1>X Y</g1>");
}

static void test_empty_alignment(void) {
  ASSERT_PROJECTS(project("<g1>a</g1> b <x2/>c d", "w x y z", ""),
                  "<g1>w</g1> x <x2/>y z");
  /* No target token at all: tags before the first source token at the
   * start, the others at the end. */
  ASSERT_PROJECTS(project("<x1/>a <g2>b</g2>", "", ""), "<x1/><g2></g2>");
  ASSERT_PROJECTS(project("<x1/>a <g2>b</g2>", " . ", ""), "<x1/> <g2>.</g2> ");
}

static void test_identical(void) {
  static const char *const cases[] = {
      "Hello <g1>big <g2>bad</g2></g1> wo<x3/>rld<bx4/>! <g5> </g5>end<ex6/>",
      "  <x1/>lead <g2> spaced </g2>  trail<x3/>  ",
      "<g1><g2>a</g2></g1><x3/> <g4>b<x5/></g4>c<g6></g6>",
      "ISA<g1>2</g1> na<x2/>ïve <bx3/><ex4/> 日本<g5>語</g5>",
      "<x1/>",
      "",
      "no tags at all",
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    xmt_segment *seg = xmt_segment_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(seg);
    parse_tagged(seg, cases[i]);
    size_t len;
    const char *text = xmt_segment_text(seg, &len);
    char pharaoh[256] = "";
    xmt_tokens *tokens = xmt_tokens_new();
    CU_ASSERT_PTR_NOT_NULL_FATAL(tokens);
    ws_tokens(tokens, text, len);
    for (size_t t = 0, at = 0; t < xmt_tokens_count(tokens); t++)
      at +=
          (size_t)snprintf(pharaoh + at, sizeof pharaoh - at, "%zu-%zu ", t, t);
    char target[256];
    snprintf(target, sizeof target, "%s", text);
    ASSERT_PROJECTS(project_rule(cases[i], target, pharaoh, XMT_RULE_MINMAX),
                    cases[i]);
    ASSERT_PROJECTS(project_rule(cases[i], target, pharaoh, XMT_RULE_SCORE),
                    cases[i]);
    xmt_tokens_free(tokens);
    xmt_segment_free(seg);
  }
}

/* Span scoring keeps the links inside and the links outside. */
static void test_score_rule(void) {
  ASSERT_PROJECTS(project_rule("<g1>a b c</g1> d", "A B D C", "0-0 1-1 2-3 3-2",
                               XMT_RULE_SCORE),
                  "<g1>A B</g1> D C");
  ASSERT_PROJECTS(project_rule("<g1>a b c</g1> d", "A B D C", "0-0 1-1 2-3 3-2",
                               XMT_RULE_MINMAX),
                  "<g1>A B D C</g1>");
  /* Ties: the shortest span, then the leftmost. */
  ASSERT_PROJECTS(
      project_rule("<g1>a b</g1> c", "A C B", "0-0 1-2 2-1", XMT_RULE_SCORE),
      "<g1>A</g1> C B");
  ASSERT_PROJECTS(project_rule("The <g1>black cat</g1> sleeps",
                               "Le chat noir dort", "0-0 1-2 2-1 3-3",
                               XMT_RULE_SCORE),
                  "Le <g1>chat noir</g1> dort");
}

/* Sub-word tokens: a tag between two pieces of a word. */
static void test_subword_tokens(void) {
  xmt_segment *src = xmt_segment_new(), *out = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_FATAL(src && out && st && tt && al);
  parse_tagged(src, "foot<g1>ball</g1> match");
  /* foot|ball match -> match de|foot */
  CU_ASSERT_EQUAL(xmt_tokens_append(st, 0, 4), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_append(st, 4, 8), XMT_OK);
  CU_ASSERT_EQUAL(xmt_tokens_append(st, 9, 14), XMT_OK);
  const char *target = "match de foot";
  ws_tokens(tt, target, strlen(target));
  CU_ASSERT_EQUAL(xmt_alignment_parse(al, "0-2 1-2 2-0", 11, 3, 3, NULL),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_project(out, src, st, target, strlen(target), tt, al,
                              XMT_RULE_MINMAX),
                  XMT_OK);
  char buf[256];
  ASSERT_PROJECTS(render(out, buf, sizeof buf), "match de <g1>foot</g1>");
  xmt_segment_free(src);
  xmt_segment_free(out);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
  xmt_alignment_free(al);
}

static void test_refused(void) {
  xmt_segment *src = xmt_segment_new(), *out = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_FATAL(src && out && st && tt && al);
  parse_tagged(src, "<g1>a <g2>b</g1> c</g2>"); /* crossed */
  ws_tokens(st, "a b c", 5);
  ws_tokens(tt, "A B C", 5);
  CU_ASSERT_EQUAL(
      xmt_project(out, src, st, "A B C", 5, tt, al, XMT_RULE_MINMAX),
      XMT_ERR_INLINE);
  xmt_segment_clear(src);
  parse_tagged(src, "a <g1>b</g1> c");
  CU_ASSERT_EQUAL(xmt_project(out, src, st, "A B C", 5, tt, al,
                              (enum xmt_projection_rule)7),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(
      xmt_project(out, src, NULL, "A B C", 5, tt, al, XMT_RULE_MINMAX),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(
      xmt_project(src, src, st, "A B C", 5, tt, al, XMT_RULE_MINMAX),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(
      xmt_project(out, src, st, "A\xFF", 2, tt, al, XMT_RULE_MINMAX),
      XMT_ERR_USAGE); /* target tokens past the text */
  xmt_tokens *t1 = xmt_tokens_new();
  CU_ASSERT_EQUAL(xmt_tokens_append(t1, 0, 2), XMT_OK);
  CU_ASSERT_EQUAL(
      xmt_project(out, src, st, "A\xFF", 2, t1, al, XMT_RULE_MINMAX),
      XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(
      xmt_project(out, src, st, "\xC3\xA9", 2, t1, al, XMT_RULE_MINMAX),
      XMT_OK);
  xmt_tokens *t2 = xmt_tokens_new();
  CU_ASSERT_EQUAL(xmt_tokens_append(t2, 1, 2), XMT_OK); /* mid-character */
  CU_ASSERT_EQUAL(
      xmt_project(out, src, st, "\xC3\xA9", 2, t2, al, XMT_RULE_MINMAX),
      XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(xmt_alignment_add(al, 3, 0), XMT_OK); /* no source token 3 */
  CU_ASSERT_EQUAL(
      xmt_project(out, src, st, "A B C", 5, tt, al, XMT_RULE_MINMAX),
      XMT_ERR_USAGE);
  /* A NULL alignment is an empty one. */
  CU_ASSERT_EQUAL(
      xmt_project(out, src, st, "A B C", 5, tt, NULL, XMT_RULE_MINMAX), XMT_OK);
  xmt_tokens_free(t1);
  xmt_tokens_free(t2);
  xmt_segment_free(src);
  xmt_segment_free(out);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
  xmt_alignment_free(al);
}

static void test_many_tags(void) {
  /* Past the stack scratch: 300 nested and sequential pairs. */
  static char source[16384], target[8192];
  size_t at = 0, tat = 0;
  for (int i = 0; i < 100; i++)
    at += (size_t)snprintf(source + at, sizeof source - at,
                           "<g%d>w%d <x%d/><g%d>v%d</g%d> ", i, i, 1000 + i,
                           500 + i, i, 500 + i);
  for (int i = 99; i >= 0; i--)
    at += (size_t)snprintf(source + at, sizeof source - at, "</g%d>", i);
  for (int i = 0; i < 200; i++)
    tat += (size_t)snprintf(target + tat, sizeof target - tat, "t%d ", i);
  char pharaoh[4096];
  size_t pat = 0;
  for (int i = 0; i < 200; i++)
    pat += (size_t)snprintf(pharaoh + pat, sizeof pharaoh - pat, "%d-%d ", i,
                            199 - i);
  const char *result = project(source, target, pharaoh);
  CU_ASSERT_TRUE(strlen(result) > tat);
}

/* --- Property test
 * ------------------------------------------------------------ */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n) {
  /* xorshift64*: deterministic across platforms. */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * UINT64_C(2685821657736338717)) >> 32) % n;
}

static const char *const words[] = {
    "a",  "cat",   "naïve", "日本語", "Ωμέγα", "x",    "ß",  "🙂ok",
    "42", "e=mc2", ",",     "über",   "the",   "word", "中", "ǅž",
};
#define NWORDS (sizeof words / sizeof *words)

struct gen {
  xmt_segment *seg;
  int next_id;
  int open[16];
  int depth;
  char id[16];
};

static void gen_tag(struct gen *g) {
  uint32_t r = rnd(10);
  if (r < 3 && g->depth < 16) {
    snprintf(g->id, sizeof g->id, "%d", g->next_id++);
    g->open[g->depth++] = g->next_id - 1;
    (void)xmt_segment_append_tag(g->seg, XMT_TAG_OPEN, g->id, "g", "<g>", 3);
  } else if (r < 6 && g->depth > 0) {
    snprintf(g->id, sizeof g->id, "%d", g->open[--g->depth]);
    (void)xmt_segment_append_tag(g->seg, XMT_TAG_CLOSE, g->id, "g", "</g>", 4);
  } else if (r == 6) {
    snprintf(g->id, sizeof g->id, "%d", g->next_id++);
    (void)xmt_segment_append_tag(g->seg, XMT_TAG_OPEN, g->id, "g", "<g>", 3);
    (void)xmt_segment_append_tag(g->seg, XMT_TAG_CLOSE, g->id, "g", "</g>", 4);
  } else {
    static const enum xmt_tag_kind kinds[] = {
        XMT_TAG_PLACEHOLDER, XMT_TAG_ISOLATED_OPEN, XMT_TAG_ISOLATED_CLOSE};
    static const char *const names[] = {"x", "bx", "ex"};
    uint32_t k = rnd(3);
    snprintf(g->id, sizeof g->id, "%d", g->next_id++);
    (void)xmt_segment_append_tag(g->seg, kinds[k], g->id, names[k], names[k],
                                 strlen(names[k]));
  }
}

static void gen_spaces(struct gen *g, int allow_none) {
  static const char *const sp[] = {"", " ", "  ", "\t"};
  const char *s = sp[allow_none ? rnd(4) : 1 + rnd(3)];
  (void)xmt_segment_append_text(g->seg, s, strlen(s));
}

/* A random tagged segment: words, spaces, tags between and inside words. */
static void gen_source(struct gen *g) {
  xmt_segment_clear(g->seg);
  g->depth = 0;
  g->next_id = 1;
  uint32_t nwords = rnd(12);
  if (rnd(4) == 0)
    gen_spaces(g, 1);
  for (uint32_t w = 0; w < nwords; w++) {
    while (rnd(3) == 0)
      gen_tag(g);
    const char *word = words[rnd(NWORDS)];
    size_t len = strlen(word);
    if (len > 1 && rnd(4) == 0) {
      /* A tag inside the word, at a character boundary. */
      size_t cut = 1 + rnd((uint32_t)len - 1);
      while (((unsigned char)word[cut] & 0xC0) == 0x80)
        cut++;
      (void)xmt_segment_append_text(g->seg, word, cut);
      if (cut < len)
        gen_tag(g);
      (void)xmt_segment_append_text(g->seg, word + cut, len - cut);
    } else {
      (void)xmt_segment_append_text(g->seg, word, len);
    }
    while (rnd(4) == 0)
      gen_tag(g);
    if (w + 1 < nwords)
      gen_spaces(g, 0);
  }
  while (rnd(3) == 0)
    gen_tag(g);
  if (rnd(4) == 0)
    gen_spaces(g, 1);
  while (g->depth > 0) {
    snprintf(g->id, sizeof g->id, "%d", g->open[--g->depth]);
    (void)xmt_segment_append_tag(g->seg, XMT_TAG_CLOSE, g->id, "g", "</g>", 4);
  }
}

/* Tokens at spaces, or (one time in three) sub-word pieces of at most two
 * characters. */
static void gen_tokens(xmt_tokens *tokens, const char *text, size_t len) {
  int pieces = rnd(3) == 0;
  size_t i = 0;
  while (i < len) {
    while (i < len && is_space(text[i]))
      i++;
    size_t start = i, chars = 0;
    while (i < len && !is_space(text[i])) {
      i++;
      while (i < len && ((unsigned char)text[i] & 0xC0) == 0x80)
        i++;
      if (pieces && ++chars == 2)
        break;
    }
    if (i > start)
      (void)xmt_tokens_append(tokens, start, i);
  }
}

/* There is no xmt_tokens_clear(); tokenizing nothing clears. */
static void clear_tokens(xmt_tokens *tokens) {
  CU_ASSERT_EQUAL(xmt_tokenize(tokens, "", 0, XMT_TOKENIZE_WHITESPACE), XMT_OK);
}

static size_t gen_target(char *buf, size_t size) {
  size_t at = 0;
  uint32_t n = rnd(14);
  if (rnd(4) == 0)
    buf[at++] = ' ';
  for (uint32_t i = 0; i < n && at + 32 < size; i++) {
    at += (size_t)snprintf(buf + at, size - at, "%s", words[rnd(NWORDS)]);
    if (i + 1 < n)
      buf[at++] = rnd(5) == 0 ? '\t' : ' ';
  }
  if (rnd(4) == 0)
    buf[at++] = ' ';
  buf[at] = '\0';
  return at;
}

static void gen_alignment(xmt_alignment *al, size_t m, size_t k) {
  xmt_alignment_clear(al);
  if (m == 0 || k == 0)
    return;
  switch (rnd(5)) {
  case 0: /* empty */
    break;
  case 1: /* monotone, some dropped */
    for (size_t i = 0; i < m; i++)
      if (rnd(5) != 0)
        (void)xmt_alignment_add(al, i, i * k / m);
    break;
  case 2: /* reversed */
    for (size_t i = 0; i < m; i++)
      (void)xmt_alignment_add(al, i, (m - 1 - i) * k / m);
    break;
  default: { /* random: out of order, many-to-many, duplicates */
    uint32_t n = rnd((uint32_t)(2 * (m + k)));
    for (uint32_t l = 0; l < n; l++)
      (void)xmt_alignment_add(al, rnd((uint32_t)m), rnd((uint32_t)k));
    if (n > 0 && rnd(2) == 0)
      (void)xmt_alignment_add(al, xmt_alignment_links(al)[0].source,
                              xmt_alignment_links(al)[0].target);
    break;
  }
  }
}

#define PROPERTY_SEGMENTS 100000

static void test_property_random(void) {
  struct gen g = {0};
  g.seg = xmt_segment_new();
  xmt_segment *out = xmt_segment_new();
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  CU_ASSERT_FATAL(g.seg && out && st && tt && al);
  char target[1024];
  size_t failures = 0, identical = 0;
  rng_state = UINT64_C(0x9E3779B97F4A7C15);
  for (int iter = 0; iter < PROPERTY_SEGMENTS; iter++) {
    gen_source(&g);
    size_t slen, tlen;
    const char *stext = xmt_segment_text(g.seg, &slen);
    clear_tokens(st);
    clear_tokens(tt);
    gen_tokens(st, stext, slen);
    int same = rnd(8) == 0;
    if (same) {
      /* The identity translation must come back byte for byte. */
      memcpy(target, stext, slen + 1);
      tlen = slen;
      for (size_t t = 0; t < xmt_tokens_count(st); t++)
        (void)xmt_tokens_append(tt, xmt_tokens_array(st)[t].start,
                                xmt_tokens_array(st)[t].end);
      xmt_alignment_clear(al);
      for (size_t t = 0; t < xmt_tokens_count(st); t++)
        (void)xmt_alignment_add(al, t, t);
    } else {
      tlen = gen_target(target, sizeof target);
      gen_tokens(tt, target, tlen);
      gen_alignment(al, xmt_tokens_count(st), xmt_tokens_count(tt));
    }
    for (int rule = 0; rule < 2; rule++) {
      xmt_status status = xmt_project(out, g.seg, st, target, tlen, tt, al,
                                      (enum xmt_projection_rule)rule);
      int ok = status == XMT_OK && invariant_holds(out, g.seg, target, tlen) &&
               (!same || xmt_segment_equal(out, g.seg));
      if (!ok && failures++ < 5) {
        char a[4096], b[4096];
        fprintf(stderr,
                "\nproperty failure (iteration %d, rule %d, %s):\n"
                "  source: «%s»\n  target: «%s»\n  output: «%s»\n",
                iter, rule, xmt_strerror(status), render(g.seg, a, sizeof a),
                target, render(out, b, sizeof b));
      }
      identical += same;
    }
  }
  CU_ASSERT_EQUAL(failures, 0);
  CU_ASSERT_TRUE(identical > 0);
  xmt_segment_free(g.seg);
  xmt_segment_free(out);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
  xmt_alignment_free(al);
}

static CU_TestInfo project_tests[] = {
    {"rule 1: pair spans min..max", test_rule1_pair_minmax},
    {"rule 1: a pair opens after an elided article", test_rule1_elision},
    {"rule 1: joined words, a colon after", test_rule1_word_edges},
    {"rule 1: words kept as they are", test_rule1_verbatim},
    {"rule 1: words cut where a tag cuts them", test_rule1_tag_cuts},
    {"rule 2: placeholders, isolated tags", test_rule2_placeholders_isolated},
    {"rule 3: start and end", test_rule3_start_end},
    {"rule 4: unaligned tokens", test_rule4_unaligned},
    {"rule 5: nested pairs clipped", test_rule5_nested},
    {"rule 6: crossing siblings", test_rule6_crossing},
    {"rule 7: zero-width pairs, same position", test_rule7_zero_width},
    {"rule 8: tags inside words", test_rule8_inside_word},
    {"rule 9: whitespace", test_rule9_whitespace},
    {"isolated codes keep their spacing", test_code_spacing},
    {"adjacent pairs stay side by side", test_adjacent_pairs},
    {"monotone alignment", test_monotone},
    {"reversed alignment", test_reversed},
    {"many-to-many alignment", test_many_to_many},
    {"empty alignment", test_empty_alignment},
    {"identical translation", test_identical},
    {"span scoring rule", test_score_rule},
    {"sub-word tokens", test_subword_tokens},
    {"refused input", test_refused},
    {"many tags", test_many_tags},
    {"property: random segments", test_property_random},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"projector/project", NULL, NULL, NULL, NULL, project_tests},
    CU_SUITE_INFO_NULL,
};

/* test_filter_html.c -- the HTML filter: lexer tokens and chunking, units
 * and codes, exact output of translated pages (spacing, escaping,
 * encodings, attributes, lang), malformed markup, identity and pseudo
 * translation of every Okapi HTML file, extract/merge files, the
 * translate pipeline, and a truncation/bit-flip sweep. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <libxml/HTMLparser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "html_private.h"

static int suite_init(void) { return xmt_test_tmpdir_create("html"); }
static int suite_clean(void) { return xmt_test_tmpdir_remove(); }

static void write_file(const char *path, const char *bytes, size_t len) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  CU_ASSERT_EQUAL(fwrite(bytes, 1, len, fp), len);
  fclose(fp);
}

/* The Okapi HTML files, NULL-terminated; static. */
static char **okapi_files(void) {
  static char *names[64];
  static char paths[64][2048];
  if (names[0] != NULL)
    return names;
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", xmt_test_data_path("okapi/html"));
  DIR *d = opendir(dir);
  struct dirent *e;
  size_t n = 0;
  while (d != NULL && (e = readdir(d)) != NULL && n < 63) {
    if (e->d_name[0] == '.')
      continue;
    if (strlen(dir) + strlen(e->d_name) + 2 > sizeof paths[n])
      continue;
    snprintf(paths[n], sizeof paths[n], "%.1023s/%.255s", dir, e->d_name);
    names[n] = paths[n];
    n++;
  }
  if (d != NULL)
    closedir(d);
  names[n] = NULL;
  return names;
}

/* --- Helpers ----------------------------------------------------------------
 */

static int sink_buf(void *user, const char *bytes, size_t len) {
  return xmt_buf_append(user, bytes, len) != XMT_OK;
}

static void parse(struct html_doc *doc, const char *html, size_t len,
                  unsigned flags) {
  struct xmt_error_store err = {0};
  xmt_status st = xmt_html_doc_parse(doc, html, len, flags, "t.html", &err);
  CU_ASSERT_EQUAL(st, XMT_OK);
  if (st != XMT_OK)
    fprintf(stderr, "\nparse: %s\n", err.pub.message);
  xmt_error_clear(&err);
}

/* "restype[ resname]: XLIFF source" per unit, one per line. */
static char *units(const char *html, unsigned flags) {
  struct html_doc doc;
  parse(&doc, html, strlen(html), flags);
  struct xmt_buf out = {0};
  xmt_buf_append(&out, "", 0);
  for (size_t i = 0; i < doc.nunits; i++) {
    const struct html_unit *u = &doc.units[i];
    xmt_buf_append_str(&out, u->restype);
    if (u->resname != NULL) {
      xmt_buf_append_byte(&out, ' ');
      xmt_buf_append_str(&out, u->resname);
    }
    xmt_buf_append_str(&out, ": ");
    xmt_inline_render_into(&out, u->source);
    xmt_buf_append_byte(&out, '\n');
  }
  xmt_html_doc_free(&doc);
  return out.data;
}

#define ASSERT_UNITS(html, flags, expected)                                    \
  do {                                                                         \
    char *got_ = units((html), (flags));                                       \
    XMT_ASSERT_BYTES_EQUAL(got_, strlen(got_), (expected), strlen(expected));  \
    free(got_);                                                                \
  } while (0)

/* Writes the page with targets given as XLIFF inline markup, one per unit
 * (NULL: no target; fewer entries than units: the rest have none). */
static char *merge(const char *html, size_t len, unsigned flags,
                   const char *const *targets, const char *lang,
                   size_t *out_len, xmt_status *status) {
  struct html_doc doc;
  parse(&doc, html, len, flags);
  const xmt_segment **t = calloc(doc.nunits + 1, sizeof *t);
  int ended = targets == NULL;
  for (size_t i = 0; i < doc.nunits; i++) {
    if (!ended && targets[i] == NULL)
      ended = 1;
    if (ended)
      continue;
    xmt_segment *seg = xmt_segment_new();
    unsigned long col;
    CU_ASSERT_EQUAL(
        xmt_xliff_inline_parse(seg, targets[i], strlen(targets[i]), &col),
        XMT_OK);
    t[i] = seg;
  }
  struct xmt_buf out = {0};
  struct xmt_error_store err = {0};
  xmt_status st = xmt_html_doc_write(&doc, t, lang, sink_buf, &out, &err);
  if (status != NULL)
    *status = st;
  else
    CU_ASSERT_EQUAL(st, XMT_OK);
  xmt_error_clear(&err);
  for (size_t i = 0; i < doc.nunits; i++)
    xmt_segment_free((xmt_segment *)t[i]);
  free(t);
  xmt_html_doc_free(&doc);
  xmt_buf_append(&out, "", 0);
  *out_len = out.len;
  return out.data;
}

#define ASSERT_MERGE(html, flags, targets, lang, expected)                     \
  do {                                                                         \
    size_t n_;                                                                 \
    char *got_ =                                                               \
        merge((html), strlen(html), (flags), (targets), (lang), &n_, NULL);    \
    XMT_ASSERT_BYTES_EQUAL(got_, n_, (expected), strlen(expected));            \
    free(got_);                                                                \
  } while (0)

/* Identity: no targets, and every target equal to its source. */
static void assert_identity(const char *html, size_t len, unsigned flags) {
  struct html_doc doc;
  parse(&doc, html, len, flags);
  struct xmt_buf out = {0};
  struct xmt_error_store err = {0};
  CU_ASSERT_EQUAL(xmt_html_doc_write(&doc, NULL, NULL, sink_buf, &out, &err),
                  XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(out.data != NULL ? out.data : "", out.len, html, len);
  const xmt_segment **t = calloc(doc.nunits + 1, sizeof *t);
  for (size_t i = 0; i < doc.nunits; i++)
    t[i] = doc.units[i].source;
  xmt_buf_reset(&out);
  CU_ASSERT_EQUAL(xmt_html_doc_write(&doc, t, NULL, sink_buf, &out, &err),
                  XMT_OK);
  XMT_ASSERT_BYTES_EQUAL(out.data != NULL ? out.data : "", out.len, html, len);
  free(t);
  xmt_buf_free(&out);
  xmt_error_clear(&err);
  xmt_html_doc_free(&doc);
}

/* --- Lexer ------------------------------------------------------------------
 */

static const char kinds[] = "TRSECDPXB";

static int token_line(void *user, const char *data,
                      const struct html_token *tok) {
  struct xmt_buf *out = user;
  xmt_buf_append_byte(out, kinds[tok->kind]);
  xmt_buf_append(out, data + tok->start, tok->end - tok->start);
  if (tok->kind == HTML_START && tok->self_closing)
    xmt_buf_append_str(out, "/");
  for (size_t i = 0; tok->kind == HTML_START && i < tok->nattrs; i++) {
    const struct html_attr *a = &tok->attrs[i];
    char q[2] = {a->quote ? a->quote : '_', 0};
    xmt_buf_append_str(out, " {");
    xmt_buf_append(out, data + a->name, a->name_end - a->name);
    xmt_buf_append_str(out, a->has_value ? "=" : "");
    xmt_buf_append_str(out, q);
    xmt_buf_append(out, data + a->value, a->value_end - a->value);
    xmt_buf_append_str(out, a->duplicate ? " dup}" : "}");
  }
  xmt_buf_append_byte(out, '|');
  return 0;
}

static char *tokens(const char *html, size_t len, size_t chunk) {
  struct html_push_lexer p;
  struct xmt_buf out = {0};
  xmt_html_push_init(&p);
  xmt_buf_append(&out, "", 0);
  for (size_t at = 0; at < len || at == 0; at += chunk) {
    size_t n = len - at < chunk ? len - at : chunk;
    int final = at + n >= len;
    CU_ASSERT_EQUAL(xmt_html_push(&p, html + at, n, final, token_line, &out),
                    XMT_OK);
    if (final)
      break;
  }
  xmt_html_push_free(&p);
  return out.data;
}

static void test_lexer_tokens(void) {
  static const char html[] =
      "<!DOCTYPE html><!-- c --><P Class=x id='y' hidden title=\"a b\" "
      "id=z>1 < 2 &amp; <3</p ><script>if (a<b) x('</p>');</script >"
      "<br/><a href=x/>t</><?pi?><![CDATA[z]]><!x><img src=\"a";
  char *got = tokens(html, sizeof html - 1, sizeof html);
  static const char want[] =
      "D<!DOCTYPE html>|C<!-- c -->|S<P Class=x id='y' hidden title=\"a b\" "
      "id=z> {Class=_x} {id='y} {hidden_} {title=\"a b} {id=_z dup}|"
      "T1 < 2 &amp; <3|E</p >|S<script>|Rif (a<b) x('</p>');|E</script >|"
      "S<br/>/|S<a href=x/> {href=_x/}|Tt|B</>|P<?pi?>|X<![CDATA[z]]>|B<!x>|"
      "B<img src=\"a|";
  XMT_ASSERT_BYTES_EQUAL(got, strlen(got), want, sizeof want - 1);
  free(got);
}

/* Lexed through a view holding only the bytes from the token on (base >
 * 0, as a page read in chunks after a drop), the tokens and attributes
 * keep the offsets of the whole page and page_at finds their bytes. */
static void test_lexer_view(void) {
  static const char html[] =
      "<p class=x id='y' hidden>1 &lt; 2</p ><script>a<b</script><br/>"
      "<a href=\"u\" href=v>t</a><!-- c --><img src=\"a";
  size_t len = sizeof html - 1, ntok = 0;
  struct html_lexer whole, part;
  struct html_token w, t;
  xmt_html_lexer_init(&whole);
  xmt_html_lexer_init(&part);
  while (xmt_html_lex(&whole, html_view_of(html, len), 1, &w) > 0) {
    size_t base = part.pos; /* every byte before the token dropped */
    char *held = malloc(len - base);
    CU_ASSERT_PTR_NOT_NULL_FATAL(held);
    memcpy(held, html + base, len - base);
    struct html_view v = {held, base, len};
    CU_ASSERT_EQUAL_FATAL(xmt_html_lex(&part, v, 1, &t), 1);
    CU_ASSERT_EQUAL(t.kind, w.kind);
    CU_ASSERT_EQUAL(t.start, w.start);
    CU_ASSERT_EQUAL(t.end, w.end);
    CU_ASSERT_EQUAL(t.name, w.name);
    CU_ASSERT_EQUAL(t.name_end, w.name_end);
    CU_ASSERT_EQUAL(part.pos, whole.pos);
    CU_ASSERT_EQUAL_FATAL(t.nattrs, w.nattrs);
    for (size_t i = 0; i < t.nattrs; i++) {
      CU_ASSERT_EQUAL(t.attrs[i].name, w.attrs[i].name);
      CU_ASSERT_EQUAL(t.attrs[i].value, w.attrs[i].value);
      CU_ASSERT_EQUAL(t.attrs[i].value_end, w.attrs[i].value_end);
      CU_ASSERT_EQUAL(t.attrs[i].duplicate, w.attrs[i].duplicate);
      CU_ASSERT(memcmp(page_at(v, t.attrs[i].name), html + w.attrs[i].name,
                       w.attrs[i].name_end - w.attrs[i].name) == 0);
    }
    CU_ASSERT(memcmp(page_at(v, t.start), html + w.start, t.end - t.start) ==
              0);
    if (t.kind == HTML_START || t.kind == HTML_END)
      CU_ASSERT(page_name_is(v, t.name, t.name_end,
                             html[w.name] == 'p'   ? "p"
                             : html[w.name] == 's' ? "script"
                             : html[w.name] == 'b' ? "br"
                                                   : "a"));
    free(held);
    ntok++;
  }
  CU_ASSERT_EQUAL(ntok, 12);
  CU_ASSERT_EQUAL(whole.pos, len);
  xmt_html_lexer_free(&whole);
  xmt_html_lexer_free(&part);
}

/* Every Okapi file gives the same tokens in 1- to 5-byte chunks as whole,
 * and the tokens cover it exactly. */
static void test_lexer_chunks(void) {
  char **files = okapi_files();
  CU_ASSERT(files[0] != NULL);
  for (char **f = files; *f != NULL; f++) {
    size_t len;
    char *html = xmt_test_read_file(*f, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    char *whole = tokens(html, len, len + 1);
    for (size_t chunk = 1; chunk <= 5; chunk++) {
      char *parts = tokens(html, len, chunk);
      XMT_ASSERT_BYTES_EQUAL(parts, strlen(parts), whole, strlen(whole));
      free(parts);
    }
    free(whole);
    free(html);
  }
}

/* --- Units ------------------------------------------------------------------
 */

static void test_units_inline_block(void) {
  ASSERT_UNITS(
      "<html><head><title>The  title</title></head><body>\n"
      "<div id=\"d\">Intro <b>bold</b> and <a href=\"x\">a link</a>\n"
      "<p>Para <em>one</em>, <code>f()</code> <sub>2</sub><sup>3</sup></p>\n"
      "<ul><li>Item <span class=\"k\">two</span><li>Three</ul>\n"
      "<table><tr><th>H<td>Cell <small>s</small> <mark>m</mark></table>\n"
      "<dl><dt>Term<dd>Def <abbr>ab</abbr> <cite>c</cite> <q>q</q> <kbd>k</kbd>"
      " <var>v</var> <time>t</time> <s>s</s> <u>u</u> <i>i</i> "
      "<strong>st</strong> <font>f</font></dl>\n"
      "<figure><figcaption>Cap</figcaption></figure><blockquote>Quote"
      "</blockquote><address>Addr</address><h3>Head</h3><caption>x</caption>"
      "<select><option>One<option>Two</select><button>Go</button>"
      "<label>Name</label><p>Press <button>OK</button> or <label>this"
      "</label>.</p><fieldset><legend>Leg</legend></fieldset></div>"
      "</body></html>",
      0,
      "x-html-title: The title\n"
      "x-html-div d: Intro <g id=\"1\" ctype=\"bold\">bold</g> and "
      "<g id=\"2\" ctype=\"link\">a link</g>\n"
      "x-html-p: Para <g id=\"1\" ctype=\"italic\">one</g>, <g id=\"2\" "
      "ctype=\"x-html-code\">f()</g> <g id=\"3\" ctype=\"x-html-sub\">2</g>"
      "<g id=\"4\" ctype=\"x-html-sup\">3</g>\n"
      "x-html-li: Item <g id=\"1\" ctype=\"x-html-span\">two</g>\n"
      "x-html-li: Three\n"
      "x-html-th: H\n"
      "x-html-td: Cell <g id=\"1\" ctype=\"x-html-small\">s</g> <g id=\"2\" "
      "ctype=\"x-html-mark\">m</g>\n"
      "x-html-dt: Term\n"
      "x-html-dd: Def <g id=\"1\" ctype=\"x-html-abbr\">ab</g> <g id=\"2\" "
      "ctype=\"x-html-cite\">c</g> <g id=\"3\" ctype=\"x-html-q\">q</g> "
      "<g id=\"4\" ctype=\"x-html-kbd\">k</g> <g id=\"5\" "
      "ctype=\"x-html-var\">v</g> <g id=\"6\" ctype=\"x-html-time\">t</g> "
      "<g id=\"7\" ctype=\"x-html-s\">s</g> <g id=\"8\" "
      "ctype=\"underlined\">u</g> <g id=\"9\" ctype=\"italic\">i</g> "
      "<g id=\"10\" ctype=\"bold\">st</g> <g id=\"11\" "
      "ctype=\"x-html-font\">f</g>\n"
      "x-html-figcaption: Cap\n"
      "x-html-blockquote: Quote\n"
      "x-html-address: Addr\n"
      "x-html-h3: Head\n"
      "x-html-caption: x\n"
      "x-html-option: One\n"
      "x-html-option: Two\n"
      "x-html-button: Go\n"
      "x-html-label: Name\n"
      "x-html-p: Press <g id=\"1\" ctype=\"x-html-button\">OK</g> or "
      "<g id=\"2\" ctype=\"x-html-label\">this</g>.\n"
      "x-html-legend: Leg\n");
}

static void test_void_placeholders(void) {
  static const char html[] = "<p>Line<br>two <img src=\"a.png\"> end<wbr>x "
                             "<input type=\"text\" name=\"q\"> y<br/></p>";
  ASSERT_UNITS(html, 0,
               "x-html-p: Line<x id=\"1\" ctype=\"lb\"/>two <x id=\"2\" "
               "ctype=\"image\"/> end<x id=\"3\" ctype=\"x-html-wbr\"/>x "
               "<x id=\"4\" ctype=\"x-html-input\"/> y<x id=\"5\" "
               "ctype=\"lb\"/>\n");
  static const char *const t[] = {"<x id=\"2\"/> Fin<x id=\"5\"/>dos "
                                  "<x id=\"4\"/><x id=\"3\"/>Y<x id=\"1\"/>",
                                  NULL};
  ASSERT_MERGE(html, 0, t, NULL,
               "<p><img src=\"a.png\"> Fin<br/>dos <input type=\"text\" "
               "name=\"q\"><wbr>Y<br></p>");
  assert_identity(html, sizeof html - 1, 0);
}

static void test_not_translated(void) {
  static const char html[] =
      "<p>Run <script>var s = '<b>x</b>';</script> on <span "
      "translate=\"no\">Acme <b>Corp</b></span> and <em "
      "class=\"a notranslate\">Foo</em>.</p>\n"
      "<style>p { color: red }</style><template><p>Tpl</p></template>\n"
      "<div translate=no><p>Keep <b>me</b></p><img alt=\"no\"></div>\n"
      "<pre>Code  block</pre><p>Use <code>x = 1</code> here.</p>\n"
      "<textarea>Type here</textarea><svg><text>Svg</text></svg>";
  ASSERT_UNITS(html, 0,
               "x-html-p: Run <x id=\"1\" ctype=\"x-html-script\"/> on <x "
               "id=\"2\" ctype=\"x-html-span\"/> and <x id=\"3\" "
               "ctype=\"x-html-em\"/>.\n"
               "x-html-pre: Code  block\n"
               "x-html-p: Use <g id=\"1\" ctype=\"x-html-code\">x = 1</g> "
               "here.\n"
               "x-html-textarea: Type here\n");
  ASSERT_UNITS(html, XMT_FILTER_HTML_SKIP_PRE | XMT_FILTER_HTML_SKIP_CODE,
               "x-html-p: Run <x id=\"1\" ctype=\"x-html-script\"/> on <x "
               "id=\"2\" ctype=\"x-html-span\"/> and <x id=\"3\" "
               "ctype=\"x-html-em\"/>.\n"
               "x-html-p: Use <x id=\"1\" ctype=\"x-html-code\"/> here.\n"
               "x-html-textarea: Type here\n");
  static const char *const t[] = {"<x id=\"3\"/> y <x id=\"2\"/> RUN <x "
                                  "id=\"1\"/>!",
                                  "CODE", "Usa <x id=\"1\"/> aqui.", "TYPE",
                                  NULL};
  ASSERT_MERGE(html, XMT_FILTER_HTML_SKIP_CODE, t, NULL,
               "<p><em class=\"a notranslate\">Foo</em> y <span "
               "translate=\"no\">Acme <b>Corp</b></span> RUN <script>var s = "
               "'<b>x</b>';</script>!</p>\n"
               "<style>p { color: red }</style><template><p>Tpl</p></template>"
               "\n<div translate=no><p>Keep <b>me</b></p><img alt=\"no\">"
               "</div>\n<pre>CODE</pre><p>Usa <code>x = 1</code> aqui.</p>\n"
               "<textarea>TYPE</textarea><svg><text>Svg</text></svg>");
  assert_identity(html, sizeof html - 1, 0);
  assert_identity(html, sizeof html - 1,
                  XMT_FILTER_HTML_SKIP_PRE | XMT_FILTER_HTML_SKIP_CODE);
}

static void test_attributes(void) {
  static const char html[] =
      "<html><head><meta name=\"description\" content=\"A page\">"
      "<meta name=keywords content='one, two'><meta name=\"author\" "
      "content=\"Me\"></head><body>"
      "<img src=\"a.png\" alt=\"An image\" title=\"Tip\">"
      "<input type=\"text\" placeholder=\"Your name\" value=\"v\">"
      "<input type=\"hidden\" value=\"secret\">"
      "<input type=\"SUBMIT\" value=\"Send\"><input type=reset value=Clear>"
      "<button aria-label=\"Close\">X</button>"
      "<table summary=\"Sums\"><tr><td><option label=\"Lab\">o</option>"
      "</table><a href=\"u\" title=\"\">empty</a></body></html>";
  ASSERT_UNITS(html, 0,
               "x-html-meta-description: A page\n"
               "x-html-meta-keywords: one, two\n"
               "x-html-alt: An image\n"
               "x-html-title-attr: Tip\n"
               "x-html-placeholder: Your name\n"
               "x-html-value: Send\n"
               "x-html-value: Clear\n"
               "x-html-aria-label: Close\n"
               "x-html-button: X\n"
               "x-html-summary-attr: Sums\n"
               "x-html-label-attr: Lab\n"
               "x-html-option: o\n"
               "x-html-body: <g id=\"1\" ctype=\"link\">empty</g>\n");
  static const char *const t[] = {"Una p\xC3\xA1gina",
                                  "uno, dos",
                                  "Una \"imagen\"",
                                  "Consejo",
                                  "Nombre",
                                  "Enviar",
                                  "Borrar todo",
                                  "Cerrar",
                                  "X",
                                  "Sumas",
                                  "Eti",
                                  "O",
                                  "<g id=\"1\">vac\xC3\xADo</g>",
                                  NULL};
  ASSERT_MERGE(html, 0, t, NULL,
               "<html><head><meta name=\"description\" content=\"Una "
               "p\xC3\xA1gina\"><meta name=keywords content='uno, dos'><meta "
               "name=\"author\" content=\"Me\"></head><body>"
               "<img src=\"a.png\" alt=\"Una &quot;imagen&quot;\" "
               "title=\"Consejo\"><input type=\"text\" placeholder=\"Nombre\" "
               "value=\"v\"><input type=\"hidden\" value=\"secret\">"
               "<input type=\"SUBMIT\" value=\"Enviar\"><input type=reset "
               "value=\"Borrar todo\"><button aria-label=\"Cerrar\">X</button>"
               "<table summary=\"Sumas\"><tr><td><option label=\"Eti\">O"
               "</option></table><a href=\"u\" title=\"\">vac\xC3\xADo</a>"
               "</body></html>");
}

static void test_lang(void) {
  static const char html[] =
      "<!DOCTYPE html>\n<html lang=\"en\" xml:lang='en'><head><meta "
      "http-equiv=\"Content-Language\" content=\"en\"></head><body lang=\"en\">"
      "<p>Hi</p></body></html>";
  static const char *const t[] = {"Hola", NULL};
  ASSERT_MERGE(html, 0, t, "es",
               "<!DOCTYPE html>\n<html lang=\"es\" xml:lang='es'><head><meta "
               "http-equiv=\"Content-Language\" content=\"es\"></head><body "
               "lang=\"en\"><p>Hola</p></body></html>");
  struct html_doc doc;
  parse(&doc, html, sizeof html - 1, 0);
  CU_ASSERT_STRING_EQUAL(doc.lang, "en");
  xmt_html_doc_free(&doc);
  ASSERT_MERGE("<html lang=en><p>Hi", 0, t, "pt-BR",
               "<html lang=pt-BR><p>Hola");
}

static void test_charsets(void) {
  /* windows-1252: 0x80 is the euro sign; U+0151 has no byte. */
  static const char cp1252[] =
      "<meta charset=\"windows-1252\"><p>Caf\xE9 \x80 \x93q\x94</p>";
  ASSERT_UNITS(cp1252, 0,
               "x-html-p: Caf\xC3\xA9 \xE2\x82\xAC "
               "\xE2\x80\x9Cq\xE2\x80\x9D\n");
  static const char *const t1[] = {"\xE2\x82\xAC \xC3\xA9 \xC5\x91 &lt;&amp;>",
                                   NULL};
  ASSERT_MERGE(cp1252, 0, t1, NULL,
               "<meta charset=\"windows-1252\"><p>\x80 \xE9 &#x151; &lt;&amp;>"
               "</p>");
  assert_identity(cp1252, sizeof cp1252 - 1, 0);
  /* ISO-8859-1 keeps its encoding: the euro sign has no byte there. */
  static const char latin1[] =
      "<meta http-equiv=\"Content-Type\" content=\"text/html; "
      "charset=ISO-8859-1\"><p>Gr\xFC\xDF</p>";
  static const char *const t2[] = {"\xC3\xBC \xE2\x82\xAC", NULL};
  ASSERT_MERGE(latin1, 0, t2, NULL,
               "<meta http-equiv=\"Content-Type\" content=\"text/html; "
               "charset=ISO-8859-1\"><p>\xFC &#x20AC;</p>");
  assert_identity(latin1, sizeof latin1 - 1, 0);
  /* UTF-8 with a BOM, and no declaration at all. */
  static const char bom[] = "\xEF\xBB\xBF<p>\xC3\xA9t\xC3\xA9</p>";
  ASSERT_UNITS(bom, 0, "x-html-p: \xC3\xA9t\xC3\xA9\n");
  static const char *const t3[] = {"summer \xE2\x82\xAC", NULL};
  ASSERT_MERGE(bom, 0, t3, NULL, "\xEF\xBB\xBF<p>summer \xE2\x82\xAC</p>");
  /* Undeclared and not UTF-8: windows-1252, as browsers guess. */
  ASSERT_UNITS("<p>na\xEFve</p>", 0, "x-html-p: na\xC3\xAFve\n");
  /* US-ASCII: everything else becomes a reference. */
  static const char *const t4[] = {"\xC3\xA9", NULL};
  ASSERT_MERGE("<meta charset=us-ascii><p>e</p>", 0, t4, NULL,
               "<meta charset=us-ascii><p>&#xE9;</p>");
  /* UTF-16LE with a BOM: read, rewritten, written back in UTF-16LE. */
  static const char u16[] = "\xFF\xFE<\0p\0>\0\xE9\0<\0/\0p\0>\0";
  assert_identity(u16, sizeof u16 - 1, 0);
  static const char *const t5[] = {"\xE2\x82\xAC", NULL};
  size_t n;
  char *got = merge(u16, sizeof u16 - 1, 0, t5, NULL, &n, NULL);
  static const char want[] = "\xFF\xFE<\0p\0>\0\xAC\x20<\0/\0p\0>\0";
  XMT_ASSERT_BYTES_EQUAL(got, n, want, sizeof want - 1);
  free(got);
  /* An encoding xliffmt cannot write back is refused with its position. */
  struct html_doc doc;
  struct xmt_error_store err = {0};
  static const char sjis[] = "<html>\n<meta charset=\"Shift_JIS\">";
  CU_ASSERT_EQUAL(
      xmt_html_doc_parse(&doc, sjis, sizeof sjis - 1, 0, "x.html", &err),
      XMT_ERR_ENCODING);
  CU_ASSERT_EQUAL(err.pub.line, 2);
  CU_ASSERT_EQUAL(err.pub.column, 16);
  CU_ASSERT_PTR_NOT_NULL(strstr(err.pub.message, "Shift_JIS"));
  xmt_error_clear(&err);
}

static void test_entities(void) {
  static const char html[] =
      "<p title=\"&quot;T&quot; &amp; &copy=1\">A &amp; B &lt; C &gt; D "
      "&quot;q&quot; &copy; &#169; &#x20AC; &#128; x&nbsp;y &bogus; &amp "
      "&#0; &#xD800;</p>";
  ASSERT_UNITS(html, 0,
               "x-html-title-attr: \"T\" &amp; &amp;copy=1\n"
               "x-html-p: A &amp; B &lt; C > D \"q\" \xC2\xA9 \xC2\xA9 "
               "\xE2\x82\xAC \xE2\x82\xAC x\xC2\xA0y &amp;bogus; &amp; "
               "\xEF\xBF\xBD \xEF\xBF\xBD\n");
  static const char *const t[] = {"'T' \"&amp;\" &lt;x>",
                                  "1 &lt; 2 &amp; \"3\" > 'x'", NULL};
  ASSERT_MERGE(html, 0, t, NULL,
               "<p title=\"'T' &quot;&amp;&quot; &lt;x>\">1 &lt; 2 &amp; \"3\" "
               "> 'x'</p>");
  static const char *const t2[] = {"it's \"x\"", NULL};
  ASSERT_MERGE("<img alt='a'>", 0, t2, NULL, "<img alt='it&#39;s \"x\"'>");
  assert_identity(html, sizeof html - 1, 0);
}

/* Names at their room's edge (23 bytes kept, 24 none), ctypes of every
 * kind, ids of two digits, isolated and crossed tags, and the common and
 * rarer entities, with and without ';', in text and in an attribute, read
 * as browsers read them ("&ampx;" is "&x;", "&copy c" in an attribute
 * "(c) c"). */
static void test_names_ids_entities(void) {
  static const char html[] =
      "<p>A<abcdefghijklmnopqrstuvw>1</abcdefghijklmnopqrstuvw> "
      "B<abcdefghijklmnopqrstuvwx title=\"t\">2</abcdefghijklmnopqrstuvwx> "
      "C<x-y.z_1:q>3</x-y.z_1:q> D<Q$>4</Q$> <b>1</b><i>2</i><u>3</u>"
      "<em>4</em><strong>5</strong><a>6</a><span>7</span><s>8</s><q>9</q>"
      "<small>10</small><img src=x><br></p>\n"
      "<p>x</i> <b>y <i>z</b> w</i> v <sup>u</p>\n"
      "<p>&nbsp;&amp;&lt;&gt;&quot;&apos;&mdash;&ndash;&ldquo;&rdquo;&lsquo;"
      "&rsquo;&hellip;&copy;&reg;&hearts;&AMP;&Amp;&mdashx;&nbsp &copy "
      "&ampx;</p>\n"
      "<img alt=\"&nbsp;a&mdash;b&hearts;&copy c\">";
  ASSERT_UNITS(
      html, 0,
      "x-html-title-attr: t\n"
      "x-html-p: A<g id=\"1\" ctype=\"x-html-abcdefghijklmnopqrstuvw\">1</g> "
      "B<g id=\"2\" ctype=\"x-html-element\">2</g> "
      "C<g id=\"3\" ctype=\"x-html-x-y.z_1:q\">3</g> "
      "D<g id=\"4\" ctype=\"x-html-element\">4</g> "
      "<g id=\"5\" ctype=\"bold\">1</g><g id=\"6\" ctype=\"italic\">2</g>"
      "<g id=\"7\" ctype=\"underlined\">3</g><g id=\"8\" ctype=\"italic\">4</g>"
      "<g id=\"9\" ctype=\"bold\">5</g><g id=\"10\" ctype=\"link\">6</g>"
      "<g id=\"11\" ctype=\"x-html-span\">7</g>"
      "<g id=\"12\" ctype=\"x-html-s\">8</g><g id=\"13\" "
      "ctype=\"x-html-q\">9</g>"
      "<g id=\"14\" ctype=\"x-html-small\">10</g><x id=\"15\" ctype=\"image\"/>"
      "<x id=\"16\" ctype=\"lb\"/>\n"
      "x-html-p: x<it id=\"1\" pos=\"close\" ctype=\"italic\">&lt;/i></it> "
      "<g id=\"2\" ctype=\"bold\">y <bx id=\"3\" ctype=\"italic\"/>z</g> "
      "w<ex id=\"3\"/> v <it id=\"4\" pos=\"open\" ctype=\"x-html-sup\">"
      "&lt;sup></it>u\n"
      "x-html-p: \xC2\xA0&amp;&lt;>\"'\xE2\x80\x94\xE2\x80\x93\xE2\x80\x9C"
      "\xE2\x80\x9D\xE2\x80\x98\xE2\x80\x99\xE2\x80\xA6\xC2\xA9\xC2\xAE"
      "\xE2\x99\xA5&amp;&amp;Amp;&amp;mdashx;\xC2\xA0 \xC2\xA9 &amp;x;\n"
      "x-html-alt: \xC2\xA0"
      "a\xE2\x80\x94"
      "b\xE2\x99\xA5\xC2\xA9 c\n");
  assert_identity(html, sizeof html - 1, 0);
}

static void test_pre_whitespace(void) {
  static const char html[] = "<pre>  Line 1\n\tLine  2 <b>b</b>\n</pre>"
                             "<div style=\"white-space: pre-wrap\">a   b"
                             "</div><p>\n  a   b\n  </p>";
  ASSERT_UNITS(html, 0,
               "x-html-pre: Line 1\n\tLine  2 <g id=\"1\" "
               "ctype=\"bold\">b</g>\n"
               "x-html-div: a   b\n"
               "x-html-p: a b\n");
  static const char *const t[] = {"L\xC3\xADnea  1\n\n<g id=\"1\">B</g>  2",
                                  "x  y", "a  b", NULL};
  ASSERT_MERGE(html, 0, t, NULL,
               "<pre>  L\xC3\xADnea  1\n\n<b>B</b>  2\n</pre>"
               "<div style=\"white-space: pre-wrap\">x  y</div>"
               "<p>\n  a  b\n  </p>");
  assert_identity(html, sizeof html - 1, 0);
}

static void test_spacing_around_tags(void) {
  static const char html[] =
      "<p>Some\n   <b>bold</b>\n   text <i>and</i>\tmore</p>";
  ASSERT_UNITS(html, 0,
               "x-html-p: Some <g id=\"1\" ctype=\"bold\">bold</g> text "
               "<g id=\"2\" ctype=\"italic\">and</g> more\n");
  static const char *const t[] = {"Algo <g id=\"1\">negrita</g> texto <g "
                                  "id=\"2\">y</g> m\xC3\xA1s",
                                  NULL};
  ASSERT_MERGE(html, 0, t, NULL,
               "<p>Algo\n   <b>negrita</b>\n   texto <i>y</i>\tm\xC3\xA1s</p>");
  static const char *const t2[] = {"<g id=\"2\">Y</g> <g id=\"1\">N</g> T",
                                   NULL};
  ASSERT_MERGE(html, 0, t2, NULL, "<p><i>Y</i>\n   <b>N</b>\n   T</p>");
}

static void test_malformed(void) {
  /* Unclosed, misnested and stray tags, bad attributes, '<' in text. */
  static const char html[] =
      "<p>Open <b>bold never closed\n"
      "<p>Mis <b>b <i>bi</b> i</i> end\n"
      "<p>Stray </span>end tag</p>\n"
      "<p>1 < 2 and 3 <> 4 <3</p>\n"
      "<p class=a class=b title=x title=\"y\" alt=>Dup</p>\n"
      "<p data-x=\"unterminated>Bad attributes</p>\n";
  ASSERT_UNITS(html, 0,
               "x-html-p: Open <it id=\"1\" pos=\"open\" "
               "ctype=\"bold\">&lt;b></it>bold never closed\n"
               "x-html-p: Mis <g id=\"1\" ctype=\"bold\">b <bx id=\"2\" "
               "ctype=\"italic\"/>bi</g> i<ex id=\"2\"/> end\n"
               "x-html-p: Stray <it id=\"1\" pos=\"close\" "
               "ctype=\"x-html-span\">&lt;/span></it>end tag\n"
               "x-html-p: 1 &lt; 2 and 3 &lt;> 4 &lt;3\n"
               "x-html-title-attr: x\n"
               "x-html-p: Dup\n");
  assert_identity(html, sizeof html - 1, 0);
  static const char *const t[] = {
      "<it id=\"1\" pos=\"open\">&lt;b></it>ABIERTO",
      "<g id=\"1\">B <bx id=\"2\"/>BI</g> I<ex id=\"2\"/> FIN",
      "FIN<it id=\"1\" pos=\"close\">&lt;/span></it>",
      "1 &lt; 2",
      "T",
      "D",
      NULL};
  ASSERT_MERGE(html, 0, t, NULL,
               "<p><b>ABIERTO\n"
               "<p><b>B <i>BI</b> I</i> FIN\n"
               "<p>FIN</span></p>\n"
               "<p>1 &lt; 2</p>\n"
               "<p class=a class=b title=T title=\"y\" alt=>D</p>\n"
               "<p data-x=\"unterminated>Bad attributes</p>\n");
  /* A tag cut by the end of the input is left alone. */
  static const char cut[] = "<p>Text <a href=\"x";
  ASSERT_UNITS(cut, 0,
               "x-html-p: Text <x id=\"1\" ctype=\"x-html-markup\"/>\n");
  assert_identity(cut, sizeof cut - 1, 0);
  /* A code the source does not have is refused. */
  static const char *const bad[] = {"A <x id=\"9\"/>", NULL};
  size_t n;
  xmt_status st;
  char *got = merge("<p>A <br></p>", 13, 0, bad, NULL, &n, &st);
  CU_ASSERT_EQUAL(st, XMT_ERR_INLINE);
  free(got);
}

/* --- Whole files ------------------------------------------------------------
 */

/* Start and end tags by name, as "name:count name:count ...". */
static char *tag_counts(const char *html, size_t len) {
  struct html_lexer lx;
  struct html_token tok;
  xmt_html_lexer_init(&lx);
  char names[256][24];
  int counts[256];
  size_t n = 0;
  while (xmt_html_lex(&lx, html_view_of(html, len), 1, &tok) > 0) {
    if (tok.kind != HTML_START && tok.kind != HTML_END)
      continue;
    char name[24];
    name[0] = tok.kind == HTML_END ? '/' : '<';
    if (!xmt_html_name_lower(html + tok.name, tok.name_end - tok.name, name + 1,
                             sizeof name - 1))
      continue;
    size_t i = 0;
    while (i < n && strcmp(names[i], name) != 0)
      i++;
    if (i == n && n < 256) {
      snprintf(names[n], sizeof names[n], "%s", name);
      counts[n++] = 0;
    }
    if (i < n)
      counts[i]++;
  }
  xmt_html_lexer_free(&lx);
  /* Order-independent: sort by name. */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
      char t[24];
      int c = counts[j];
      memcpy(t, names[j], sizeof t);
      memcpy(names[j], names[j - 1], sizeof t);
      memcpy(names[j - 1], t, sizeof t);
      counts[j] = counts[j - 1];
      counts[j - 1] = c;
    }
  struct xmt_buf out = {0};
  xmt_buf_append(&out, "", 0);
  for (size_t i = 0; i < n; i++) {
    char item[48];
    snprintf(item, sizeof item, "%s:%d ", names[i], counts[i]);
    xmt_buf_append_str(&out, item);
  }
  return out.data;
}

static void count_errors(void *user, xmlErrorPtr error) {
  (void)error;
  ++*(int *)user;
}

/* libxml2's HTML parser (browser-like recovery) on a page: its error
 * count, and its element counts by name in *elements. */
static int libxml_check(const char *html, size_t len, char **elements) {
  int errors = 0;
  xmlSetStructuredErrorFunc(&errors, count_errors);
  htmlDocPtr d = htmlReadMemory(html, (int)len, "t.html", NULL,
                                HTML_PARSE_NONET | HTML_PARSE_NOBLANKS);
  xmlSetStructuredErrorFunc(NULL, NULL);
  struct xmt_buf out = {0};
  xmt_buf_append(&out, "", 0);
  xmlNodePtr stack[512];
  size_t depth = 0;
  if (d != NULL && xmlDocGetRootElement(d) != NULL)
    stack[depth++] = xmlDocGetRootElement(d);
  while (depth > 0) {
    xmlNodePtr node = stack[--depth];
    for (; node != NULL; node = node->next) {
      if (node->type != XML_ELEMENT_NODE)
        continue;
      xmt_buf_append_str(&out, (const char *)node->name);
      xmt_buf_append_byte(&out, ' ');
      if (node->children != NULL && depth < 512)
        stack[depth++] = node->children;
    }
  }
  xmlFreeDoc(d);
  *elements = out.data;
  return errors;
}

/* Sorts the words of s in place. */
static int word_cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}
static char *sorted_words(char *s) {
  char *words[4096];
  size_t n = 0;
  for (char *w = strtok(s, " "); w != NULL && n < 4096; w = strtok(NULL, " "))
    words[n++] = w;
  qsort(words, n, sizeof *words, word_cmp);
  struct xmt_buf out = {0};
  xmt_buf_append(&out, "", 0);
  for (size_t i = 0; i < n; i++) {
    xmt_buf_append_str(&out, words[i]);
    xmt_buf_append_byte(&out, ' ');
  }
  free(s);
  return out.data;
}

/* Pseudo target: ASCII letters upper-cased, codes kept in place. */
static xmt_segment *upper(const xmt_segment *src) {
  size_t len;
  const char *text = xmt_segment_text(src, &len);
  char *t = malloc(len + 1);
  for (size_t i = 0; i < len; i++)
    t[i] = (char)(text[i] >= 'a' && text[i] <= 'z' ? text[i] - 32 : text[i]);
  size_t n = xmt_segment_tag_count(src);
  size_t *offsets = calloc(n + 1, sizeof *offsets);
  for (size_t i = 0; i < n; i++) {
    struct xmt_tag tag;
    xmt_segment_tag(src, i, &tag);
    offsets[i] = tag.offset;
  }
  xmt_segment *out = xmt_segment_new();
  CU_ASSERT_EQUAL(xmt_segment_retag(out, src, t, len, offsets), XMT_OK);
  free(t);
  free(offsets);
  return out;
}

/* Every Okapi HTML file: identity is exact; an upper-case pseudo
 * translation keeps every tag and parses as well as the input does. */
static void test_okapi_files(void) {
  int files = 0;
  for (char **f = okapi_files(); *f != NULL; f++) {
    size_t len;
    char *html = xmt_test_read_file(*f, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    files++;
    assert_identity(html, len, 0);
    assert_identity(html, len,
                    XMT_FILTER_HTML_SKIP_PRE | XMT_FILTER_HTML_SKIP_CODE);
    struct html_doc doc;
    parse(&doc, html, len, 0);
    CU_ASSERT(doc.nunits > 0);
    const xmt_segment **t = calloc(doc.nunits + 1, sizeof *t);
    for (size_t i = 0; i < doc.nunits; i++)
      t[i] = upper(doc.units[i].source);
    struct xmt_buf out = {0};
    struct xmt_error_store err = {0};
    CU_ASSERT_EQUAL(xmt_html_doc_write(&doc, t, "xx", sink_buf, &out, &err),
                    XMT_OK);
    char *a = tag_counts(html, len), *b = tag_counts(out.data, out.len);
    XMT_ASSERT_BYTES_EQUAL(b, strlen(b), a, strlen(a));
    char *ea, *eb;
    int in_errors = libxml_check(html, len, &ea);
    int out_errors = libxml_check(out.data, out.len, &eb);
    CU_ASSERT(out_errors <= in_errors);
    ea = sorted_words(ea);
    eb = sorted_words(eb);
    XMT_ASSERT_BYTES_EQUAL(eb, strlen(eb), ea, strlen(ea));
    CU_ASSERT(out.len != len || memcmp(out.data, html, len) != 0);
    free(ea);
    free(eb);
    free(a);
    free(b);
    for (size_t i = 0; i < doc.nunits; i++)
      xmt_segment_free((xmt_segment *)t[i]);
    free(t);
    xmt_buf_free(&out);
    xmt_error_clear(&err);
    xmt_html_doc_free(&doc);
    free(html);
  }
  CU_ASSERT(files >= 11);
}

/* Truncated at every 7th byte and with random bytes changed, every page
 * still parses, writes back exactly, and gives XLIFF that reads back. */
static int count_unit(void *user, xmt_xliff_unit *u) {
  ++*(size_t *)user;
  xmt_xliff_unit_free(u);
  return 0;
}
static int skip_bytes(void *user, const char *b, size_t n) {
  (void)user, (void)b, (void)n;
  return 0;
}

static void sweep_one(const char *html, size_t len) {
  struct html_doc doc;
  struct xmt_error_store err = {0};
  xmt_status st = xmt_html_doc_parse(&doc, html, len, 0, "f.html", &err);
  xmt_error_clear(&err);
  if (st == XMT_ERR_ENCODING) /* a flipped byte in a charset label */
    return;
  if (st == XMT_ERR_FORMAT && memchr(html, '\0', len) != NULL)
    return; /* a byte flipped to NUL: no page */
  CU_ASSERT_EQUAL_FATAL(st, XMT_OK);
  struct xmt_buf out = {0};
  CU_ASSERT_EQUAL(xmt_html_doc_write(&doc, NULL, NULL, sink_buf, &out, &err),
                  XMT_OK);
  CU_ASSERT(out.len == len && (len == 0 || memcmp(out.data, html, len) == 0));
  xmt_buf_reset(&out);
  CU_ASSERT_EQUAL(
      xmt_html_doc_write_xliff(&doc, "f.html", "en", NULL, sink_buf, &out),
      XMT_OK);
  static const struct xmt_xliff_reader_callbacks cb = {skip_bytes, NULL,
                                                       count_unit};
  size_t n = 0;
  xmt_xliff_reader *r = xmt_xliff_reader_new(&cb, &n);
  CU_ASSERT_EQUAL(xmt_xliff_reader_parse(r, out.data, out.len, 1), XMT_OK);
  CU_ASSERT_EQUAL(n, doc.nunits);
  xmt_xliff_reader_free(r);
  xmt_buf_free(&out);
  xmt_error_clear(&err);
  xmt_html_doc_free(&doc);
}

static void test_sweep(void) {
  unsigned long seed = 12345;
  for (char **f = okapi_files(); *f != NULL; f++) {
    size_t len;
    char *html = xmt_test_read_file(*f, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    for (size_t cut = 0; cut <= len; cut += 7)
      sweep_one(html, cut);
    char *copy = malloc(len + 1);
    for (int round = 0; round < 200; round++) {
      memcpy(copy, html, len);
      for (int k = 0; k < 4 && len > 0; k++) {
        seed = seed * 6364136223846793005UL + 1442695040888963407UL;
        size_t at = (size_t)(seed >> 33) % len;
        static const char pool[] = "<>/\"'=&;! \n\x80\xC3\xFF-?[";
        copy[at] = (seed >> 20) & 1 ? pool[(seed >> 8) % (sizeof pool - 1)]
                                    : (char)(seed >> 13);
      }
      sweep_one(copy, len);
    }
    free(copy);
    free(html);
  }
}

/* Deep nesting, thousands of stray end tags and of codes in one unit stay
 * fast (searches are bounded) and exact. */
static void test_deep_nesting(void) {
  struct xmt_buf html = {0};
  xmt_buf_append_str(&html, "<p>");
  for (int i = 0; i < 50000; i++)
    xmt_buf_append_str(&html, "<span>w ");
  for (int i = 0; i < 50000; i++)
    xmt_buf_append_str(&html, "</div></b>");
  xmt_buf_append_str(&html, "<p>x");
  for (int i = 0; i < 20000; i++)
    xmt_buf_append_str(&html, "<br>y");
  assert_identity(html.data, html.len, 0);
  struct html_doc doc;
  parse(&doc, html.data, html.len, 0);
  CU_ASSERT_EQUAL(doc.nunits, 2);
  CU_ASSERT_EQUAL(doc.nunits == 2 ? doc.units[1].ncodes : 0, 20000);
  /* The second unit with its codes in reverse order. */
  const xmt_segment **t = calloc(doc.nunits + 1, sizeof *t);
  xmt_segment *rev = xmt_segment_new();
  for (int i = 20000; i > 0; i--) {
    char id[16];
    snprintf(id, sizeof id, "%d", i);
    xmt_segment_append_text(rev, "z", 1);
    xmt_segment_append_tag(rev, XMT_TAG_PLACEHOLDER, id, "x", "<x/>", 4);
  }
  xmt_segment_append_text(rev, "z", 1);
  t[1] = rev;
  struct xmt_buf out = {0};
  struct xmt_error_store err = {0};
  CU_ASSERT_EQUAL(xmt_html_doc_write(&doc, t, NULL, sink_buf, &out, &err),
                  XMT_OK);
  CU_ASSERT_EQUAL(out.len, html.len);
  xmt_segment_free(rev);
  free(t);
  xmt_buf_free(&out);
  xmt_buf_free(&html);
  xmt_html_doc_free(&doc);
}

/* --- Files and the pipeline -------------------------------------------------
 */

static int count_problem(void *user, const struct xmt_problem *p) {
  CU_ASSERT_EQUAL(p->severity, XMT_WARNING);
  CU_ASSERT_PTR_NOT_NULL(p->unit_id);
  ++*(int *)user;
  return 0;
}

static void test_extract_merge_files(void) {
  static const char page[] =
      "<html lang=\"en\"><title>T</title><p>Hello <b>world</b>.</p>"
      "<img alt=\"Pic\"></html>";
  write_file(xmt_test_tmp_path("p.html"), page, sizeof page - 1);
  xmt_filter *f = xmt_filter_new();
  struct xmt_html_stats stats;
  CU_ASSERT_EQUAL(xmt_html_extract_file(f, xmt_test_tmp_path("p.html"),
                                        xmt_test_tmp_path("p.xlf"), &stats),
                  XMT_OK);
  CU_ASSERT_EQUAL(stats.units, 3);
  CU_ASSERT_EQUAL(stats.attribute_units, 1);
  CU_ASSERT_EQUAL(stats.codes, 2);
  size_t len;
  char *xlf = xmt_test_read_file(xmt_test_tmp_path("p.xlf"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(xlf);
  CU_ASSERT_PTR_NOT_NULL(strstr(xlf, "source-language=\"en\" "
                                     "datatype=\"html\""));
  CU_ASSERT_PTR_NOT_NULL(strstr(
      xlf, "<trans-unit id=\"2\" restype=\"x-html-p\">\n<source>Hello <g "
           "id=\"1\" ctype=\"bold\">world</g>.</source>\n</trans-unit>"));
  /* Translate two units by hand; the third has no target. */
  struct xmt_buf t = {0};
  const char *at = strstr(xlf, "<source>T</source>");
  CU_ASSERT_PTR_NOT_NULL_FATAL(at);
  xmt_buf_append(&t, xlf, (size_t)(at - xlf));
  xmt_buf_append_str(&t, "<source>T</source><target>Título</target>");
  const char *rest = at + strlen("<source>T</source>");
  at = strstr(rest, ".</source>");
  xmt_buf_append(&t, rest, (size_t)(at - rest) + 10);
  xmt_buf_append_str(&t, "<target><g id=\"1\">Mundo</g>, hola.</target>");
  xmt_buf_append_str(&t, at + 10);
  write_file(xmt_test_tmp_path("t.xlf"), t.data, t.len);
  /* No target language, in the XLIFF or set: refused, no output (the
   * page would keep lang="en" over its translation). */
  CU_ASSERT_EQUAL(xmt_html_merge_file(f, xmt_test_tmp_path("p.html"),
                                      xmt_test_tmp_path("t.xlf"),
                                      xmt_test_tmp_path("out.html"), NULL, NULL,
                                      NULL),
                  XMT_ERR_USAGE);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_filter_error(f)->file, "t.xlf"));
  CU_ASSERT_EQUAL(access(xmt_test_tmp_path("out.html"), F_OK), -1);
  /* With a target language, lang follows. */
  xmt_filter_set_languages(f, NULL, "es");
  int problems = 0;
  CU_ASSERT_EQUAL(xmt_html_merge_file(f, xmt_test_tmp_path("p.html"),
                                      xmt_test_tmp_path("t.xlf"),
                                      xmt_test_tmp_path("out.html"), &stats,
                                      count_problem, &problems),
                  XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(problems, 1);
  CU_ASSERT_EQUAL(stats.missing_targets, 1);
  CU_ASSERT_EQUAL(stats.units_with_target, 2);
  char *out = xmt_test_read_file(xmt_test_tmp_path("out.html"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_STRING_EQUAL(out, "<html lang=\"es\"><title>Título</title><p><b>"
                              "Mundo</b>, hola.</p><img alt=\"Pic\"></html>");
  free(out);
  unlink(xmt_test_tmp_path("out.html"));
  /* Bad XLIFF: an error with its position and no output. */
  write_file(xmt_test_tmp_path("bad.xlf"), xlf, len > 200 ? 200 : len);
  CU_ASSERT_EQUAL(xmt_html_merge_file(f, xmt_test_tmp_path("p.html"),
                                      xmt_test_tmp_path("bad.xlf"),
                                      xmt_test_tmp_path("out.html"), NULL, NULL,
                                      NULL),
                  XMT_ERR_XML);
  CU_ASSERT(xmt_filter_error(f)->line > 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(xmt_filter_error(f)->file, "bad.xlf"));
  CU_ASSERT_EQUAL(access(xmt_test_tmp_path("out.html"), F_OK), -1);
  /* The XLIFF of another page. */
  static const char other[] = "<p>Other</p>";
  write_file(xmt_test_tmp_path("o.html"), other, sizeof other - 1);
  CU_ASSERT_EQUAL(xmt_html_merge_file(f, xmt_test_tmp_path("o.html"),
                                      xmt_test_tmp_path("t.xlf"),
                                      xmt_test_tmp_path("out.html"), NULL, NULL,
                                      NULL),
                  XMT_ERR_FORMAT);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->unit_id, "1");
  CU_ASSERT_EQUAL(access(xmt_test_tmp_path("out.html"), F_OK), -1);
  /* A missing page. */
  CU_ASSERT_EQUAL(xmt_html_extract_file(f, xmt_test_tmp_path("nope.html"),
                                        xmt_test_tmp_path("n.xlf"), NULL),
                  XMT_ERR_IO);
  CU_ASSERT_EQUAL(access(xmt_test_tmp_path("n.xlf"), F_OK), -1);
  /* No language anywhere. */
  xmt_filter_set_languages(f, NULL, NULL);
  CU_ASSERT_EQUAL(xmt_html_extract_file(f, xmt_test_tmp_path("o.html"),
                                        xmt_test_tmp_path("n.xlf"), NULL),
                  XMT_ERR_USAGE);
  CU_ASSERT_EQUAL(access(xmt_test_tmp_path("n.xlf"), F_OK), -1);
  free(xlf);
  xmt_buf_free(&t);
  xmt_filter_free(f);
  unlink(xmt_test_tmp_path("p.html"));
  unlink(xmt_test_tmp_path("p.xlf"));
  unlink(xmt_test_tmp_path("t.xlf"));
  unlink(xmt_test_tmp_path("bad.xlf"));
  unlink(xmt_test_tmp_path("o.html"));
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);
}

/* The file functions of any document with units take a page by its own
 * extract and merge: the same XLIFF, page and counts. */
static void test_units_files(void) {
  static const char page[] =
      "<html lang=\"en\"><title>T</title><p>Hello <b>world</b>.</p>"
      "<img alt=\"Pic\"></html>";
  write_file(xmt_test_tmp_path("p.html"), page, sizeof page - 1);
  xmt_filter *f = xmt_filter_new();
  struct xmt_html_stats a, b;
  CU_ASSERT_EQUAL(xmt_html_extract_file(f, xmt_test_tmp_path("p.html"),
                                        xmt_test_tmp_path("a.xlf"), &a),
                  XMT_OK);
  CU_ASSERT_EQUAL(xmt_filter_extract_units_file(f, xmt_test_tmp_path("p.html"),
                                                xmt_test_tmp_path("b.xlf"), &b),
                  XMT_OK);
  CU_ASSERT_EQUAL(b.units, 3);
  CU_ASSERT_EQUAL(b.attribute_units, 1);
  CU_ASSERT_EQUAL(b.codes, 2);
  CU_ASSERT_EQUAL(memcmp(&a, &b, sizeof a), 0);
  size_t alen, blen;
  char *ax = xmt_test_read_file(xmt_test_tmp_path("a.xlf"), &alen);
  char *bx = xmt_test_read_file(xmt_test_tmp_path("b.xlf"), &blen);
  CU_ASSERT_PTR_NOT_NULL_FATAL(ax);
  CU_ASSERT_PTR_NOT_NULL_FATAL(bx);
  CU_ASSERT_STRING_EQUAL(ax, bx);
  /* Merged with no targets: the page as it was, every unit reported. */
  int problems = 0;
  xmt_filter_set_languages(f, NULL, "es");
  CU_ASSERT_EQUAL(xmt_filter_merge_units_file(f, xmt_test_tmp_path("p.html"),
                                              xmt_test_tmp_path("b.xlf"),
                                              xmt_test_tmp_path("out.html"), &b,
                                              count_problem, &problems),
                  XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(problems, 3);
  CU_ASSERT_EQUAL(b.units, 3);
  CU_ASSERT_EQUAL(b.attribute_units, 1);
  CU_ASSERT_EQUAL(b.missing_targets, 3);
  char *out = xmt_test_read_file(xmt_test_tmp_path("out.html"), &blen);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  CU_ASSERT_STRING_EQUAL(out, "<html lang=\"es\"><title>T</title><p>Hello "
                              "<b>world</b>.</p><img alt=\"Pic\"></html>");
  free(out);
  free(ax);
  free(bx);
  xmt_filter_free(f);
  unlink(xmt_test_tmp_path("p.html"));
  unlink(xmt_test_tmp_path("a.xlf"));
  unlink(xmt_test_tmp_path("b.xlf"));
  unlink(xmt_test_tmp_path("out.html"));
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);
}

/* A backend that changes the text: upper case, words in reverse order. */
static int reverse_translate(void *state, const struct xmt_mt_request *req,
                             xmt_mt_response *const *resp, size_t n) {
  (void)state;
  for (size_t i = 0; i < n; i++) {
    struct xmt_buf out = {0};
    size_t end = req[i].len;
    while (end > 0) {
      size_t start = end;
      while (start > 0 && req[i].text[start - 1] != ' ')
        start--;
      for (size_t k = start; k < end; k++) {
        char c = req[i].text[k];
        xmt_buf_append_byte(&out, (char)(c >= 'a' && c <= 'z' ? c - 32 : c));
      }
      if (start > 0)
        xmt_buf_append_byte(&out, ' ');
      end = start > 0 ? start - 1 : 0;
    }
    xmt_mt_response_set_text(resp[i], out.data != NULL ? out.data : "",
                             out.len);
    xmt_buf_free(&out);
  }
  return 0;
}

static const struct xmt_backend reverse_backend = {
    XMT_BACKEND_ABI_VERSION, "reverse", NULL, reverse_translate, NULL, NULL};

static void test_translate_pipeline(void) {
  for (char **f = okapi_files(); *f != NULL; f++) {
    size_t len, olen;
    char *html = xmt_test_read_file(*f, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(html);
    /* identity: byte for byte */
    xmt_filter *flt = xmt_filter_new();
    xmt_filter_set_languages(flt, "en", "es");
    CU_ASSERT_EQUAL(
        xmt_filter_translate_html_file(flt, *f, xmt_test_tmp_path("id.html")),
        XMT_OK);
    char *out = xmt_test_read_file(xmt_test_tmp_path("id.html"), &olen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    /* lang is the one change identity makes */
    struct html_doc doc;
    parse(&doc, html, len, 0);
    int has_lang = 0;
    for (size_t i = 0; i < doc.nholes; i++)
      has_lang |= doc.holes[i].kind == HOLE_LANG;
    xmt_html_doc_free(&doc);
    if (!has_lang)
      XMT_ASSERT_BYTES_EQUAL(out, olen, html, len);
    free(out);
    /* a backend that changes the text: the pipeline places the codes */
    CU_ASSERT_EQUAL(xmt_filter_set_backend(flt, &reverse_backend, NULL, NULL),
                    XMT_OK);
    xmt_status st =
        xmt_filter_translate_html_file(flt, *f, xmt_test_tmp_path("r.html"));
    CU_ASSERT_EQUAL(st, XMT_OK);
    if (st != XMT_OK)
      fprintf(stderr, "\n%s: %s\n", *f, xmt_filter_error(flt)->message);
    CU_ASSERT(xmt_filter_stats(flt)->segments > 0);
    out = xmt_test_read_file(xmt_test_tmp_path("r.html"), &olen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    char *a = tag_counts(html, len), *b = tag_counts(out, olen);
    XMT_ASSERT_BYTES_EQUAL(b, strlen(b), a, strlen(a));
    char *ea, *eb;
    int ein = libxml_check(html, len, &ea), eout = libxml_check(out, olen, &eb);
    CU_ASSERT(eout <= ein);
    free(ea);
    free(eb);
    free(a);
    free(b);
    free(out);
    xmt_filter_free(flt);
    free(html);
    unlink(xmt_test_tmp_path("id.html"));
    unlink(xmt_test_tmp_path("r.html"));
  }
  /* Failures leave no output and name the page. */
  xmt_filter *flt = xmt_filter_new();
  CU_ASSERT_EQUAL(xmt_filter_translate_html_file(flt, okapi_files()[0],
                                                 xmt_test_tmp_path("x.html")),
                  XMT_ERR_USAGE);
  xmt_filter_set_languages(flt, NULL, "es");
  CU_ASSERT_EQUAL(xmt_filter_translate_html_file(flt,
                                                 xmt_test_tmp_path("none.html"),
                                                 xmt_test_tmp_path("x.html")),
                  XMT_ERR_IO);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);
  xmt_filter_free(flt);
}

/* The text and " !", word for word, with that alignment; what it was
 * asked goes to its user buffer as "[text]". */
static int bang_translate(void *state, const struct xmt_mt_request *req,
                          xmt_mt_response *const *resp, size_t n) {
  struct xmt_buf *asked = state;
  for (size_t i = 0; i < n; i++) {
    struct xmt_buf out = {0}, aln = {0};
    char pair[32];
    size_t words = 0;
    for (size_t k = 0; k < req[i].len; k++) {
      char c = req[i].text[k];
      xmt_buf_append_byte(&out, c);
      if (c != ' ' && (k == 0 || req[i].text[k - 1] == ' ')) {
        snprintf(pair, sizeof pair, "%s%zu-%zu", words ? " " : "", words,
                 words);
        xmt_buf_append_str(&aln, pair);
        words++;
      }
    }
    xmt_buf_append_str(&out, " !");
    xmt_buf_append_byte(&aln, '\0');
    xmt_buf_append_byte(asked, '[');
    xmt_buf_append(asked, req[i].text, req[i].len);
    xmt_buf_append_byte(asked, ']');
    xmt_mt_response_set_text(resp[i], out.data != NULL ? out.data : "",
                             out.len);
    /* whitespace tokens: the words as the alignment counts them */
    xmt_mt_response_set_alignment(resp[i], aln.data, req[i].text,
                                  out.data != NULL ? out.data : "");
    xmt_buf_free(&out);
    xmt_buf_free(&aln);
  }
  return 0;
}

static int bang_open(void *user, const struct xmt_backend_config *config,
                     void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  *state = user;
  return 0;
}

static const struct xmt_backend bang_backend = {
    XMT_BACKEND_ABI_VERSION, "bang", bang_open, bang_translate, NULL, NULL};

/* br, img, wbr, sup and sub between two letters are word breaks: the
 * engine sees a space, the page gets none back; b inside a word is not. */
static void test_word_breaks(void) {
  static const char page[] =
      "<p>Line one<br>Line two: H<sub>2</sub>O, un<b>believ</b>able, "
      "see<img src=\"a.png\">here and Regulation<sup>1</sup>.</p>\n";
  static const char want[] =
      "<p>Line one<br>Line two: H<sub>2</sub>O, un<b>believ</b>able, "
      "see<img src=\"a.png\">here and Regulation<sup>1</sup>. !</p>\n";
  write_file(xmt_test_tmp_path("w.html"), page, sizeof page - 1);
  struct xmt_buf asked = {0};
  xmt_filter *f = xmt_filter_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  xmt_filter_set_languages(f, "en", "es");
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &bang_backend, &asked, NULL),
                  XMT_OK);
  xmt_filter_set_probes(f, XMT_PROBES_OFF);
  CU_ASSERT_EQUAL(xmt_filter_translate_html_file(f, xmt_test_tmp_path("w.html"),
                                                 xmt_test_tmp_path("w2.html")),
                  XMT_OK);
  size_t len = 0;
  char *out = xmt_test_read_file(xmt_test_tmp_path("w2.html"), &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(out);
  XMT_ASSERT_BYTES_EQUAL(out, len, want, sizeof want - 1);
  static const char sent[] = "[Line one Line two: H 2 O, unbelievable, see "
                             "here and Regulation 1.]";
  XMT_ASSERT_BYTES_EQUAL(asked.data, asked.len, sent, sizeof sent - 1);
  free(out);
  xmt_buf_free(&asked);
  xmt_filter_free(f);
  unlink(xmt_test_tmp_path("w.html"));
  unlink(xmt_test_tmp_path("w2.html"));
}

static void test_sniff(void) {
  static const struct {
    const char *bytes, *path;
    int html;
  } cases[] = {
      {"<!DOCTYPE html><html>", "a.txt", 1},
      {"  <!-- c -->\n<HTML lang=en>", NULL, 1},
      {"\xEF\xBB\xBF<head>", NULL, 1},
      {"<?xml version=\"1.0\"?>\n<html xmlns=\"x\">", "a.xml", 1},
      {"<?xml version=\"1.0\"?>\n<xliff version=\"1.2\">", "a.html", 0},
      {"<xliff version=\"1.2\">", NULL, 0},
      {"<p>Hi</p>", NULL, 1},
      {"<table><tr>", NULL, 1},
      {"plain text", "page.HTM", 1},
      {"plain text", "page.txt", 0},
      {"", "x.html", 1},
      {"<!-- only a comment", "x.xlf", 0},
      {"\xFF\xFE<\0h\0t\0m\0l\0>\0", NULL, 1},
      {"<pb>", "a.htm", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    size_t len = strlen(cases[i].bytes);
    if (cases[i].bytes[0] == '\xFF')
      len = 14;
    int got = xmt_html_sniff(cases[i].bytes, len, cases[i].path) != 0;
    if (got != cases[i].html)
      fprintf(stderr, "\nsniff case %zu: got %d\n", i, got);
    CU_ASSERT_EQUAL(got, cases[i].html);
  }
}

CU_TestInfo html_tests[] = {
    {"lexer tokens", test_lexer_tokens},
    {"lexer chunks", test_lexer_chunks},
    {"lexer through a view", test_lexer_view},
    {"units: inline and block", test_units_inline_block},
    {"void placeholders", test_void_placeholders},
    {"not translated", test_not_translated},
    {"attributes", test_attributes},
    {"lang", test_lang},
    {"charsets", test_charsets},
    {"entities", test_entities},
    {"names, ids and entities", test_names_ids_entities},
    {"pre whitespace", test_pre_whitespace},
    {"spacing around tags", test_spacing_around_tags},
    {"malformed", test_malformed},
    {"okapi files", test_okapi_files},
    {"truncation and bit-flip sweep", test_sweep},
    {"deep nesting", test_deep_nesting},
    {"extract and merge files", test_extract_merge_files},
    {"extract and merge files of any format", test_units_files},
    {"translate pipeline", test_translate_pipeline},
    {"word breaks", test_word_breaks},
    {"sniff", test_sniff},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"html", suite_init, suite_clean, NULL, NULL, html_tests},
    CU_SUITE_INFO_NULL};

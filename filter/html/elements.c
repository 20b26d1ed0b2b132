/* elements.c -- how HTML elements take part in text: block, inline, void,
 * untranslated, preformatted..., as browsers lay them out. */
#include "config.h"

#include <string.h>

#include "html_private.h"

struct elem_class {
  const char *name;
  unsigned flags;
};

/* Sorted by name. */
static const struct elem_class classes[] = {
    {"a", E_INLINE},
    {"abbr", E_INLINE},
    {"acronym", E_INLINE},
    {"address", E_BLOCK | E_PCLOSE},
    {"applet", E_INLINE | E_SCOPE},
    {"area", E_INLINE | E_VOID},
    {"article", E_BLOCK | E_PCLOSE},
    {"aside", E_BLOCK | E_PCLOSE},
    {"audio", E_BLOCK},
    {"b", E_INLINE},
    {"base", E_BLOCK | E_VOID},
    {"basefont", E_BLOCK | E_VOID},
    {"bdi", E_INLINE},
    {"bdo", E_INLINE},
    {"bgsound", E_BLOCK | E_VOID},
    {"big", E_INLINE},
    {"blink", E_INLINE},
    {"blockquote", E_BLOCK | E_PCLOSE},
    {"body", E_BLOCK},
    {"br", E_INLINE | E_VOID},
    {"button", E_CONTEXT | E_SCOPE},
    {"canvas", E_BLOCK},
    {"caption", E_BLOCK | E_SCOPE},
    {"center", E_BLOCK | E_PCLOSE},
    {"cite", E_INLINE},
    {"code", E_INLINE},
    {"col", E_BLOCK | E_VOID},
    {"colgroup", E_BLOCK},
    {"data", E_INLINE},
    {"datalist", E_BLOCK},
    {"dd", E_BLOCK | E_PCLOSE},
    {"del", E_INLINE},
    {"details", E_BLOCK | E_PCLOSE},
    {"dfn", E_INLINE},
    {"dialog", E_BLOCK | E_PCLOSE},
    {"dir", E_BLOCK | E_PCLOSE},
    {"div", E_BLOCK | E_PCLOSE},
    {"dl", E_BLOCK | E_PCLOSE},
    {"dt", E_BLOCK | E_PCLOSE},
    {"em", E_INLINE},
    {"embed", E_INLINE | E_VOID},
    {"fieldset", E_BLOCK | E_PCLOSE},
    {"figcaption", E_BLOCK | E_PCLOSE},
    {"figure", E_BLOCK | E_PCLOSE},
    {"font", E_INLINE},
    {"footer", E_BLOCK | E_PCLOSE},
    {"form", E_BLOCK | E_PCLOSE},
    {"frame", E_BLOCK | E_VOID},
    {"frameset", E_BLOCK},
    {"h1", E_BLOCK | E_PCLOSE},
    {"h2", E_BLOCK | E_PCLOSE},
    {"h3", E_BLOCK | E_PCLOSE},
    {"h4", E_BLOCK | E_PCLOSE},
    {"h5", E_BLOCK | E_PCLOSE},
    {"h6", E_BLOCK | E_PCLOSE},
    {"head", E_BLOCK},
    {"header", E_BLOCK | E_PCLOSE},
    {"hgroup", E_BLOCK | E_PCLOSE},
    {"hr", E_BLOCK | E_VOID | E_PCLOSE},
    {"html", E_BLOCK | E_SCOPE},
    {"i", E_INLINE},
    {"iframe", E_INLINE | E_SKIP},
    {"img", E_INLINE | E_VOID},
    {"input", E_INLINE | E_VOID},
    {"ins", E_INLINE},
    {"isindex", E_BLOCK | E_VOID},
    {"kbd", E_INLINE},
    {"keygen", E_INLINE | E_VOID},
    {"label", E_CONTEXT},
    {"legend", E_BLOCK},
    {"li", E_BLOCK | E_PCLOSE},
    {"link", E_BLOCK | E_VOID},
    {"listing", E_BLOCK | E_PCLOSE | E_PRE},
    {"main", E_BLOCK | E_PCLOSE},
    {"map", E_INLINE},
    {"mark", E_INLINE},
    {"marquee", E_BLOCK | E_SCOPE},
    {"math", E_INLINE | E_SKIP},
    {"menu", E_BLOCK | E_PCLOSE},
    {"meta", E_BLOCK | E_VOID},
    {"meter", E_INLINE},
    {"nav", E_BLOCK | E_PCLOSE},
    {"nobr", E_INLINE},
    {"noembed", E_BLOCK | E_SKIP},
    {"noframes", E_BLOCK | E_SKIP},
    {"noscript", E_CONTEXT}, /* phrasing content: in a sentence, of it */
    {"object", E_INLINE | E_SCOPE},
    {"ol", E_BLOCK | E_PCLOSE},
    {"optgroup", E_BLOCK},
    {"option", E_BLOCK},
    {"output", E_INLINE},
    {"p", E_BLOCK | E_PCLOSE},
    {"param", E_BLOCK | E_VOID},
    {"picture", E_INLINE},
    {"plaintext", E_BLOCK | E_PCLOSE | E_SKIP},
    {"pre", E_BLOCK | E_PCLOSE | E_PRE},
    {"progress", E_INLINE},
    {"q", E_INLINE},
    {"rb", E_INLINE},
    /* A ruby's reading (rt, rtc) and its fallback parentheses (rp) say how
     * the base is read: codes, as Word's w:rt is. */
    {"rp", E_INLINE | E_SKIP},
    {"rt", E_INLINE | E_SKIP},
    {"rtc", E_INLINE | E_SKIP},
    {"ruby", E_INLINE},
    {"s", E_INLINE},
    {"samp", E_INLINE},
    {"script", E_SKIP},
    {"search", E_BLOCK | E_PCLOSE},
    {"section", E_BLOCK | E_PCLOSE},
    {"select", E_BLOCK},
    {"slot", E_INLINE},
    {"small", E_INLINE},
    {"source", E_BLOCK | E_VOID},
    {"span", E_INLINE},
    {"strike", E_INLINE},
    {"strong", E_INLINE},
    {"style", E_SKIP},
    {"sub", E_INLINE},
    {"summary", E_BLOCK | E_PCLOSE},
    {"sup", E_INLINE},
    {"svg", E_INLINE | E_SKIP},
    {"table", E_BLOCK | E_PCLOSE | E_SCOPE},
    {"tbody", E_BLOCK},
    {"td", E_BLOCK | E_SCOPE},
    {"template", E_SKIP | E_SCOPE},
    {"textarea", E_INLINE | E_SKIP | E_PRE},
    {"tfoot", E_BLOCK},
    {"th", E_BLOCK | E_SCOPE},
    {"thead", E_BLOCK},
    {"time", E_INLINE},
    {"title", E_BLOCK},
    {"tr", E_BLOCK},
    {"track", E_BLOCK | E_VOID},
    {"tt", E_INLINE},
    {"u", E_INLINE},
    {"ul", E_BLOCK | E_PCLOSE},
    {"var", E_INLINE},
    {"video", E_BLOCK},
    {"wbr", E_INLINE | E_VOID},
    {"xmp", E_BLOCK | E_PCLOSE | E_SKIP | E_PRE},
};

/* A binary search comparing first bytes before calling strcmp: this ran
 * for every tag, through bsearch's calls, a twentieth of the reading. */
unsigned xmt_html_element_class(const char *name) {
  size_t lo = 0, hi = sizeof classes / sizeof *classes;
  unsigned char c0 = (unsigned char)name[0];
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *n = classes[mid].name;
    unsigned char m0 = (unsigned char)n[0];
    int cmp = c0 != m0 ? (c0 > m0) - (c0 < m0) : strcmp(name, n);
    if (cmp == 0)
      return classes[mid].flags;
    if (cmp < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return E_INLINE;
}

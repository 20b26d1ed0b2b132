/* xml_names.c -- XML namespaces resolved for an expat parser made without
 * its own namespace processing.
 *
 * expat's namespace mode expands every element name into "URI|local" in
 * its own pools, and checks the expanded names of a tag's attributes in a
 * hash table: an eighth of a reader's time on XLIFF, where nearly every
 * element is in the one namespace the reader expects. Here an element of
 * that namespace (set with xmt_xml_names_bare) keeps its local name, one
 * of no namespace its name, any other becomes "URI|local" as expat would
 * give it; attributes keep their names unless prefixed: "xml:NAME" stays
 * as written (the prefix is bound to the XML namespace by definition and
 * cannot be bound to another), other prefixes are expanded. The
 * namespace declarations go, as expat's namespace mode takes them out,
 * and what that mode refuses (an unbound prefix, a prefix undeclared, a
 * reserved prefix or name bound, two attributes of one expanded name) is
 * refused with its error. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "xliff_private.h"

#define XML_NS_URI "http://www.w3.org/XML/1998/namespace"
#define XMLNS_NS_URI "http://www.w3.org/2000/xmlns/"

struct xmt_xml_binding {
  char *prefix; /* NULL: the default namespace */
  char *uri;    /* "" when a default declaration undeclares it */
  size_t depth;
};

void xmt_xml_names_init(struct xmt_xml_names *ns) {
  memset(ns, 0, sizeof *ns);
  ns->default_bare = 1; /* no namespace */
}

void xmt_xml_names_free(struct xmt_xml_names *ns) {
  for (size_t i = 0; i < ns->n; i++) {
    free(ns->v[i].prefix);
    free(ns->v[i].uri);
  }
  free(ns->v);
  free(ns->bare);
  xmt_buf_free(&ns->name);
  xmt_buf_free(&ns->attr_names);
  free(ns->atts);
  free(ns->offsets);
  memset(ns, 0, sizeof *ns);
}

/* The URI bound to prefix (len bytes; NULL: the default namespace) in
 * scope, NULL when none ("" for a default undeclared). */
static const char *bound(const struct xmt_xml_names *ns, const char *prefix,
                         size_t len) {
  if (prefix == NULL)
    return ns->default_uri;
  if (len == 3 && memcmp(prefix, "xml", 3) == 0)
    return XML_NS_URI;
  for (size_t i = ns->n; i-- > 0;) {
    const char *p = ns->v[i].prefix;
    if (p != NULL && strncmp(p, prefix, len) == 0 && p[len] == '\0')
      return ns->v[i].uri;
  }
  return NULL;
}

/* The default namespace in scope, and whether it is the bare one: looked
 * up when a declaration comes or goes, not at each element. */
static void scope_changed(struct xmt_xml_names *ns) {
  ns->default_uri = NULL;
  for (size_t i = ns->n; i-- > 0;)
    if (ns->v[i].prefix == NULL) {
      ns->default_uri = ns->v[i].uri;
      break;
    }
  ns->default_in_bare = ns->default_uri != NULL && ns->bare != NULL &&
                        strcmp(ns->default_uri, ns->bare) == 0;
  ns->default_bare = ns->default_uri == NULL || ns->default_uri[0] == '\0' ||
                     ns->default_in_bare;
}

xmt_status xmt_xml_names_bare(struct xmt_xml_names *ns, const char *uri) {
  char *copy = uri != NULL ? strdup(uri) : NULL;
  if (uri != NULL && copy == NULL)
    return XMT_ERR_NOMEM;
  free(ns->bare);
  ns->bare = copy;
  scope_changed(ns);
  return XMT_OK;
}

/* Declares prefix (NULL: the default namespace) as uri at this depth. */
static enum XML_Error declare(struct xmt_xml_names *ns, const char *prefix,
                              const char *uri) {
  /* In the order of expat's checks, so that a declaration gets its
   * error. */
  if (prefix != NULL && uri[0] == '\0')
    return XML_ERROR_UNDECLARING_PREFIX; /* XML 1.0 namespaces */
  if (prefix != NULL && strcmp(prefix, "xmlns") == 0)
    return XML_ERROR_RESERVED_PREFIX_XMLNS;
  /* The separator of expanded names, not a URI character: expat refuses
   * it, and the NS-mode parsers reading the same bytes (check's rules)
   * with it. */
  if (strchr(uri, '|') != NULL)
    return XML_ERROR_SYNTAX;
  int is_xml_uri = strcmp(uri, XML_NS_URI) == 0;
  if (prefix != NULL && strcmp(prefix, "xml") == 0)
    return is_xml_uri ? XML_ERROR_NONE : XML_ERROR_RESERVED_PREFIX_XML;
  if (is_xml_uri || strcmp(uri, XMLNS_NS_URI) == 0)
    return XML_ERROR_RESERVED_NAMESPACE_URI;
  struct xmt_xml_binding *v =
      xmt_grow_array(ns->v, &ns->cap, ns->n + 1, sizeof *ns->v);
  if (v == NULL)
    return XML_ERROR_NO_MEMORY;
  ns->v = v;
  struct xmt_xml_binding *b = &ns->v[ns->n];
  b->prefix = prefix != NULL ? strdup(prefix) : NULL;
  b->uri = strdup(uri);
  b->depth = ns->depth;
  if ((prefix != NULL && b->prefix == NULL) || b->uri == NULL) {
    free(b->prefix);
    free(b->uri);
    return XML_ERROR_NO_MEMORY;
  }
  ns->n++;
  scope_changed(ns);
  if (ns->on_declare != NULL)
    ns->on_declare(ns->user, prefix, uri);
  return XML_ERROR_NONE;
}

/* The kinds of attribute names (see name_kind). */
enum { PLAIN, XML_PREFIXED, PREFIXED, DECLARATION, NOT_QNAME };

/* What qname is; *plen the length of its prefix when it has one. A
 * qualified name has one colon, neither first nor last. */
static int name_kind(const char *qname, size_t *plen) {
  const char *colon = strchr(qname, ':');
  if (colon == NULL)
    return qname[0] == 'x' && strcmp(qname, "xmlns") == 0 ? DECLARATION : PLAIN;
  if (colon == qname || colon[1] == '\0' || strchr(colon + 1, ':') != NULL)
    return NOT_QNAME;
  *plen = (size_t)(colon - qname);
  if (*plen == 3 && memcmp(qname, "xml", 3) == 0)
    return XML_PREFIXED;
  return *plen == 5 && memcmp(qname, "xmlns", 5) == 0 ? DECLARATION : PREFIXED;
}

/* "uri|local" appended to out, its NUL too. */
static int expand(struct xmt_buf *out, const char *uri, const char *local) {
  return xmt_buf_append_str(out, uri) != XMT_OK ||
         xmt_buf_append_byte(out, '|') != XMT_OK ||
         xmt_buf_append(out, local, strlen(local) + 1) != XMT_OK;
}

/* The name an element qname goes by (see above), in ns->name or qname. */
static enum XML_Error element_name(struct xmt_xml_names *ns, const char *qname,
                                   const char **name) {
  const char *colon = strchr(qname, ':');
  if (colon == NULL && ns->default_bare) { /* nearly every element */
    *name = qname;
    ns->element_in_bare = ns->default_in_bare;
    return XML_ERROR_NONE;
  }
  size_t plen = 0;
  int kind = colon != NULL ? name_kind(qname, &plen) : PLAIN;
  if (kind == NOT_QNAME)
    return XML_ERROR_INVALID_TOKEN;
  if (kind == DECLARATION)
    return XML_ERROR_UNBOUND_PREFIX; /* an element xmlns:NAME */
  const char *uri = bound(ns, kind == PLAIN ? NULL : qname, plen);
  const char *local = kind == PLAIN ? qname : qname + plen + 1;
  if (kind != PLAIN && uri == NULL)
    return XML_ERROR_UNBOUND_PREFIX;
  ns->element_in_bare =
      uri != NULL && ns->bare != NULL && strcmp(uri, ns->bare) == 0;
  if (uri == NULL || uri[0] == '\0' || ns->element_in_bare) {
    *name = local;
    return XML_ERROR_NONE;
  }
  ns->name.len = 0;
  if (expand(&ns->name, uri, local))
    return XML_ERROR_NO_MEMORY;
  *name = ns->name.data;
  return XML_ERROR_NONE;
}

/* The attributes of a tag as expat's namespace mode gives them, in
 * ns->atts, the prefixed ones expanded, the declarations left out. */
static enum XML_Error expand_attributes(struct xmt_xml_names *ns,
                                        const char **atts, size_t n,
                                        const char ***out) {
  const char **a = xmt_grow_array(ns->atts, &ns->atts_cap, n + 1, sizeof *a);
  if (a == NULL)
    return XML_ERROR_NO_MEMORY;
  ns->atts = a;
  size_t *o =
      xmt_grow_array(ns->offsets, &ns->offsets_cap, n / 2 + 1, sizeof *o);
  if (o == NULL)
    return XML_ERROR_NO_MEMORY;
  ns->offsets = o;
  ns->attr_names.len = 0;
  size_t kept = 0, expanded = 0, plen = 0;
  for (size_t i = 0; i < n; i += 2) {
    int kind = name_kind(atts[i], &plen);
    if (kind == DECLARATION)
      continue;
    ns->atts[kept] = atts[i];
    ns->atts[kept + 1] = atts[i + 1];
    if (kind == PREFIXED) {
      const char *uri = bound(ns, atts[i], plen);
      if (uri == NULL)
        return XML_ERROR_UNBOUND_PREFIX;
      ns->offsets[expanded++] = ns->attr_names.len;
      ns->atts[kept] = NULL; /* pointed at once the buffer stops moving */
      if (expand(&ns->attr_names, uri, atts[i] + plen + 1))
        return XML_ERROR_NO_MEMORY;
    }
    kept += 2;
  }
  ns->atts[kept] = NULL;
  size_t e = 0;
  for (size_t i = 0; i < kept; i += 2)
    if (ns->atts[i] == NULL)
      ns->atts[i] = ns->attr_names.data + ns->offsets[e++];
  /* Two prefixes bound to one namespace name one attribute twice. */
  for (size_t i = 0; i < kept; i += 2)
    for (size_t j = i + 2; j < kept && strchr(ns->atts[i], '|') != NULL; j += 2)
      if (strcmp(ns->atts[i], ns->atts[j]) == 0)
        return XML_ERROR_DUPLICATE_ATTRIBUTE;
  *out = ns->atts;
  return XML_ERROR_NONE;
}

/* The tag's names resolved: *name and *out_atts, or the error. */
static enum XML_Error start(struct xmt_xml_names *ns, const char *qname,
                            const char **atts, const char **name,
                            const char ***out_atts) {
  ns->depth++;
  /* The declarations first: they are in scope for the tag's own names. */
  size_t n = 0, plen = 0;
  int changed = 0;
  for (; atts[n] != NULL; n += 2) {
    if (strchr(atts[n], ':') == NULL && atts[n][0] != 'x')
      continue; /* nearly every attribute */
    int kind = name_kind(atts[n], &plen);
    if (kind == NOT_QNAME)
      return XML_ERROR_INVALID_TOKEN;
    if (kind == DECLARATION) {
      enum XML_Error e =
          declare(ns, atts[n][5] == ':' ? atts[n] + 6 : NULL, atts[n + 1]);
      if (e != XML_ERROR_NONE)
        return e;
    }
    changed |= kind == DECLARATION || kind == PREFIXED;
  }
  enum XML_Error e = element_name(ns, qname, name);
  *out_atts = atts;
  if (e == XML_ERROR_NONE && changed)
    e = expand_attributes(ns, atts, n, out_atts);
  return e;
}

const char *xmt_xml_names_start(struct xmt_xml_names *ns, const char *qname,
                                const char **atts, const char ***out_atts,
                                enum XML_Error *error) {
  const char *name = NULL;
  *error = start(ns, qname, atts, &name, out_atts);
  return *error == XML_ERROR_NONE ? name : NULL;
}

void xmt_xml_names_pop(struct xmt_xml_names *ns) {
  int popped = 0;
  while (ns->n > 0 && ns->v[ns->n - 1].depth == ns->depth) {
    ns->n--;
    free(ns->v[ns->n].prefix);
    free(ns->v[ns->n].uri);
    popped = 1;
  }
  if (popped)
    scope_changed(ns);
  if (ns->depth > 0)
    ns->depth--;
}

const char *xmt_xml_names_end(struct xmt_xml_names *ns, const char *qname,
                              enum XML_Error *error) {
  const char *name = NULL;
  enum XML_Error e = element_name(ns, qname, &name);
  xmt_xml_names_pop(ns);
  *error = e;
  return e == XML_ERROR_NONE ? name : NULL;
}

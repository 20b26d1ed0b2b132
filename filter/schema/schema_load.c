/* schema_load.c -- compiles the OASIS XLIFF schemas from the copies in the
 * library. Their imports name each other by relative paths (and xml.xsd);
 * an external entity loader maps the URLs under a scheme of our own to
 * the table in schemas.c, so nothing is read from the network or from
 * where the program happens to run. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parserInternals.h>

#include "schema_private.h"

#define SCHEME "xliffmt-schema:/"

static xmlExternalEntityLoader next_loader;
/* set while this thread compiles a schema: no other URL is loaded then */
static _Thread_local int compiling;

/* path with its "." and ".." steps resolved, into out (size bytes);
 * 0 when it climbs above the top or does not fit. */
static int normalize(const char *path, char *out, size_t size) {
  size_t len = 0;
  while (*path != '\0') {
    size_t n = strcspn(path, "/");
    if (n == 2 && strncmp(path, "..", 2) == 0) {
      if (len == 0)
        return 0;
      while (len > 0 && out[len - 1] != '/')
        len--;
      if (len > 0)
        len--; /* the slash */
    } else if (n > 0 && !(n == 1 && path[0] == '.')) {
      if (len + n + 2 > size)
        return 0;
      if (len > 0)
        out[len++] = '/';
      memcpy(out + len, path, n);
      len += n;
    }
    path += n;
    if (*path == '/')
      path++;
  }
  out[len] = '\0';
  return len > 0;
}

static xmlParserInputPtr from_memory(const struct xmt_schema_file *s,
                                     const char *url, xmlParserCtxtPtr ctxt) {
  xmlParserInputBufferPtr buf = xmlParserInputBufferCreateMem(
      (const char *)s->bytes, (int)s->len, XML_CHAR_ENCODING_NONE);
  if (buf == NULL)
    return NULL;
  xmlParserInputPtr in = xmlNewIOInputStream(ctxt, buf, XML_CHAR_ENCODING_NONE);
  if (in == NULL) {
    xmlFreeParserInputBuffer(buf);
    return NULL;
  }
  /* the base of the relative imports in this file (a static buffer
   * reads wrong in libxml2 2.9: the memory one copies) */
  in->filename = (const char *)xmlStrdup((const xmlChar *)url);
  return in;
}

static xmlParserInputPtr load(const char *url, const char *id,
                              xmlParserCtxtPtr ctxt) {
  if (url == NULL || strncmp(url, SCHEME, strlen(SCHEME)) != 0)
    return compiling ? NULL : next_loader(url, id, ctxt);
  char path[512];
  if (!normalize(url + strlen(SCHEME), path, sizeof path))
    return NULL;
  const char *dir = getenv("XLIFFMT_SCHEMA_DIR");
  if (dir != NULL && dir[0] != '\0') {
    char file[4096];
    /* a file missing is libxml2's to tell (the import skipped, which
     * compile refuses), not printed by its loader on stderr */
    if ((size_t)snprintf(file, sizeof file, "%s/%s", dir, path) >=
            sizeof file ||
        access(file, R_OK) != 0)
      return NULL;
    xmlParserInputPtr in = xmlNewInputFromFile(ctxt, file);
    if (in != NULL && in->filename != NULL) {
      xmlFree((char *)in->filename);
      in->filename = (const char *)xmlStrdup((const xmlChar *)url);
    }
    return in;
  }
  for (const struct xmt_schema_file *s = xmt_schema_files; s->path != NULL; s++)
    if (strcmp(s->path, path) == 0)
      return from_memory(s, url, ctxt);
  return NULL;
}

static pthread_once_t installed = PTHREAD_ONCE_INIT;

/* libxml2's loader is one for the process: ours takes only its own
 * scheme and hands every other URL to the loader it replaced. */
static void install(void) {
  next_loader = xmlGetExternalEntityLoader();
  xmlSetExternalEntityLoader(load);
}

/* The 2.0 core and every module: one schema, so that the module elements
 * the core lets in (processContents="lax") are validated too. */
static const char all20[] =
    "<xs:schema xmlns:xs='http://www.w3.org/2001/XMLSchema'"
    " targetNamespace='urn:xliffmt:schema'>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:document:2.0'"
    " schemaLocation='xliff_core_2.0.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:changetracking:2.0'"
    " schemaLocation='modules/change_tracking.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:fs:2.0'"
    " schemaLocation='modules/fs.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:glossary:2.0'"
    " schemaLocation='modules/glossary.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:matches:2.0'"
    " schemaLocation='modules/matches.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:metadata:2.0'"
    " schemaLocation='modules/metadata.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:resourcedata:2.0'"
    " schemaLocation='modules/resource_data.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:sizerestriction:2.0'"
    " schemaLocation='modules/size_restriction.xsd'/>\n"
    "<xs:import namespace='urn:oasis:names:tc:xliff:validation:2.0'"
    " schemaLocation='modules/validation.xsd'/>\n"
    "</xs:schema>\n";

#define XSD_NS "http://www.w3.org/2001/XMLSchema"

/* 1 when node is the XML Schema element `local`. */
static int is_xsd(xmlNodePtr node, const char *local) {
  return node->type == XML_ELEMENT_NODE && node->ns != NULL &&
         xmlStrEqual(node->ns->href, (const xmlChar *)XSD_NS) &&
         xmlStrEqual(node->name, (const xmlChar *)local);
}

/* 1 when node's attribute `name` is `value` (absent: `absent`). */
static int attr_is(xmlNodePtr node, const char *name, const char *value,
                   const char *absent) {
  xmlChar *v = xmlGetNoNsProp(node, (const xmlChar *)name);
  int is = xmlStrEqual(v != NULL ? v : (const xmlChar *)absent,
                       (const xmlChar *)value);
  xmlFree(v);
  return is;
}

/* A <choice maxOccurs="unbounded"> of elements only, each 1..1 or each
 * 0..unbounded (<body>, <group>: group, trans-unit, bin-unit), is the
 * same language as a <sequence maxOccurs="unbounded"> (minOccurs 0 for
 * the latter) of a <choice> of those elements 1..1. libxml2 compiles the
 * first to an automaton that keeps a copy of each child's name until the
 * element ends (about 75 bytes a unit of a <body>), the second to one
 * that keeps nothing. */
static void unfold_choice(xmlNodePtr choice) {
  int ones = 1, stars = 1, any = 0;
  for (xmlNodePtr n = choice->children; n != NULL; n = n->next) {
    if (n->type != XML_ELEMENT_NODE)
      continue;
    any = 1;
    if (!is_xsd(n, "element"))
      return;
    ones &=
        attr_is(n, "minOccurs", "1", "1") && attr_is(n, "maxOccurs", "1", "1");
    stars &= attr_is(n, "minOccurs", "0", "1") &&
             attr_is(n, "maxOccurs", "unbounded", "1");
  }
  if (!any || !(ones || stars))
    return;
  xmlChar *min = xmlGetNoNsProp(choice, (const xmlChar *)"minOccurs");
  xmlNodePtr seq = xmlNewNode(choice->ns, (const xmlChar *)"sequence");
  if (seq == NULL ||
      xmlNewProp(seq, (const xmlChar *)"minOccurs",
                 stars         ? (const xmlChar *)"0"
                 : min != NULL ? min
                               : (const xmlChar *)"1") == NULL ||
      xmlNewProp(seq, (const xmlChar *)"maxOccurs",
                 (const xmlChar *)"unbounded") == NULL) {
    xmlFree(min);
    xmlFreeNode(seq); /* the schema stays as it was */
    return;
  }
  xmlFree(min);
  xmlReplaceNode(choice, seq);
  xmlAddChild(seq, choice);
  xmlUnsetProp(choice, (const xmlChar *)"minOccurs");
  xmlUnsetProp(choice, (const xmlChar *)"maxOccurs");
  for (xmlNodePtr n = choice->children; stars && n != NULL; n = n->next) {
    xmlUnsetProp(n, (const xmlChar *)"minOccurs");
    xmlUnsetProp(n, (const xmlChar *)"maxOccurs");
  }
}

/* The XLIFF 1.2 schema, made to validate in memory that does not grow
 * with the document, judging as it did:
 *   - its key K_unit_id (trans-unit and bin-unit ids unique in their
 *     <file>) makes libxml2's validator keep a table entry per unit until
 *     the <file> ends (about 330 bytes a unit: 161 MB for 300,000).
 *     check's own rule tells a trans-unit id used twice, at the repeat,
 *     in a table of the ids alone; the key's own errors were never told.
 *     Its keyref KR_unit_id names elements of no namespace (bpt, ph...
 *     unprefixed in the selector), which an XLIFF 1.2 document that
 *     validates cannot have: it never finds anything, and goes with the
 *     key it refers to. Both are taken out;
 *   - a choice of units is unfolded (unfold_choice). */
static void tune12(xmlNodePtr node) {
  for (xmlNodePtr n = node->children, next; n != NULL; n = next) {
    next = n->next;
    if (n->type != XML_ELEMENT_NODE)
      continue;
    tune12(n);
    if ((is_xsd(n, "key") && attr_is(n, "name", "K_unit_id", "")) ||
        (is_xsd(n, "keyref") && attr_is(n, "name", "KR_unit_id", ""))) {
      xmlUnlinkNode(n);
      xmlFreeNode(n);
    } else if (is_xsd(n, "choice") &&
               attr_is(n, "maxOccurs", "unbounded", "1")) {
      unfold_choice(n);
    }
  }
}

/* What the schema's compilation told: its first error or warning (a
 * warning is an import skipped, a schema file missing, after which the
 * document would be judged by half a schema), and whether an allocation
 * failed (told as XML_ERR_NO_MEMORY, or by a message that could not be
 * made), after which what compiled may lack a part. */
struct told {
  char first[256];
  int nomem;
};

static void on_schema_error(void *user, xmlErrorPtr e) {
  struct told *t = user;
  if (e == NULL)
    return;
  if (e->code == XML_ERR_NO_MEMORY || e->message == NULL)
    t->nomem = 1;
  if (t->first[0] != '\0')
    return;
  snprintf(t->first, sizeof t->first, "%s",
           e->message != NULL ? e->message : "error");
  size_t len = strlen(t->first);
  while (len > 0 && (t->first[len - 1] == '\n' || t->first[len - 1] == ' '))
    t->first[--len] = '\0';
}

xmlSchemaPtr xmt_schema_compile(enum xmt_schema_kind kind,
                                struct xmt_error_store *err) {
  pthread_once(&installed, install);
  xmlSchemaParserCtxtPtr pc = NULL;
  xmlDocPtr doc = NULL;
  const char *file = "xliff-core-1.2-transitional.xsd";
  const char *name = "XLIFF 1.2 transitional schema";
  struct told told = {"", 0};
  /* the parsers of the imported files tell this thread's handler */
  xmlStructuredErrorFunc prev = xmlStructuredError;
  void *prev_ctx = xmlStructuredErrorContext;
  xmlSetStructuredErrorFunc(&told, on_schema_error);
  compiling = 1;
  if (kind == XMT_SCHEMA_XLIFF20) {
    name = "set of XLIFF 2.0 schemas";
    doc = xmlReadMemory(all20, (int)sizeof all20 - 1, SCHEME "2.0/all.xsd",
                        NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
    pc = doc != NULL ? xmlSchemaNewDocParserCtxt(doc) : NULL;
  } else {
    if (kind == XMT_SCHEMA_XLIFF12_STRICT) {
      file = "xliff-core-1.2-strict.xsd";
      name = "XLIFF 1.2 strict schema";
    }
    char url[128];
    snprintf(url, sizeof url, SCHEME "%s", file);
    doc = xmlReadFile(url, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR);
    if (doc != NULL && xmlDocGetRootElement(doc) != NULL)
      tune12(xmlDocGetRootElement(doc));
    /* a file that cannot be read is libxml2's to tell, as for an import */
    pc = doc != NULL ? xmlSchemaNewDocParserCtxt(doc)
                     : xmlSchemaNewParserCtxt(url);
  }
  xmlSchemaPtr schema = NULL;
  if (pc != NULL) {
    xmlSchemaSetParserStructuredErrors(pc, on_schema_error, &told);
    schema = xmlSchemaParse(pc);
    xmlSchemaFreeParserCtxt(pc);
  }
  compiling = 0;
  xmlFreeDoc(doc);
  xmlSetStructuredErrorFunc(prev_ctx, prev);
  if (schema != NULL && (told.first[0] != '\0' || told.nomem)) {
    xmlSchemaFree(schema);
    schema = NULL;
  }
  /* the shipped schemas compile (the tests see to it): when they do not,
   * an allocation failed, told or not (libxml2 2.9 sometimes reads the
   * NULL it got as a value: "'(null)' is not a valid value") */
  const char *dir = getenv("XLIFFMT_SCHEMA_DIR");
  int shipped = dir == NULL || dir[0] == '\0';
  if (schema == NULL) {
    if (pc == NULL || told.nomem || shipped)
      xmt_error_nomem(err);
    else
      xmt_error_set(err, XMT_ERR_INTERNAL,
                    "the %s in XLIFFMT_SCHEMA_DIR does not compile: %s", name,
                    told.first[0] != '\0' ? told.first : "no message");
  }
  return schema;
}

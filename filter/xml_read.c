/* xml_read.c -- reading a whole XML document with libxml2 (SRX rules,
 * stylesheets, documents to report on), with the position and message of
 * its first error: libxml2's last one is often a consequence of it. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "xml_read_private.h"

struct first_error {
  int seen;
  unsigned long line, column;
  char message[256];
};

static void on_xml_error(void *user, xmlErrorPtr e) {
  xmlParserCtxtPtr ctxt = user;
  struct first_error *fe = ctxt != NULL ? ctxt->_private : NULL;
  if (fe == NULL || fe->seen || e == NULL || e->level < XML_ERR_ERROR)
    return;
  fe->seen = 1;
  fe->line = e->line > 0 ? (unsigned long)e->line : 0;
  fe->column = e->int2 > 0 ? (unsigned long)e->int2 : 0;
  snprintf(fe->message, sizeof fe->message, "%s",
           e->message != NULL ? e->message : "error");
  size_t n = strlen(fe->message);
  while (n > 0 && (fe->message[n - 1] == '\n' || fe->message[n - 1] == ' '))
    fe->message[--n] = '\0';
}

static int read_fp(void *fp, char *buf, int len) {
  size_t n = fread(buf, 1, (size_t)len, fp);
  return n == 0 && ferror((FILE *)fp) ? -1 : (int)n;
}

static int close_fp(void *fp) { return fclose(fp); }

/* path read by libxml2 from base/'s input file: a named pipe no program
 * writes into is given up after 10 s (libxml2's own open would wait for
 * ever). NULL with err set then; other failures are libxml2's to tell. */
static xmlDocPtr read_path(struct xmt_error_store *err, xmlParserCtxtPtr ctxt,
                           const char *path, int options, int *gave_up) {
  FILE *fp = xmt_input_file_open(path);
  if (fp == NULL && errno == ETIMEDOUT) {
    char why[200];
    xmt_error_at(err, XMT_ERR_IO, XMT_IN(path), "%s",
                 xmt_input_file_why(errno, why, sizeof why));
    *gave_up = 1;
    return NULL;
  }
  if (fp == NULL)
    return xmlCtxtReadFile(ctxt, path, NULL, options);
  return xmlCtxtReadIO(ctxt, read_fp, close_fp, fp, path, NULL, options);
}

xmlDocPtr xmt_xml_read(struct xmt_error_store *err, const char *path,
                       const char *text, size_t len, int options,
                       const char *what) {
  if (text != NULL && len > (size_t)INT_MAX) {
    xmt_error_at(err, XMT_ERR_USAGE, XMT_IN(path), "%s is over 2 GB", what);
    return NULL;
  }
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (ctxt == NULL) {
    xmt_error_at(err, XMT_ERR_NOMEM, XMT_IN(path), "%s",
                 xmt_strerror(XMT_ERR_NOMEM));
    return NULL;
  }
  struct first_error fe;
  memset(&fe, 0, sizeof fe);
  ctxt->_private = &fe;
  ctxt->sax->serror = on_xml_error;
  options |= XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
             XML_PARSE_BIG_LINES;
  int gave_up = 0;
  xmlDocPtr doc = text != NULL ? xmlCtxtReadMemory(ctxt, text, (int)len, path,
                                                   NULL, options)
                               : read_path(err, ctxt, path, options, &gave_up);
  if (gave_up) {
    xmlFreeParserCtxt(ctxt);
    return NULL;
  }
  if (doc == NULL || !ctxt->wellFormed || xmlDocGetRootElement(doc) == NULL) {
    if (!fe.seen)
      snprintf(fe.message, sizeof fe.message, "no root element");
    xmt_error_at(err, XMT_ERR_XML, XMT_AT(path, fe.line, fe.column),
                 "%s is not well-formed XML: %s", what, fe.message);
    xmlFreeDoc(doc);
    doc = NULL;
  }
  xmlFreeParserCtxt(ctxt);
  return doc;
}

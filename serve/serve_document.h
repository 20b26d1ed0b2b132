/* serve_document.h -- xliffmt serve: DeepL's document API. Its endpoints
 * are in serve_document.c; the documents kept in the server's own folder,
 * and the threads that translate them, each with a filter of its own and
 * each document within --document-timeout, in serve_docstore.c. */
#ifndef XMT_SERVE_DOCUMENT_H
#define XMT_SERVE_DOCUMENT_H

#include "serve.h"

#define SERVE_DOC_MAX_SIZE ((size_t)10 << 20) /* --max-document-size */
#define SERVE_DOC_MAX_COUNT 64                /* --max-documents */
#define SERVE_DOC_EXPIRY 3600                 /* --document-expiry */
#define SERVE_DOC_THREADS 2                   /* --document-threads */
#define SERVE_DOC_TIMEOUT 600                 /* --document-timeout */
/* An upload's body: the document and the form's other fields. */
#define SERVE_DOC_FORM_ROOM ((size_t)64 << 10)
#define SERVE_DOC_ID_LEN 32  /* hexadecimal digits, as DeepL's */
#define SERVE_DOC_KEY_LEN 64 /* hexadecimal digits, as DeepL's */

/* --- The endpoints (serve_document.c) --------------------------------------
 */
/* The route of /v2/document, /v2/document/ID or /v2/document/ID/result,
 * or NULL. */
const struct serve_route *serve_document_route(const char *path);
/* 1 when rq uploads a document, whose body may be as large as a document
 * and the form around it. */
int serve_document_is_upload(const struct serve_request *rq);
/* 1 when rq asks for a document's status or its download, which a
 * stopping server still answers until its drain ends. */
int serve_document_is_poll(const struct serve_request *rq);
/* The largest body rq may send, and the error of a larger one. */
size_t serve_document_body_limit(const struct serve_request *rq);
void serve_document_too_large(struct serve_request *rq);

/* --- The documents (serve_docstore.c) --------------------------------------
 */
struct serve_doc_upload {
  const char *bytes; /* the file */
  size_t len;
  const char *name;   /* the client's name of it: messages and the download's
                         name only, never a file of the server's */
  const char *auth;   /* the key of the upload ("": none) */
  const char *client; /* the address it came from */
  struct serve_pair pair;
};

/* The server's folder (made under --document-dir, TMPDIR or /tmp) and the
 * threads; 0 after reporting a failure. */
int serve_docs_start(struct serve_server *sv);
/* Interrupts the translations under way, ends the threads, deletes every
 * document and the folder. */
void serve_docs_stop(struct serve_server *sv);
/* The documents a stop waits for: queued, translating, translated and
 * not downloaded, failed and the failure not told (by a status or a
 * download). */
size_t serve_docs_pending(struct serve_docs *d);
/* 1 when a new upload from address client may be read: the documents
 * kept, those being stored and uploading others whose bodies are still
 * read leave room for it, or would once the documents of other addresses
 * beyond --max-documents-per-client, finished, are deleted for it. Else 0
 * with DeepL's 429 as the reply, before its body is read: the bodies
 * read at once are bounded by --max-documents. */
int serve_docs_room(struct serve_docs *d, size_t uploading, const char *client,
                    struct serve_reply *r);
/* Keeps a document and queues it for translation: the reply is its id
 * and key, or DeepL's error (too many documents kept, the disk). With
 * no room, the oldest finished document of the address keeping the most
 * beyond --max-documents-per-client, another than u's, is deleted (its
 * status then 404, as an expired one's) to make some. The
 * addresses take turns: a document waits behind those of other addresses
 * with as many not yet translated or fewer, so that one address's many
 * do not hold back another's one. */
void serve_docs_add(struct serve_docs *d, const struct serve_doc_upload *u,
                    struct serve_reply *r);
/* The status of document id, given key by the holder of auth; 404 when
 * there is none (wrong key, another auth key, expired, downloaded). */
void serve_docs_status(struct serve_docs *d, const char *id, const char *key,
                       const char *auth, struct serve_reply *r);
/* The translated document as the reply, then forgotten (DeepL keeps none
 * after its download); 503 while it is not done, 404 as the status. */
void serve_docs_take(struct serve_docs *d, const char *id, const char *key,
                     const char *auth, struct serve_reply *r);

#endif

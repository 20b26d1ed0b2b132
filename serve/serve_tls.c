/* serve_tls.c -- xliffmt serve over HTTPS: the certificate and key of
 * --tls-cert and --tls-key read and checked with GnuTLS (the library
 * libmicrohttpd serves TLS with) before the server listens, so that a
 * missing file, one that is not PEM or a key that is not the
 * certificate's is named at once, and not found by libmicrohttpd after
 * the address is taken. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

/* A PEM file larger than this is no certificate chain. */
#define TLS_FILE_MAX ((size_t)1 << 20)

/* The whole of path, NUL-terminated, in *out; 0 after reporting. */
static int read_pem(const char *path, char **out, size_t *len) {
  FILE *fp = xmt_input_file_open(path); /* a named pipe: waited 10 s */
  if (fp == NULL) {
    char why[200];
    xmt_cli_say("xliffmt: %s: %s\n", path,
                xmt_input_file_why(errno, why, sizeof why));
    return 0;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  int ok = buf != NULL;
  while (ok) {
    n += fread(buf + n, 1, cap - n, fp);
    if (n < cap)
      break;
    char *grown = cap < TLS_FILE_MAX ? realloc(buf, 2 * cap + 1) : NULL;
    if (grown == NULL) {
      xmt_cli_say("xliffmt: %s: %s\n", path,
                  cap < TLS_FILE_MAX ? "out of memory"
                                     : "larger than 1 MiB: not a PEM file");
      ok = 0;
    }
    buf = grown != NULL ? grown : buf;
    cap *= 2;
  }
  if (ok && ferror(fp)) {
    xmt_cli_say("xliffmt: %s: cannot read: %s\n", path, strerror(errno));
    ok = 0;
  }
  fclose(fp);
  if (!ok) {
    free(buf);
    return 0;
  }
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return 1;
}

/* 1 when cert holds at least one PEM certificate and nothing else
 * GnuTLS refuses. */
static int cert_ok(const gnutls_datum_t *cert) {
  gnutls_x509_crt_t *crts = NULL;
  unsigned n = 0;
  if (serve_gnutls.x509_crt_list_import2(&crts, &n, cert, GNUTLS_X509_FMT_PEM,
                                         0) < 0)
    return 0;
  for (unsigned i = 0; i < n; i++)
    serve_gnutls.x509_crt_deinit(crts[i]);
  (*serve_gnutls.free)(crts);
  return n > 0;
}

/* 1 when key is a PEM private key without a password. */
static int key_ok(const gnutls_datum_t *key) {
  gnutls_x509_privkey_t k;
  if (serve_gnutls.x509_privkey_init(&k) < 0)
    return 0;
  int r = serve_gnutls.x509_privkey_import2(k, key, GNUTLS_X509_FMT_PEM, NULL,
                                            GNUTLS_PKCS_PLAIN);
  serve_gnutls.x509_privkey_deinit(k);
  return r >= 0;
}

/* What libmicrohttpd does with them: GnuTLS's status of the pair (0
 * when it takes it). */
static int pair_ok(const gnutls_datum_t *cert, const gnutls_datum_t *key) {
  gnutls_certificate_credentials_t cred;
  int r = serve_gnutls.certificate_allocate_credentials(&cred);
  if (r < 0)
    return r;
  r = serve_gnutls.certificate_set_x509_key_mem2(cred, cert, key,
                                                 GNUTLS_X509_FMT_PEM, NULL, 0);
  serve_gnutls.certificate_free_credentials(cred);
  return r < 0 ? r : 0;
}

int serve_tls_load(struct serve_server *sv) {
  const struct serve_settings *s = sv->set;
  if (s->tls_cert == NULL)
    return 1;
  size_t cert_len = 0, key_len = 0;
  if (!read_pem(s->tls_cert, &sv->tls_cert_pem, &cert_len) ||
      !read_pem(s->tls_key, &sv->tls_key_pem, &key_len))
    return 0;
  gnutls_datum_t cert = {(unsigned char *)sv->tls_cert_pem, (unsigned)cert_len};
  gnutls_datum_t key = {(unsigned char *)sv->tls_key_pem, (unsigned)key_len};
  if (!cert_ok(&cert)) {
    xmt_cli_say("xliffmt: %s: no PEM certificate in it (--tls-cert)\n",
                s->tls_cert);
    return 0;
  }
  if (!key_ok(&key)) {
    xmt_cli_say("xliffmt: %s: no PEM private key in it, or one with a "
                "password (--tls-key)\n",
                s->tls_key);
    return 0;
  }
  int r = pair_ok(&cert, &key);
  if (r == GNUTLS_E_CERTIFICATE_KEY_MISMATCH)
    xmt_cli_say("xliffmt: %s: not the key of the certificate in %s "
                "(--tls-key, --tls-cert)\n",
                s->tls_key, s->tls_cert);
  else if (r < 0)
    xmt_cli_say("xliffmt: %s, %s: GnuTLS refuses the certificate and key: "
                "%s\n",
                s->tls_cert, s->tls_key, serve_gnutls.strerror(r));
  return r == 0;
}

int serve_tls_supported(void) {
  return serve_mhd.is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

void serve_tls_free(struct serve_server *sv) {
  /* The key's bytes are not left in freed memory. */
  if (sv->tls_key_pem != NULL)
    serve_gnutls.memset(sv->tls_key_pem, 0, strlen(sv->tls_key_pem));
  free(sv->tls_key_pem);
  free(sv->tls_cert_pem);
  sv->tls_key_pem = sv->tls_cert_pem = NULL;
}

/* mhd_api.h -- the libmicrohttpd and GnuTLS functions xliffmt serve calls,
 * through tables filled when serve starts (mhd_api.c): other commands do
 * not load either library, nor what they pull in, nor run their
 * constructors. The types and constants are microhttpd.h's and
 * gnutls.h's. */
#ifndef XMT_SERVE_MHD_API_H
#define XMT_SERVE_MHD_API_H

#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

struct serve_mhd_api {
  struct MHD_Daemon *(*start_daemon)(unsigned int flags, uint16_t port,
                                     MHD_AcceptPolicyCallback apc,
                                     void *apc_cls,
                                     MHD_AccessHandlerCallback dh, void *dh_cls,
                                     ...);
  MHD_socket (*quiesce_daemon)(struct MHD_Daemon *daemon);
  void (*stop_daemon)(struct MHD_Daemon *daemon);
  const union MHD_ConnectionInfo *(*get_connection_info)(
      struct MHD_Connection *connection, enum MHD_ConnectionInfoType info_type,
      ...);
  int (*get_connection_values_n)(struct MHD_Connection *connection,
                                 enum MHD_ValueKind kind,
                                 MHD_KeyValueIteratorN iterator,
                                 void *iterator_cls);
  const char *(*lookup_connection_value)(struct MHD_Connection *connection,
                                         enum MHD_ValueKind kind,
                                         const char *key);
  void (*suspend_connection)(struct MHD_Connection *connection);
  void (*resume_connection)(struct MHD_Connection *connection);
  struct MHD_Response *(*create_response_from_buffer)(
      size_t size, void *buffer, enum MHD_ResponseMemoryMode mode);
  struct MHD_Response *(*create_response_from_fd)(size_t size, int fd);
  enum MHD_Result (*add_response_header)(struct MHD_Response *response,
                                         const char *header,
                                         const char *content);
  enum MHD_Result (*queue_response)(struct MHD_Connection *connection,
                                    unsigned int status_code,
                                    struct MHD_Response *response);
  void (*destroy_response)(struct MHD_Response *response);
  enum MHD_Result (*is_feature_supported)(enum MHD_FEATURE feature);
};

struct serve_gnutls_api {
  int (*x509_crt_list_import2)(gnutls_x509_crt_t **certs, unsigned int *size,
                               const gnutls_datum_t *data,
                               gnutls_x509_crt_fmt_t format,
                               unsigned int flags);
  void (*x509_crt_deinit)(gnutls_x509_crt_t cert);
  int (*x509_privkey_init)(gnutls_x509_privkey_t *key);
  int (*x509_privkey_import2)(gnutls_x509_privkey_t key,
                              const gnutls_datum_t *data,
                              gnutls_x509_crt_fmt_t format,
                              const char *password, unsigned int flags);
  void (*x509_privkey_deinit)(gnutls_x509_privkey_t key);
  int (*certificate_allocate_credentials)(
      gnutls_certificate_credentials_t *res);
  int (*certificate_set_x509_key_mem2)(gnutls_certificate_credentials_t res,
                                       const gnutls_datum_t *cert,
                                       const gnutls_datum_t *key,
                                       gnutls_x509_crt_fmt_t type,
                                       const char *pass, unsigned int flags);
  void (*certificate_free_credentials)(gnutls_certificate_credentials_t sc);
  const char *(*strerror)(int error);
  void (*memset)(void *data, int c, size_t size);
  /* A variable, not a function: GnuTLS's deallocator. */
  gnutls_free_function *free;
};

/* Filled by serve_libs_load; read-only afterwards (before any thread). */
extern struct serve_mhd_api serve_mhd;
extern struct serve_gnutls_api serve_gnutls;

/* The libraries loaded: configure's sonames (XMT_LIBMICROHTTPD_SONAME,
 * XMT_LIBGNUTLS_SONAME). */
extern const char *serve_mhd_soname;
extern const char *serve_gnutls_soname;

/* Loads both libraries and fills the tables: 1, or 0 with "cannot load
 * SONAME: " and the loader's reason in errbuf. Once, before any thread. */
int serve_libs_load(char *errbuf, size_t errlen);

#endif /* XMT_SERVE_MHD_API_H */

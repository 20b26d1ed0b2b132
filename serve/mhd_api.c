/* mhd_api.c -- libmicrohttpd and GnuTLS loaded when xliffmt serve starts
 * (mhd_api.h says why), as libcurl and libpq are (base/dynlib.c). */
#include "config.h"

#include <stddef.h>

#include "base_private.h"
#include "mhd_api.h"

struct serve_mhd_api serve_mhd;
struct serve_gnutls_api serve_gnutls;
const char *serve_mhd_soname = XMT_LIBMICROHTTPD_SONAME;
const char *serve_gnutls_soname = XMT_LIBGNUTLS_SONAME;

#define SYM(field, fn)                                                         \
  { #fn, offsetof(struct serve_mhd_api, field) }
static const struct xmt_dynsym mhd_syms[] = {
    SYM(start_daemon, MHD_start_daemon),
    SYM(quiesce_daemon, MHD_quiesce_daemon),
    SYM(stop_daemon, MHD_stop_daemon),
    SYM(get_connection_info, MHD_get_connection_info),
    SYM(get_connection_values_n, MHD_get_connection_values_n),
    SYM(lookup_connection_value, MHD_lookup_connection_value),
    SYM(suspend_connection, MHD_suspend_connection),
    SYM(resume_connection, MHD_resume_connection),
    SYM(create_response_from_buffer, MHD_create_response_from_buffer),
    SYM(create_response_from_fd, MHD_create_response_from_fd),
    SYM(add_response_header, MHD_add_response_header),
    SYM(queue_response, MHD_queue_response),
    SYM(destroy_response, MHD_destroy_response),
    SYM(is_feature_supported, MHD_is_feature_supported),
};
#undef SYM

#define SYM(field, fn)                                                         \
  { #fn, offsetof(struct serve_gnutls_api, field) }
static const struct xmt_dynsym gnutls_syms[] = {
    SYM(x509_crt_list_import2, gnutls_x509_crt_list_import2),
    SYM(x509_crt_deinit, gnutls_x509_crt_deinit),
    SYM(x509_privkey_init, gnutls_x509_privkey_init),
    SYM(x509_privkey_import2, gnutls_x509_privkey_import2),
    SYM(x509_privkey_deinit, gnutls_x509_privkey_deinit),
    SYM(certificate_allocate_credentials,
        gnutls_certificate_allocate_credentials),
    SYM(certificate_set_x509_key_mem2, gnutls_certificate_set_x509_key_mem2),
    SYM(certificate_free_credentials, gnutls_certificate_free_credentials),
    SYM(strerror, gnutls_strerror),
    SYM(memset, gnutls_memset),
    /* gnutls.h defines a macro of this name: the symbol is the variable */
    {"gnutls_free", offsetof(struct serve_gnutls_api, free)},
};
#undef SYM

/* The tables' types are the headers': checked here, at compile time. */
static void check_mhd(const struct serve_mhd_api *t) {
  XMT_DYNSYM_CHECK(t->start_daemon, MHD_start_daemon);
  XMT_DYNSYM_CHECK(t->quiesce_daemon, MHD_quiesce_daemon);
  XMT_DYNSYM_CHECK(t->stop_daemon, MHD_stop_daemon);
  XMT_DYNSYM_CHECK(t->get_connection_info, MHD_get_connection_info);
  XMT_DYNSYM_CHECK(t->get_connection_values_n, MHD_get_connection_values_n);
  XMT_DYNSYM_CHECK(t->lookup_connection_value, MHD_lookup_connection_value);
  XMT_DYNSYM_CHECK(t->suspend_connection, MHD_suspend_connection);
  XMT_DYNSYM_CHECK(t->resume_connection, MHD_resume_connection);
  XMT_DYNSYM_CHECK(t->create_response_from_buffer,
                   MHD_create_response_from_buffer);
  XMT_DYNSYM_CHECK(t->create_response_from_fd, MHD_create_response_from_fd);
  XMT_DYNSYM_CHECK(t->add_response_header, MHD_add_response_header);
  XMT_DYNSYM_CHECK(t->queue_response, MHD_queue_response);
  XMT_DYNSYM_CHECK(t->destroy_response, MHD_destroy_response);
  XMT_DYNSYM_CHECK(t->is_feature_supported, MHD_is_feature_supported);
}

static void check_gnutls(const struct serve_gnutls_api *t) {
  XMT_DYNSYM_CHECK(t->x509_crt_list_import2, gnutls_x509_crt_list_import2);
  XMT_DYNSYM_CHECK(t->x509_crt_deinit, gnutls_x509_crt_deinit);
  XMT_DYNSYM_CHECK(t->x509_privkey_init, gnutls_x509_privkey_init);
  XMT_DYNSYM_CHECK(t->x509_privkey_import2, gnutls_x509_privkey_import2);
  XMT_DYNSYM_CHECK(t->x509_privkey_deinit, gnutls_x509_privkey_deinit);
  XMT_DYNSYM_CHECK(t->certificate_allocate_credentials,
                   gnutls_certificate_allocate_credentials);
  XMT_DYNSYM_CHECK(t->certificate_set_x509_key_mem2,
                   gnutls_certificate_set_x509_key_mem2);
  XMT_DYNSYM_CHECK(t->certificate_free_credentials,
                   gnutls_certificate_free_credentials);
  XMT_DYNSYM_CHECK(t->strerror, gnutls_strerror);
  XMT_DYNSYM_CHECK(t->memset, gnutls_memset);
  XMT_DYNSYM_CHECK(t->free, gnutls_free); /* a variable: its address */
}

int serve_libs_load(char *errbuf, size_t errlen) {
  check_mhd(&serve_mhd);
  check_gnutls(&serve_gnutls);
  /* libmicrohttpd first: it needs GnuTLS itself, the one loaded next. */
  return xmt_dynlib_load(serve_mhd_soname, mhd_syms,
                         sizeof mhd_syms / sizeof *mhd_syms, &serve_mhd, errbuf,
                         errlen) == 0 &&
         xmt_dynlib_load(serve_gnutls_soname, gnutls_syms,
                         sizeof gnutls_syms / sizeof *gnutls_syms,
                         &serve_gnutls, errbuf, errlen) == 0;
}

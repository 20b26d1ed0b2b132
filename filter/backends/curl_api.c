/* curl_api.c -- libcurl loaded the first time an http engine is made
 * (curl_api.h says why). */
#include "config.h"

#include <pthread.h>
#include <stddef.h>

#include "curl_api.h"
#include "filter_private.h"

const char *xmt_curl_soname = XMT_LIBCURL_SONAME;

#define SYM(field, fn)                                                         \
  { #fn, offsetof(struct xmt_curl_api, field) }
static const struct xmt_dynsym syms[] = {
    SYM(global_init, curl_global_init),
    SYM(global_cleanup, curl_global_cleanup),
    SYM(easy_init, curl_easy_init),
    SYM(easy_cleanup, curl_easy_cleanup),
    SYM(easy_reset, curl_easy_reset),
    SYM(easy_setopt, curl_easy_setopt),
    SYM(easy_getinfo, curl_easy_getinfo),
    SYM(easy_strerror, curl_easy_strerror),
    SYM(easy_escape, curl_easy_escape),
    SYM(free, curl_free),
    SYM(multi_init, curl_multi_init),
    SYM(multi_cleanup, curl_multi_cleanup),
    SYM(multi_setopt, curl_multi_setopt),
    SYM(multi_add_handle, curl_multi_add_handle),
    SYM(multi_remove_handle, curl_multi_remove_handle),
    SYM(multi_perform, curl_multi_perform),
    SYM(multi_info_read, curl_multi_info_read),
    SYM(multi_wait, curl_multi_wait),
    SYM(slist_append, curl_slist_append),
    SYM(slist_free_all, curl_slist_free_all),
};
#undef SYM

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct xmt_curl_api api;
static int failed;
static char why[512];

/* The table's types are curl.h's: checked here, at compile time. */
static void check_types(const struct xmt_curl_api *t) {
  XMT_DYNSYM_CHECK(t->global_init, curl_global_init);
  XMT_DYNSYM_CHECK(t->global_cleanup, curl_global_cleanup);
  XMT_DYNSYM_CHECK(t->easy_init, curl_easy_init);
  XMT_DYNSYM_CHECK(t->easy_cleanup, curl_easy_cleanup);
  XMT_DYNSYM_CHECK(t->easy_reset, curl_easy_reset);
  XMT_DYNSYM_CHECK(t->easy_setopt, curl_easy_setopt);
  XMT_DYNSYM_CHECK(t->easy_getinfo, curl_easy_getinfo);
  XMT_DYNSYM_CHECK(t->easy_strerror, curl_easy_strerror);
  XMT_DYNSYM_CHECK(t->easy_escape, curl_easy_escape);
  XMT_DYNSYM_CHECK(t->free, curl_free);
  XMT_DYNSYM_CHECK(t->multi_init, curl_multi_init);
  XMT_DYNSYM_CHECK(t->multi_cleanup, curl_multi_cleanup);
  XMT_DYNSYM_CHECK(t->multi_setopt, curl_multi_setopt);
  XMT_DYNSYM_CHECK(t->multi_add_handle, curl_multi_add_handle);
  XMT_DYNSYM_CHECK(t->multi_remove_handle, curl_multi_remove_handle);
  XMT_DYNSYM_CHECK(t->multi_perform, curl_multi_perform);
  XMT_DYNSYM_CHECK(t->multi_info_read, curl_multi_info_read);
  XMT_DYNSYM_CHECK(t->multi_wait, curl_multi_wait);
  XMT_DYNSYM_CHECK(t->slist_append, curl_slist_append);
  XMT_DYNSYM_CHECK(t->slist_free_all, curl_slist_free_all);
}

static void load(void) {
  check_types(&api);
  failed = xmt_dynlib_load(xmt_curl_soname, syms, sizeof syms / sizeof *syms,
                           &api, why, sizeof why);
}

const struct xmt_curl_api *xmt_curl_api(char *errbuf, size_t errlen) {
  int once_status = pthread_once(&once, load);
  return xmt_dynlib_result(once_status, failed, why, xmt_curl_soname, &api,
                           errbuf, errlen);
}

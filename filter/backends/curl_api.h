/* curl_api.h -- the libcurl functions the http backend calls, through a
 * table filled the first time an http engine is made (curl_api.c): the
 * library and its dependencies are not loaded by runs without one. The
 * types are curl.h's. Not installed. */
#ifndef XMT_CURL_API_H
#define XMT_CURL_API_H

#ifndef XMT_BUILDING_LIBRARY
#error "curl_api.h is internal to libxliffmt"
#endif

#include <curl/curl.h>
#include <stddef.h>

struct xmt_curl_api {
  CURLcode (*global_init)(long flags);
  void (*global_cleanup)(void);
  CURL *(*easy_init)(void);
  void (*easy_cleanup)(CURL *easy);
  void (*easy_reset)(CURL *easy);
  CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
  CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
  const char *(*easy_strerror)(CURLcode code);
  char *(*easy_escape)(CURL *easy, const char *string, int length);
  void (*free)(void *p);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_cleanup)(CURLM *multi);
  CURLMcode (*multi_setopt)(CURLM *multi, CURLMoption option, ...);
  CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
  CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
  CURLMcode (*multi_perform)(CURLM *multi, int *running);
  CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
  CURLMcode (*multi_wait)(CURLM *multi, struct curl_waitfd extra[],
                          unsigned int nextra, int timeout_ms, int *numfds);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
  void (*slist_free_all)(struct curl_slist *list);
};

/* The library loaded: configure's soname (XMT_LIBCURL_SONAME). Tests set
 * it before the first call of xmt_curl_api to see a load fail. */
extern const char *xmt_curl_soname;

/* libcurl's functions, loaded once for the process (thread-safe); NULL
 * when the library or one of its functions cannot be loaded, with
 * "cannot load SONAME: " and the loader's reason in errbuf. */
const struct xmt_curl_api *xmt_curl_api(char *errbuf, size_t errlen);

#endif /* XMT_CURL_API_H */

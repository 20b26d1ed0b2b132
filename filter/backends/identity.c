/* identity.c -- the identity backend: the translation of a segment
 * is the segment itself. For tests and for checking a round trip. */
#include "config.h"

#include <stdio.h>

#include "backends_private.h"

static int identity_open(void *user, const struct xmt_backend_config *config,
                         void **state, char *errbuf, size_t errlen) {
  (void)user;
  if ((config->spec != NULL && *config->spec != '\0') ||
      config->options[0] != NULL) {
    snprintf(errbuf, errlen, "the identity backend takes no options");
    return 1;
  }
  *state = NULL;
  return 0;
}

static int identity_translate(void *state,
                              const struct xmt_mt_request *requests,
                              xmt_mt_response *const *responses, size_t n) {
  (void)state;
  for (size_t i = 0; i < n; i++)
    if (xmt_mt_response_set_text(responses[i], requests[i].text,
                                 requests[i].len) != XMT_OK)
      return 1;
  return 0;
}

static void identity_close(void *state) { (void)state; }

const struct xmt_backend xmt_backend_identity = {
    XMT_BACKEND_ABI_VERSION, "identity",     identity_open,
    identity_translate,      identity_close, NULL};

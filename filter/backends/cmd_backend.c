/* cmd_backend.c -- the cmd backend (--mt cmd:COMMAND) and its options,
 * on the engine subprocess of cmd.c: one segment per line, answers
 * checked by the check line that ends each batch (see cmd.c). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "backends_private.h"

/* --- The cmd backend ------------------------------------------------------
 */

static int cmd_open(void *user, const struct xmt_backend_config *config,
                    void **state, char *errbuf, size_t errlen) {
  (void)user;
  static const char *const known[] = {"flush", "timeout", "max-failures", NULL};
  if (config->spec == NULL || config->spec[0] == '\0') {
    snprintf(errbuf, errlen,
             "the cmd backend needs a command: --mt cmd:'COMMAND'");
    return 1;
  }
  if (xmt_backend_check_options(config, "cmd", known, errbuf, errlen) != 0)
    return 1;
  struct xmt_engine_config ec;
  memset(&ec, 0, sizeof ec);
  ec.command = config->spec;
  ec.framing = XMT_FRAME_LINE;
  const char *flush = xmt_backend_option(config, "flush");
  if (flush != NULL && strcmp(flush, "null") == 0) {
    ec.framing = XMT_FRAME_NULL_BATCH;
  } else if (flush != NULL && strcmp(flush, "line") != 0) {
    snprintf(errbuf, errlen,
             "cmd backend: flush is 'line' or 'null', not '%.32s'", flush);
    return 1;
  }
  ec.timeout_ms = config->timeout_ms;
  ec.max_answer = config->max_answer_bytes;
  ec.interrupted = config->interrupted;
  if (xmt_backend_option_seconds(config, "cmd", "timeout", &ec.timeout_ms,
                                 errbuf, errlen) != 0 ||
      xmt_backend_option_uint(config, "cmd", "max-failures", 1, 1000,
                              &ec.max_failures, errbuf, errlen) != 0)
    return 1;
  char name[128];
  snprintf(name, sizeof name, "engine '%.100s'", config->spec);
  ec.name = name;
  struct xmt_engine *e = xmt_engine_new(&ec, errbuf, errlen);
  if (e == NULL)
    return 1;
  *state = e;
  return 0;
}

static int cmd_translate(void *state, const struct xmt_mt_request *requests,
                         xmt_mt_response *const *responses, size_t n) {
  int rc = xmt_engine_translate(state, requests, responses, n);
  if (rc == 0 || rc == XMT_ENGINE_INTERRUPTED)
    return rc != 0;
  xmt_mt_response_out_of_memory(responses[0]);
  return 1;
}

static void cmd_close(void *state) { xmt_engine_free(state); }

const struct xmt_backend xmt_backend_cmd = {
    XMT_BACKEND_ABI_VERSION, "cmd", cmd_open, cmd_translate, cmd_close, NULL};

/* plugin.c -- the plugin backend: a backend in a shared library.
 *
 * The library exports an xmt_backend_plugin_fn named
 * XMT_BACKEND_PLUGIN_SYMBOL (xmt_filter.h), returning a vtable that lives
 * as long as the library is loaded. It is loaded with RTLD_NOW | RTLD_LOCAL, so
 * a missing symbol shows at load time and two plug-ins cannot clash; its
 * abi_version must be XMT_BACKEND_ABI_VERSION. open, translate and close
 * are forwarded; the user pointer the plug-in gets is NULL; the library
 * is unloaded after close. Options go to the plug-in unchanged. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends_private.h"

struct plugin {
  void *handle;
  const struct xmt_backend *vt;
  void *state; /* the plug-in's */
};

static int plugin_open(void *user, const struct xmt_backend_config *config,
                       void **state, char *errbuf, size_t errlen) {
  (void)user;
  const char *path = config->spec;
  if (path == NULL || *path == '\0') {
    snprintf(errbuf, errlen,
             "the plugin backend needs a library: --mt plugin:PATH.so");
    return 1;
  }
  /* dlopen searches the library path for a bare name: a plug-in is a file
   * the user names, so make it a path. */
  char local[4096];
  if (strchr(path, '/') == NULL) {
    snprintf(local, sizeof local, "./%s", path);
    path = local;
  }
  dlerror();
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(errbuf, errlen, "cannot load plug-in %s: %s", config->spec,
             why != NULL ? why : "unknown error");
    return 1;
  }
  /* A data pointer to a function pointer: the POSIX dlsym idiom. */
  xmt_backend_plugin_fn entry;
  void *sym = dlsym(handle, XMT_BACKEND_PLUGIN_SYMBOL);
  memcpy(&entry, &sym, sizeof entry);
  const struct xmt_backend *vt = entry != NULL ? entry() : NULL;
  const char *problem = NULL;
  char why[160];
  if (entry == NULL) {
    problem =
        "does not export " XMT_BACKEND_PLUGIN_SYMBOL "() (see xmt_backends(3))";
  } else if (vt == NULL) {
    problem = XMT_BACKEND_PLUGIN_SYMBOL "() returned NULL";
  } else if (vt->abi_version < 2 || vt->abi_version > XMT_BACKEND_ABI_VERSION) {
    snprintf(why, sizeof why,
             "has backend ABI version %d; this xliffmt needs 2 to %d "
             "(rebuild it against this version's xmt_filter.h)",
             vt->abi_version, XMT_BACKEND_ABI_VERSION);
    problem = why;
  } else if (vt->translate == NULL) {
    problem = "has no translate()";
  }
  if (problem != NULL) {
    snprintf(errbuf, errlen, "plug-in %s %s", config->spec, problem);
    dlclose(handle);
    return 1;
  }
  struct plugin *p = xmt_backend_state_new(sizeof *p, errbuf, errlen);
  if (p == NULL) {
    dlclose(handle);
    return 1;
  }
  p->handle = handle;
  p->vt = vt;
  const struct xmt_backend_config inner = {NULL,
                                           config->options,
                                           config->source_language,
                                           config->target_language,
                                           config->timeout_ms,
                                           config->max_answer_bytes,
                                           config->interrupted};
  if (vt->open != NULL && vt->open(NULL, &inner, &p->state, errbuf, errlen)) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s", errbuf);
    snprintf(errbuf, errlen, "plug-in %s (%s): %s", config->spec,
             vt->name != NULL ? vt->name : "?", msg[0] ? msg : "failed");
    dlclose(handle);
    free(p);
    return 1;
  }
  *state = p;
  return 0;
}

static int plugin_translate(void *state, const struct xmt_mt_request *requests,
                            xmt_mt_response *const *responses, size_t n) {
  struct plugin *p = state;
  return p->vt->translate(p->state, requests, responses, n);
}

/* Version 2 plug-ins end before translate_markup: never read it there. */
static int plugin_translate_markup(void *state,
                                   const struct xmt_mt_request *requests,
                                   xmt_mt_response *const *responses,
                                   size_t n) {
  struct plugin *p = state;
  if (p->vt->abi_version >= 3 && p->vt->translate_markup != NULL)
    return p->vt->translate_markup(p->state, requests, responses, n);
  return p->vt->translate(p->state, requests, responses, n);
}

static void plugin_close(void *state) {
  struct plugin *p = state;
  if (p == NULL)
    return;
  if (p->vt->close != NULL)
    p->vt->close(p->state);
  dlclose(p->handle);
  free(p);
}

/* Not named after the plug-ins' entry point, which is a function. */
const struct xmt_backend xmt_backend_plugin_loader = {
    XMT_BACKEND_ABI_VERSION, "plugin",     plugin_open,
    plugin_translate,        plugin_close, plugin_translate_markup};

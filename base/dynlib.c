/* dynlib.c -- a library loaded the first time it is needed: libcurl for
 * the http backend, libpq for the PostgreSQL cache. Linked, they cost
 * every run the loader's work for them and all they pull in (TLS,
 * Kerberos, LDAP...) before main; most runs use neither.
 *
 * Loaded with RTLD_NOW | RTLD_LOCAL, as plug-ins are: a missing symbol
 * shows here, and the library's names stay out of the global scope. A
 * library loaded is never unloaded (libcurl's global state and libpq's
 * threads outlive any one handle). */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "base_private.h"

int xmt_dynlib_load(const char *soname, const struct xmt_dynsym *syms, size_t n,
                    void *table, char *errbuf, size_t errlen) {
  dlerror();
  void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    snprintf(errbuf, errlen, "cannot load %s: %s", soname,
             why != NULL ? why : "unknown error");
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    dlerror();
    void *sym = dlsym(handle, syms[i].name);
    if (sym == NULL) {
      const char *why = dlerror();
      snprintf(errbuf, errlen, "cannot load %s: %s", soname,
               why != NULL ? why : "no such symbol");
      dlclose(handle);
      return 1;
    }
    /* A data pointer to a function pointer: the POSIX dlsym idiom. */
    memcpy((char *)table + syms[i].offset, &sym, sizeof sym);
  }
  return 0;
}

const void *xmt_dynlib_result(int once_status, int failed, const char *why,
                              const char *soname, const void *table,
                              char *errbuf, size_t errlen) {
  if (once_status != 0) {
    snprintf(errbuf, errlen, "cannot load %s", soname);
    return NULL;
  }
  if (failed) {
    snprintf(errbuf, errlen, "%s", why);
    return NULL;
  }
  return table;
}

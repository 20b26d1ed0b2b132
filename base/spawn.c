/* spawn.c -- the library's one way to start another program: the cmd and
 * apertium MT engines (filter/backends/cmd.c) and lt-print for Apertium
 * dictionaries (filter/lexicon/lexicon_apertium.c). posix_spawn, so that
 * nothing of ours runs in the child between fork and exec, whatever
 * threads hold locks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base_private.h"

/* The file actions: each standard descriptor of the child from one of
 * ours, then the others from /dev/null (after: one of ours may be 0-2). */
static int plan_fds(posix_spawn_file_actions_t *fa, const int fd[3]) {
  int rc = 0;
  for (int i = 0; i < 3 && rc == 0; i++)
    if (fd[i] != XMT_SPAWN_DEVNULL)
      rc = posix_spawn_file_actions_adddup2(fa, fd[i], i);
  for (int i = 0; i < 3 && rc == 0; i++)
    if (fd[i] == XMT_SPAWN_DEVNULL)
      rc = posix_spawn_file_actions_addopen(fa, i, "/dev/null",
                                            i == 0 ? O_RDONLY : O_WRONLY, 0);
  return rc;
}

/* A group of its own, SIGPIPE's and SIGXFSZ's default action (whatever
 * the caller's are) and no blocked signals. */
static int plan_group(posix_spawnattr_t *at) {
  sigset_t none, dfl;
  sigemptyset(&none);
  sigemptyset(&dfl);
  sigaddset(&dfl, SIGPIPE);
  sigaddset(&dfl, SIGXFSZ);
  int rc = posix_spawnattr_setflags(at, POSIX_SPAWN_SETPGROUP |
                                            POSIX_SPAWN_SETSIGDEF |
                                            POSIX_SPAWN_SETSIGMASK);
  if (rc == 0)
    rc = posix_spawnattr_setpgroup(at, 0);
  if (rc == 0)
    rc = posix_spawnattr_setsigdefault(at, &dfl);
  if (rc == 0)
    rc = posix_spawnattr_setsigmask(at, &none);
  return rc;
}

int xmt_spawn(const struct xmt_spawn *s, pid_t *pid) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  int rc = posix_spawn_file_actions_init(&fa);
  if (rc != 0)
    return rc;
  if ((rc = posix_spawnattr_init(&at)) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    return rc;
  }
  rc = plan_fds(&fa, s->fd);
  if (rc == 0 && s->own_group)
    rc = plan_group(&at);
  if (rc == 0)
    rc = posix_spawn(pid, s->path, &fa, &at, s->argv, environ);
  posix_spawnattr_destroy(&at);
  posix_spawn_file_actions_destroy(&fa);
  return rc;
}

/* Whether path is an executable regular file (following links). */
static int runnable(const char *path) {
  struct stat sb;
  return access(path, X_OK) == 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

char *xmt_spawn_find(const char *prog, int *nomem) {
  *nomem = 0;
  if (strchr(prog, '/') != NULL) {
    if (access(prog, X_OK) != 0)
      return NULL;
    char *p = xmt_strdup(prog);
    *nomem = p == NULL;
    return p;
  }
  const char *path = getenv("PATH");
  if (path == NULL)
    path = "/usr/bin:/bin";
  size_t plen = strlen(prog);
  for (const char *p = path;;) {
    const char *colon = strchr(p, ':');
    size_t n = colon != NULL ? (size_t)(colon - p) : strlen(p);
    /* an empty entry is the current directory */
    const char *dir = n > 0 ? p : ".";
    size_t dn = n > 0 ? n : 1;
    char *full = malloc(dn + plen + 2);
    if (full == NULL) {
      *nomem = 1;
      return NULL;
    }
    memcpy(full, dir, dn);
    full[dn] = '/';
    memcpy(full + dn + 1, prog, plen + 1);
    if (runnable(full))
      return full;
    free(full);
    if (colon == NULL)
      return NULL;
    p = colon + 1;
  }
}

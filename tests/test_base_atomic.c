/* test_base_atomic.c -- base/atomic_file.c: outputs that appear whole or
 * not at all, the modes they get, and what is written in place. */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base_private.h"
#include "harness.h"

static int suite_init(void) {
  /* The modes asserted below are those of umask 022. */
  umask(022);
  return xmt_test_tmpdir_create("base-atomic");
}

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs(text, fp);
  CU_ASSERT_EQUAL(fclose(fp), 0);
}

static void assert_content(const char *path, const char *expected) {
  size_t len = 0;
  char *got = xmt_test_read_file(path, &len);
  CU_ASSERT_PTR_NOT_NULL_FATAL(got);
  XMT_ASSERT_BYTES_EQUAL(got, len, expected, strlen(expected));
  free(got);
}

static unsigned mode_of(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0u;
}

/* Whether the scratch folder's file system makes unnamed files. */
static int have_tmpfile(void) {
#ifdef O_TMPFILE
  int fd = open(xmt_test_tmp_path(""), O_TMPFILE | O_WRONLY, 0600);
  if (fd < 0)
    return 0;
  close(fd);
  return 1;
#else
  return 0;
#endif
}

/* Writes text to path through the module and commits. */
static xmt_status put(const char *path, unsigned flags, const char *text) {
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  xmt_status st = xmt_atomic_file_open(&af, path, flags);
  if (st == XMT_OK) {
    fputs(text, xmt_atomic_file_stream(&af));
    st = xmt_atomic_file_commit(&af);
  }
  xmt_atomic_file_abort(&af);
  return st;
}

static void test_new_file(void) {
  const char *out = xmt_test_tmp_path("new.xlf");
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  CU_ASSERT_EQUAL_FATAL(xmt_atomic_file_open(&af, out, 0), XMT_OK);
  fputs("<xliff/>\n", xmt_atomic_file_stream(&af));
  /* Unnamed while written where the file system allows it; else one
   * temporary file beside the output. Never the output itself. */
  CU_ASSERT_EQUAL(af.unnamed, have_tmpfile());
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), have_tmpfile() ? 0 : 1);
  CU_ASSERT_EQUAL(access(out, F_OK), -1);
  CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_OK);
  CU_ASSERT_PTR_NULL(xmt_atomic_file_stream(&af));
  CU_ASSERT_EQUAL(xmt_atomic_file_errno(&af), 0);
  xmt_atomic_file_abort(&af); /* safe after commit */
  assert_content(out, "<xliff/>\n");
  CU_ASSERT_EQUAL(mode_of(out), 0644u); /* 0666 less the umask */
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  CU_ASSERT_EQUAL(unlink(out), 0);
}

static void test_replace_keeps_mode(void) {
  const char *out = xmt_test_tmp_path("private.xlf");
  write_file(out, "old");
  CU_ASSERT_EQUAL_FATAL(chmod(out, 0600), 0);
  CU_ASSERT_EQUAL(put(out, 0, "new"), XMT_OK);
  assert_content(out, "new");
  CU_ASSERT_EQUAL(mode_of(out), 0600u);
  CU_ASSERT_EQUAL(chmod(out, 0640), 0);
  CU_ASSERT_EQUAL(put(out, XMT_ATOMIC_FILE_NAMED_, "newer"), XMT_OK);
  assert_content(out, "newer");
  CU_ASSERT_EQUAL(mode_of(out), 0640u);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  CU_ASSERT_EQUAL(unlink(out), 0);
}

/* A group the process may give its files other than its own: root's any,
 * else one of its supplementary groups; -1 when there is none. */
static gid_t other_group(void) {
  if (geteuid() == 0)
    return getegid() != 1 ? 1 : 2;
  gid_t groups[64];
  int n = getgroups(64, groups);
  for (int i = 0; i < n; i++)
    if (groups[i] != getegid())
      return groups[i];
  return (gid_t)-1;
}

/* The group that could read the file still can, by either way of
 * making it. */
static void test_replace_keeps_group(void) {
  const char *out = xmt_test_tmp_path("group.xlf");
  gid_t gid = other_group();
  write_file(out, "old");
  if (gid == (gid_t)-1 || chown(out, (uid_t)-1, gid) != 0) {
    CU_ASSERT_EQUAL(unlink(out), 0);
    return; /* no group to give: nothing to check here */
  }
  CU_ASSERT_EQUAL_FATAL(chmod(out, 0640), 0);
  for (unsigned i = 0; i < 2; i++) {
    CU_ASSERT_EQUAL(put(out, i ? XMT_ATOMIC_FILE_NAMED_ : 0, "new"), XMT_OK);
    assert_content(out, "new");
    struct stat st;
    CU_ASSERT_EQUAL_FATAL(stat(out, &st), 0);
    CU_ASSERT_EQUAL(st.st_gid, gid);
    CU_ASSERT_EQUAL(st.st_mode & 07777, 0640u);
  }
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  CU_ASSERT_EQUAL(unlink(out), 0);
}

static void test_abort(void) {
  const char *out = xmt_test_tmp_path("kept.xlf");
  write_file(out, "old");
  unsigned modes[2] = {0, XMT_ATOMIC_FILE_NAMED_};
  for (int i = 0; i < 2; i++) {
    struct xmt_atomic_file af;
    memset(&af, 0, sizeof af);
    CU_ASSERT_EQUAL_FATAL(xmt_atomic_file_open(&af, out, modes[i]), XMT_OK);
    fputs("new", xmt_atomic_file_stream(&af));
    CU_ASSERT_EQUAL(fflush(xmt_atomic_file_stream(&af)), 0);
    xmt_atomic_file_abort(&af);
    CU_ASSERT_PTR_NULL(xmt_atomic_file_stream(&af));
    assert_content(out, "old");
    CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1); /* nothing beside */
  }
  /* Freed without a commit: the same. */
  xmt_atomic_file *af = xmt_atomic_file_new();
  CU_ASSERT_PTR_NOT_NULL_FATAL(af);
  CU_ASSERT_EQUAL(xmt_atomic_file_open(af, out, XMT_ATOMIC_FILE_NAMED_),
                  XMT_OK);
  fputs("new", xmt_atomic_file_stream(af));
  xmt_atomic_file_free(af);
  xmt_atomic_file_free(NULL);
  assert_content(out, "old");
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  CU_ASSERT_EQUAL(unlink(out), 0);
}

/* Without O_TMPFILE: a temporary name beside the output, created with the
 * mode of any new file (no umask() read), renamed at commit. */
static void test_named_fallback(void) {
  const char *out = xmt_test_tmp_path("named.xlf");
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  CU_ASSERT_EQUAL_FATAL(xmt_atomic_file_open(&af, out, XMT_ATOMIC_FILE_NAMED_),
                        XMT_OK);
  CU_ASSERT_EQUAL(af.unnamed, 0);
  CU_ASSERT_PTR_NOT_NULL_FATAL(af.tmp_path);
  size_t len = strlen(out);
  CU_ASSERT_EQUAL(strlen(af.tmp_path), len + strlen(".tmpXXXXXX"));
  CU_ASSERT_EQUAL(strncmp(af.tmp_path, out, len), 0);
  CU_ASSERT_EQUAL(strncmp(af.tmp_path + len, ".tmp", 4), 0);
  CU_ASSERT_EQUAL(mode_of(af.tmp_path), 0644u);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%s", af.tmp_path);
  fputs("named", xmt_atomic_file_stream(&af));
  CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_OK);
  CU_ASSERT_EQUAL(access(tmp, F_OK), -1);
  assert_content(out, "named");
  CU_ASSERT_EQUAL(mode_of(out), 0644u);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  xmt_atomic_file_abort(&af);
  CU_ASSERT_EQUAL(unlink(out), 0);
}

static void test_private(void) {
  const char *out = xmt_test_tmp_path("cache.pairs");
  CU_ASSERT_EQUAL(put(out, XMT_ATOMIC_FILE_PRIVATE | XMT_ATOMIC_FILE_SYNC, "a"),
                  XMT_OK);
  CU_ASSERT_EQUAL(mode_of(out), 0600u);
  CU_ASSERT_EQUAL(chmod(out, 0644), 0);
  CU_ASSERT_EQUAL(put(out,
                      XMT_ATOMIC_FILE_PRIVATE | XMT_ATOMIC_FILE_SYNC |
                          XMT_ATOMIC_FILE_NAMED_,
                      "b"),
                  XMT_OK);
  assert_content(out, "b");
  CU_ASSERT_EQUAL(mode_of(out), 0600u);
  CU_ASSERT_EQUAL(unlink(out), 0);
}

/* A link to a file is replaced by the new file; its target stays. */
static void test_symlink(void) {
  const char *target = xmt_test_tmp_path("target.xlf");
  const char *link = xmt_test_tmp_path("link.xlf");
  write_file(target, "target");
  CU_ASSERT_EQUAL_FATAL(chmod(target, 0640), 0);
  CU_ASSERT_EQUAL_FATAL(symlink("target.xlf", link), 0);
  CU_ASSERT_EQUAL(put(link, 0, "through"), XMT_OK);
  struct stat st;
  CU_ASSERT_EQUAL_FATAL(lstat(link, &st), 0);
  CU_ASSERT_TRUE(S_ISREG(st.st_mode));
  CU_ASSERT_EQUAL(st.st_mode & 07777, 0640u);
  assert_content(link, "through");
  assert_content(target, "target");
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 2);
  CU_ASSERT_EQUAL(unlink(link), 0);
  CU_ASSERT_EQUAL(unlink(target), 0);
}

/* A FIFO and /dev/null are written in place, never renamed over. */
static void test_in_place(void) {
  const char *fifo = xmt_test_tmp_path("fifo");
  CU_ASSERT_EQUAL_FATAL(mkfifo(fifo, 0600), 0);
  /* A reader first, so that opening the FIFO to write does not wait. */
  int rd = open(fifo, O_RDONLY | O_NONBLOCK);
  CU_ASSERT_FATAL(rd >= 0);
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  CU_ASSERT_EQUAL_FATAL(xmt_atomic_file_open(&af, fifo, 0), XMT_OK);
  CU_ASSERT_PTR_NULL(af.tmp_path);
  fputs("through the pipe", xmt_atomic_file_stream(&af));
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_OK);
  char buf[64];
  ssize_t n = read(rd, buf, sizeof buf);
  CU_ASSERT_EQUAL(n, (ssize_t)strlen("through the pipe"));
  CU_ASSERT_EQUAL(memcmp(buf, "through the pipe", 16), 0);
  close(rd);
  struct stat st;
  CU_ASSERT_EQUAL(lstat(fifo, &st), 0);
  CU_ASSERT_TRUE(S_ISFIFO(st.st_mode));
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 1);
  CU_ASSERT_EQUAL(unlink(fifo), 0);

  CU_ASSERT_EQUAL_FATAL(xmt_atomic_file_open(&af, "/dev/null", 0), XMT_OK);
  CU_ASSERT_PTR_NULL(af.tmp_path);
  fputs("nothing", xmt_atomic_file_stream(&af));
  CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_OK);
  CU_ASSERT_EQUAL(stat("/dev/null", &st), 0);
  CU_ASSERT_TRUE(S_ISCHR(st.st_mode));

  /* "-" and NULL: standard output, left open. */
  CU_ASSERT_EQUAL(xmt_atomic_file_open(&af, "-", 0), XMT_OK);
  CU_ASSERT_PTR_EQUAL(xmt_atomic_file_stream(&af), stdout);
  CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_OK);
  CU_ASSERT_EQUAL(xmt_atomic_file_open(&af, NULL, 0), XMT_OK);
  CU_ASSERT_PTR_EQUAL(xmt_atomic_file_stream(&af), stdout);
  xmt_atomic_file_abort(&af);
  CU_ASSERT_NOT_EQUAL(fflush(stdout), EOF);
}

static void test_errors(void) {
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  const struct xmt_error *e = xmt_atomic_file_error(&af);
  const char *missing = xmt_test_tmp_path("no/such/dir/out.xlf");
  CU_ASSERT_EQUAL(xmt_atomic_file_open(&af, missing, 0), XMT_ERR_WRITE);
  CU_ASSERT_EQUAL(xmt_atomic_file_errno(&af), ENOENT);
  CU_ASSERT_EQUAL(e->status, XMT_ERR_WRITE);
  CU_ASSERT_STRING_EQUAL(e->file, missing);
  CU_ASSERT_STRING_EQUAL(e->message,
                         "cannot create output: No such file or directory");
  CU_ASSERT_PTR_NULL(xmt_atomic_file_stream(&af));

  const char *dir = xmt_test_tmp_path("");
  CU_ASSERT_EQUAL(xmt_atomic_file_open(&af, dir, 0), XMT_ERR_WRITE);
  CU_ASSERT_EQUAL(xmt_atomic_file_errno(&af), EISDIR);
  CU_ASSERT_STRING_EQUAL(e->message, "cannot create output: Is a directory");
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);

  CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_ERR_USAGE);

  /* A full device: the commit says why, naming it. */
  if (access("/dev/full", W_OK) == 0) {
    CU_ASSERT_EQUAL_FATAL(xmt_atomic_file_open(&af, "/dev/full", 0), XMT_OK);
    fputs("x", xmt_atomic_file_stream(&af));
    CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_ERR_WRITE);
    CU_ASSERT_EQUAL(xmt_atomic_file_errno(&af), ENOSPC);
    CU_ASSERT_STRING_EQUAL(e->file, "/dev/full");
    CU_ASSERT_STRING_EQUAL(e->message, "cannot write: No space left on device");
    CU_ASSERT_PTR_NULL(xmt_atomic_file_stream(&af));
  }
  xmt_atomic_file_abort(&af);
  CU_ASSERT_EQUAL(xmt_atomic_file_errno(&af), 0);
  CU_ASSERT_EQUAL(e->status, XMT_OK);
}

/* A commit that fails says why and leaves no target: here the temporary
 * file is moved away before the rename. */
static void test_failed_commit(void) {
  const char *sub = xmt_test_tmp_path("sub");
  CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
  char out[512];
  snprintf(out, sizeof out, "%s/out.xlf", sub);
  struct xmt_atomic_file af;
  memset(&af, 0, sizeof af);
  CU_ASSERT_EQUAL_FATAL(xmt_atomic_file_open(&af, out, XMT_ATOMIC_FILE_NAMED_),
                        XMT_OK);
  fputs("lost", xmt_atomic_file_stream(&af));
  char tmp[512];
  snprintf(tmp, sizeof tmp, "%s", af.tmp_path);
  /* The temporary file moves out of the way: the rename cannot find it. */
  char moved[512];
  snprintf(moved, sizeof moved, "%s", xmt_test_tmp_path("moved"));
  CU_ASSERT_EQUAL_FATAL(rename(tmp, moved), 0);
  CU_ASSERT_EQUAL(xmt_atomic_file_commit(&af), XMT_ERR_WRITE);
  CU_ASSERT_EQUAL(xmt_atomic_file_errno(&af), ENOENT);
  CU_ASSERT_STRING_EQUAL(xmt_atomic_file_error(&af)->message,
                         "cannot write: No such file or directory");
  CU_ASSERT_EQUAL(access(out, F_OK), -1);
  xmt_atomic_file_abort(&af);
  CU_ASSERT_EQUAL(unlink(moved), 0);
  CU_ASSERT_EQUAL(rmdir(sub), 0);
  CU_ASSERT_EQUAL(xmt_test_files_in_tmpdir(), 0);
}

static CU_TestInfo atomic_tests[] = {
    {"a new file", test_new_file},
    {"a replaced file keeps its mode", test_replace_keeps_mode},
    {"a replaced file keeps its group", test_replace_keeps_group},
    {"abort leaves the old file", test_abort},
    {"the named temporary file", test_named_fallback},
    {"private files", test_private},
    {"a symbolic link", test_symlink},
    {"FIFO, device, standard output", test_in_place},
    {"errors", test_errors},
    {"a failed commit", test_failed_commit},
    CU_TEST_INFO_NULL,
};

CU_SuiteInfo xmt_test_suites[] = {
    {"base/atomic_file", suite_init, xmt_test_tmpdir_remove, NULL, NULL,
     atomic_tests},
    CU_SUITE_INFO_NULL,
};

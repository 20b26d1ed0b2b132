/* test_api_null.c -- one rule for a NULL handle, everywhere in the public
 * API (libxliffmt(3)): a function given NULL for its handle does nothing
 * and returns XMT_ERR_USAGE, or NULL (xmt_segment_text: ""), or 0 (a free
 * function, or another that returns nothing, is a no-op); a function
 * returning a status given NULL for every pointer returns XMT_ERR_USAGE.
 * Every function the public headers declare is in the table, made from
 * the headers by tests/gen_null_calls.sh when the test is built, so a new
 * one is called too. Each call runs in a child process: a crash names the
 * function. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "xliffmt.h"

enum null_kind { NULL_STATUS, NULL_POINTER, NULL_NUMBER, NULL_VOID, NULL_SKIP };

struct null_result {
  xmt_status status;
  const void *pointer;
  long long number;
};

struct null_call {
  const char *name;
  enum null_kind kind;
  int takes_handle;
  void (*call)(struct null_result *r);
};

#include "null_calls.h"

enum { NCALLS = sizeof null_calls / sizeof *null_calls };

/* The one function whose NULL gives "" rather than NULL, as its header
 * says: the text of no segment is empty (callers print it as it is). */
static const char *const empty_text[] = {"xmt_segment_text"};

static int gives_empty_text(const char *name) {
  for (size_t i = 0; i < sizeof empty_text / sizeof *empty_text; i++)
    if (strcmp(name, empty_text[i]) == 0)
      return 1;
  return 0;
}

/* In a child: 0 when the call keeps the rule, 1 when it returns
 * something else. */
static int keeps_rule(const struct null_call *c) {
  struct null_result r = {XMT_OK, &r, -1};
  c->call(&r);
  switch (c->kind) {
  case NULL_STATUS:
    return r.status == XMT_ERR_USAGE ? 0 : 1;
  case NULL_POINTER:
    if (gives_empty_text(c->name))
      return r.pointer != NULL && *(const char *)r.pointer == '\0' ? 0 : 1;
    return r.pointer == NULL ? 0 : 1;
  case NULL_NUMBER:
    return r.number == 0 ? 0 : 1;
  default:
    return 0;
  }
}

static void test_every_function(void) {
  size_t called = 0, bad = 0;
  for (size_t i = 0; i < NCALLS; i++) {
    const struct null_call *c = &null_calls[i];
    if (c->kind == NULL_SKIP)
      continue;
    called++;
    fflush(NULL);
    pid_t pid = fork();
    CU_ASSERT_FATAL(pid >= 0);
    if (pid == 0)
      _exit(keeps_rule(c));
    int status = 0;
    CU_ASSERT_FATAL(waitpid(pid, &status, 0) == pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      continue;
    bad++;
    if (WIFSIGNALED(status))
      printf("\n  %s(NULL, ...): killed by signal %d", c->name,
             WTERMSIG(status));
    else
      printf("\n  %s(NULL, ...): returns %s", c->name,
             c->kind == NULL_STATUS    ? "a status other than XMT_ERR_USAGE"
             : c->kind == NULL_POINTER ? "a pointer other than NULL"
                                       : "a value other than 0");
  }
  printf("\n  %zu of %u public functions called with NULL, %zu broke the "
         "rule\n",
         called, (unsigned)NCALLS, bad);
  CU_ASSERT_EQUAL(bad, 0);
  /* The table is the headers': more than a handful of functions, and the
   * ones the filter's setters were missing among them. */
  CU_ASSERT(called > 100);
}

/* The generator saw the setters whose NULL crashed, and takes them as
 * functions of a handle. */
static void test_table_has_setters(void) {
  int seen = 0;
  for (size_t i = 0; i < NCALLS; i++)
    if (strcmp(null_calls[i].name, "xmt_filter_set_languages") == 0 ||
        strcmp(null_calls[i].name, "xmt_filter_translate_buffer") == 0)
      seen += null_calls[i].takes_handle && null_calls[i].kind == NULL_STATUS;
  CU_ASSERT_EQUAL(seen, 2);
}

static CU_TestInfo tests[] = {
    {"every public function with NULL", test_every_function},
    {"the table has the setters", test_table_has_setters},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {{"api_null", NULL, NULL, NULL, NULL, tests},
                                  CU_SUITE_INFO_NULL};

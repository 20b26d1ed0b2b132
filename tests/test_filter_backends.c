/* test_filter_backends.c -- the built-in MT backends through their vtables:
 * pseudo outputs and alignments; cmd with real engines and a fake one that
 * crashes, hangs, miscounts, answers without end and writes garbage, a
 * failed batch sent again a segment at a time and never one answer off;
 * apertium; plug-in loading; http against a local fake service; the JSON
 * reader; and the pipeline's own checks of answers (empty, too long) and
 * of an engine that keeps failing. */
#include "config.h"

#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends_private.h"
#include "filter_private.h"
#include "harness.h"

#define MAXN 16

/* One backend opened for a test, with its last batch's responses. */
struct bk {
  const struct xmt_backend *vt;
  void *state;
  char err[512];
  struct xmt_mt_response resp[MAXN];
  double seconds; /* of the last batch */
};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The maximum answer size the next bk_open passes (0: the default). */
static size_t bk_max_answer;

/* Opens backend name; options is a NULL-terminated list or NULL. Returns
 * open()'s result; the message is in b->err. */
static int bk_open(struct bk *b, const char *name, const char *spec,
                   const char *const *options, const char *src, const char *tgt,
                   unsigned timeout_ms) {
  static const char *const none[] = {NULL};
  memset(b, 0, sizeof *b);
  b->vt = xmt_backend_builtin(name);
  CU_ASSERT_PTR_NOT_NULL_FATAL(b->vt);
  const struct xmt_backend_config config = {
      spec,       options != NULL ? options : none,
      src,        tgt,
      timeout_ms, bk_max_answer != 0 ? bk_max_answer : XMT_DEFAULT_MAX_ANSWER,
      NULL};
  return b->vt->open(NULL, &config, &b->state, b->err, sizeof b->err);
}

/* Translates texts (n of them) with en->es requests; returns translate()'s
 * result. */
static int bk_call(struct bk *b, const char *const *texts, size_t n,
                   int markup) {
  struct xmt_mt_request req[MAXN];
  xmt_mt_response *ptrs[MAXN];
  for (size_t i = 0; i < n; i++) {
    xmt_mt_response_reset(&b->resp[i]);
    req[i].segment_id = "u1";
    req[i].text = texts[i];
    req[i].len = strlen(texts[i]);
    req[i].source_language = "en";
    req[i].target_language = "es";
    ptrs[i] = &b->resp[i];
  }
  double t0 = now_s();
  int rc = markup ? b->vt->translate_markup(b->state, req, ptrs, n)
                  : b->vt->translate(b->state, req, ptrs, n);
  b->seconds = now_s() - t0;
  return rc;
}

static int bk_run(struct bk *b, const char *const *texts, size_t n) {
  return bk_call(b, texts, n, 0);
}

static void bk_close(struct bk *b) {
  if (b->vt != NULL && b->vt->close != NULL)
    b->vt->close(b->state);
  for (size_t i = 0; i < MAXN; i++)
    xmt_mt_response_free(&b->resp[i]);
  b->vt = NULL;
}

/* The text of response i, or "" when it has none. */
static const char *text_of(const struct bk *b, size_t i) {
  return b->resp[i].has_text && b->resp[i].text.data != NULL
             ? b->resp[i].text.data
             : "";
}

#define ASSERT_TEXT(b, i, expected)                                            \
  do {                                                                         \
    CU_ASSERT_PTR_NULL((b)->resp[i].error);                                    \
    XMT_ASSERT_BYTES_EQUAL(text_of((b), (i)), strlen(text_of((b), (i))),       \
                           (expected), strlen(expected));                      \
  } while (0)

/* Response i failed with a message containing part. */
static int failed_with(const struct bk *b, size_t i, const char *part) {
  const char *e = b->resp[i].error;
  if (e == NULL || strstr(e, part) == NULL) {
    fprintf(stderr, "\nsegment %zu: expected an error with \"%s\", got %s%s\n",
            i, part,
            e != NULL ? "" : "none; text: ", e != NULL ? e : text_of(b, i));
    return 0;
  }
  return !b->resp[i].has_text;
}

/* Response i failed, the engine's failure (set_engine_error) or not. */
static int engine_failed(const struct bk *b, size_t i, int expected) {
  if (b->resp[i].engine_failed == expected)
    return 1;
  fprintf(stderr, "\nsegment %zu: expected %s, got: %s\n", i,
          expected ? "an engine failure" : "a segment failure",
          b->resp[i].error != NULL ? b->resp[i].error : "no error");
  return 0;
}

static int contains(const char *s, const char *part) {
  if (strstr(s, part) != NULL)
    return 1;
  fprintf(stderr, "\n\"%s\" does not contain \"%s\"\n", s, part);
  return 0;
}

/* --- pseudo -------------------------------------------------------------- */

static void test_pseudo_exact(void) {
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "pseudo", NULL, NULL, "en", "es", 0), 0);
  const char *texts[] = {"Read the manual now.", "Hello", "  Größe: 5 cm  ",
                         "one two three"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 4), 0);
  /* 20 characters: 6 of padding; words 1-2 and 3-4 swapped. */
  ASSERT_TEXT(&b, 0, "[thé Réád ñów. máñúál ~~~~~~]");
  CU_ASSERT_STRING_EQUAL(b.resp[0].alignment, "1-1 0-2 3-3 2-4");
  CU_ASSERT_STRING_EQUAL(b.resp[0].source_tokens, "Read the manual now.");
  CU_ASSERT_STRING_EQUAL(b.resp[0].target_tokens,
                         "[ thé Réád ñów. máñúál ~~~~~~ ]");
  ASSERT_TEXT(&b, 1, "[Hélló ~~]");
  CU_ASSERT_STRING_EQUAL(b.resp[1].alignment, "0-1");
  /* Blanks at the ends stay outside; non-ASCII letters stay as they are. */
  ASSERT_TEXT(&b, 2, "  [5 Größé: çm ~~~~]  ");
  CU_ASSERT_STRING_EQUAL(b.resp[2].alignment, "1-1 0-2 2-3");
  ASSERT_TEXT(&b, 3, "[twó óñé thréé ~~~~]");
  /* The same request gives the same answer. */
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  ASSERT_TEXT(&b, 0, "[thé Réád ñów. máñúál ~~~~~~]");
  bk_close(&b);
}

/* The token strings find their tokens in the texts, as the pipeline will
 * look for them, and every link is in range. */
static void test_pseudo_tokens_map(void) {
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "pseudo", NULL, NULL, "en", "es", 0), 0);
  const char *texts[] = {"R&D <b> costs \"100 %\" [1] a|b.",
                         "Article 5 (a) thereof,", "x"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  xmt_tokens *st = xmt_tokens_new(), *tt = xmt_tokens_new();
  xmt_alignment *al = xmt_alignment_new();
  for (size_t i = 0; i < 3; i++) {
    const struct xmt_mt_response *r = &b.resp[i];
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->alignment);
    size_t bad = 0;
    CU_ASSERT_EQUAL(xmt_tokens_map(st, texts[i], strlen(texts[i]),
                                   r->source_tokens, strlen(r->source_tokens),
                                   XMT_TOKENS_MOSES, &bad),
                    XMT_OK);
    CU_ASSERT_EQUAL(xmt_tokens_map(tt, r->text.data, r->text.len,
                                   r->target_tokens, strlen(r->target_tokens),
                                   XMT_TOKENS_MOSES, &bad),
                    XMT_OK);
    /* The parser checks every index against the token counts. */
    CU_ASSERT_EQUAL(xmt_alignment_parse(al, r->alignment, strlen(r->alignment),
                                        xmt_tokens_count(st),
                                        xmt_tokens_count(tt), &bad),
                    XMT_OK);
    /* Every word is linked once. */
    CU_ASSERT_EQUAL(xmt_alignment_count(al), xmt_tokens_count(st));
  }
  xmt_alignment_free(al);
  xmt_tokens_free(st);
  xmt_tokens_free(tt);
  bk_close(&b);
}

static void test_pseudo_options(void) {
  struct bk b;
  const char *plain[] = {"accents=no", "brackets=no", "expand=0",
                         "reorder=none", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "pseudo", NULL, plain, "en", "es", 0), 0);
  const char *texts[] = {"Read the manual now."};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  ASSERT_TEXT(&b, 0, "Read the manual now.");
  CU_ASSERT_STRING_EQUAL(b.resp[0].alignment, "0-0 1-1 2-2 3-3");
  bk_close(&b);
  const char *rotate[] = {"reorder=rotate", "expand=100", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "pseudo", NULL, rotate, "en", "es", 0), 0);
  const char *t2[] = {"ab cd ef"};
  CU_ASSERT_EQUAL(bk_run(&b, t2, 1), 0);
  ASSERT_TEXT(&b, 0, "[éf áb çd ~~~~~~~~]");
  CU_ASSERT_STRING_EQUAL(b.resp[0].alignment, "2-1 0-2 1-3");
  bk_close(&b);
  const char *bad[] = {"reorder=shuffle", NULL};
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "pseudo", NULL, bad, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "swap, rotate or none"));
  const char *unknown[] = {"colour=red", NULL};
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "pseudo", NULL, unknown, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "unknown option 'colour=red' for the pseudo "
                            "backend (known: accents brackets expand "
                            "reorder alignment)"));
  /* alignment=no: the text alone, for the built-in aligner. */
  const char *no_links[] = {"alignment=no", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "pseudo", NULL, no_links, "en", "es", 0),
                        0);
  const char *one[] = {"ab cd"};
  CU_ASSERT_EQUAL(bk_run(&b, one, 1), 0);
  CU_ASSERT_PTR_NULL(b.resp[0].alignment);
  CU_ASSERT(b.resp[0].has_text);
  bk_close(&b);
}

/* --- cmd ------------------------------------------------------------------ */

static char fake_engine[4096];

static const char *fake(const char *args) {
  static char cmd[4][4400];
  static unsigned next;
  char *c = cmd[next++ % 4];
  snprintf(c, sizeof cmd[0], "exec sh '%.4096s' %.200s", fake_engine, args);
  return c;
}

/* 1 when pid is no child of ours any more (reaped, no zombie). */
static int reaped(long pid) {
  int st;
  return pid > 0 && waitpid((pid_t)pid, &st, WNOHANG) < 0 && errno == ECHILD;
}

static void test_cmd_real_engines(void) {
  struct bk b;
  const char *texts[] = {"The cat sat.", "two\nlines", "", "café ünïcödé"};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", "cat", NULL, "en", "es", 0), 0);
  long pid = xmt_engine_pid(b.state);
  CU_ASSERT(pid > 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 4), 0);
  ASSERT_TEXT(&b, 0, "The cat sat.");
  ASSERT_TEXT(&b, 1, "two lines"); /* line breaks become spaces */
  ASSERT_TEXT(&b, 2, "");
  ASSERT_TEXT(&b, 3, "café ünïcödé");
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0); /* the same process again */
  ASSERT_TEXT(&b, 0, "The cat sat.");
  CU_ASSERT_EQUAL(xmt_engine_pid(b.state), pid);
  bk_close(&b);
  CU_ASSERT(reaped(pid));

  /* tr buffers its output on a pipe: stdbuf makes it flush each line. */
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", "stdbuf -oL tr a-z A-Z", NULL, "en", "es", 0), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 2), 0);
  ASSERT_TEXT(&b, 0, "THE CAT SAT.");
  ASSERT_TEXT(&b, 1, "TWO LINES");
  bk_close(&b);

  const char *flush_line[] = {"flush=line", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", "sed -u 's/cat/dog/; s/^/> /'",
                                flush_line, "en", "es", 0),
                        0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 2), 0);
  ASSERT_TEXT(&b, 0, "> The dog sat.");
  ASSERT_TEXT(&b, 1, "> two lines");
  bk_close(&b);
}

/* Many segments and long lines: the pipes fill in both directions while
 * the engine answers, which must not deadlock. */
static void test_cmd_big_batch(void) {
  struct bk b;
  static char big[MAXN][40000];
  const char *texts[MAXN];
  for (size_t i = 0; i < MAXN; i++) {
    memset(big[i], (int)('a' + i), sizeof big[i] - 1);
    big[i][sizeof big[i] - 1] = '\0';
    texts[i] = big[i];
  }
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", "cat", NULL, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, MAXN), 0);
  for (size_t i = 0; i < MAXN; i++) {
    CU_ASSERT_PTR_NULL(b.resp[i].error);
    CU_ASSERT_EQUAL(b.resp[i].text.len, sizeof big[i] - 1);
    CU_ASSERT(b.resp[i].text.len > 0 && b.resp[i].text.data[0] == big[i][0]);
  }
  bk_close(&b);
}

/* An engine that answers one line, then crashes on the next: the batch
 * fails and is sent again a segment at a time, each engine answering one
 * before it crashes on the next. */
static void test_cmd_crash_and_restart(void) {
  struct bk b;
  const char *texts[] = {"one", "two", "three"};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("crash 1"), NULL, "en", "es", 5000), 0);
  long first = xmt_engine_pid(b.state);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  /* one: a new engine's first line; two: its second, the crash; three: a
   * third engine's first. */
  ASSERT_TEXT(&b, 0, "one");
  CU_ASSERT(failed_with(&b, 1, "engine 'exec sh "));
  CU_ASSERT(failed_with(&b, 1, "' was killed by signal 9"));
  CU_ASSERT(engine_failed(&b, 1, 1));
  ASSERT_TEXT(&b, 2, "three");
  CU_ASSERT(reaped(first));
  long third = xmt_engine_pid(b.state);
  CU_ASSERT(third > 0 && third != first);
  /* That engine has answered one line: it crashes on the next batch,
   * which fails (one segment: nothing to send again); the one after
   * starts a new engine. */
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  CU_ASSERT(failed_with(&b, 0, "killed by signal 9"));
  CU_ASSERT(reaped(third));
  CU_ASSERT_EQUAL(xmt_engine_pid(b.state), -1);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  ASSERT_TEXT(&b, 0, "one");
  long fourth = xmt_engine_pid(b.state);
  CU_ASSERT(fourth > 0 && fourth != third);
  bk_close(&b);
  CU_ASSERT(reaped(fourth));
}

static void test_cmd_restart_after_exit(void) {
  struct bk b;
  char flag[] = "/tmp/xmt-crash-once-XXXXXX";
  int fd = mkstemp(flag);
  CU_ASSERT_FATAL(fd >= 0);
  close(fd);
  unlink(flag); /* the engine creates it when it crashes */
  char args[128];
  snprintf(args, sizeof args, "crash-once %s", flag);
  const char *texts[] = {"one", "two", "three"};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", fake(args), NULL, "en", "es", 5000),
                        0);
  /* It exits after its first answer: the batch is sent again a segment
   * at a time, to an engine that works from then on. */
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "one");
  ASSERT_TEXT(&b, 1, "two");
  ASSERT_TEXT(&b, 2, "three");
  CU_ASSERT_EQUAL(access(flag, F_OK), 0);
  long pid = xmt_engine_pid(b.state);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "one");
  ASSERT_TEXT(&b, 1, "two");
  ASSERT_TEXT(&b, 2, "three");
  CU_ASSERT_EQUAL(xmt_engine_pid(b.state), pid); /* whole: kept */
  bk_close(&b);
  unlink(flag);
}

static void test_cmd_hang_times_out(void) {
  struct bk b;
  const char *texts[] = {"one", "two"};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", fake("hang"), NULL, "en", "es", 400),
                        0);
  long pid = xmt_engine_pid(b.state);
  /* The batch, then its first segment alone: two timeouts; the engine
   * hangs, so the second is not sent. */
  CU_ASSERT_EQUAL(bk_run(&b, texts, 2), 0);
  CU_ASSERT(b.seconds >= 0.75 && b.seconds < 1.15);
  CU_ASSERT(failed_with(&b, 0, "' timed out after 0.4 s"));
  CU_ASSERT(failed_with(&b, 1, "not sent: "));
  CU_ASSERT(failed_with(&b, 1, "' timed out after 0.4 s"));
  CU_ASSERT(engine_failed(&b, 0, 1));
  CU_ASSERT(engine_failed(&b, 1, 1));
  CU_ASSERT(reaped(pid)); /* killed with its whole process group */
  /* The timeout= option overrides the run's timeout. */
  double t0 = now_s();
  bk_close(&b);
  const char *opt[] = {"timeout=0.2", NULL};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("hang"), opt, "en", "es", 60000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  CU_ASSERT(b.seconds < 2);
  CU_ASSERT(failed_with(&b, 0, "timed out after 0.2 s"));
  pid = xmt_engine_pid(b.state);
  /* close() of a hanging engine is bounded too. */
  CU_ASSERT_EQUAL(bk_run(&b, texts, 0), 0);
  bk_close(&b);
  CU_ASSERT(now_s() - t0 < 6);
}

static void test_cmd_wrong_counts(void) {
  struct bk b;
  const char *texts[] = {"one", "two", "three"};
  /* One answer, then it exits after the check line: each segment alone
   * is sent to an engine that answers it and exits. The exit can be seen
   * after the next segment was written to that engine (a loaded
   * machine), and that segment then fails: either way it never gets
   * another segment's answer. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", fake("few"), NULL, "en", "es", 5000),
                        0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "one");
  for (size_t i = 1; i < 3; i++) {
    if (b.resp[i].error == NULL)
      ASSERT_TEXT(&b, i, texts[i]);
    else
      CU_ASSERT(engine_failed(&b, i, 1));
  }
  bk_close(&b);

  /* Two lines for each: never taken, the batch nor a segment alone. */
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("extra"), NULL, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  for (size_t i = 0; i < 3; i++) {
    CU_ASSERT(
        failed_with(&b, i, "answered more than one line for one segment"));
    CU_ASSERT(engine_failed(&b, i, 0));
  }
  bk_close(&b);
}

/* An engine that drops two segments' lines: the check line's answer
 * comes one line early, so the batch fails at once (no timeout), and the
 * answers that came are not taken in order (the second would be the
 * third's); alone, each segment gets its own answer, the dropped ones
 * fail, and no translation lands on another segment. */
static void test_cmd_dropped_line(void) {
  struct bk b;
  const char *texts[] = {"alpha", "bravo", "charlie", "delta"};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(
          &b, "cmd",
          "awk '/^(bravo|delta)$/ { next } { print toupper($0); fflush() }'",
          NULL, "en", "es", 5000),
      0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 4), 0);
  ASSERT_TEXT(&b, 0, "ALPHA");
  CU_ASSERT(failed_with(&b, 1,
                        "answered fewer lines than the 1 segment sent (its "
                        "answer to the check line came after 0)"));
  CU_ASSERT(engine_failed(&b, 1, 0));
  ASSERT_TEXT(&b, 2, "CHARLIE");
  CU_ASSERT(failed_with(&b, 3, "answered fewer lines than the 1 segment"));
  CU_ASSERT(b.seconds < 2);
  bk_close(&b);

  /* A line of its own before the answers (a banner), and answers that
   * are not the input (the check line's too): the banner is set aside
   * before the first request, the check line's answer learned. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd",
                                "echo READY; while IFS= read -r l; do "
                                "printf '%s!\\n' \"$l\"; done",
                                NULL, "en", "es", 2000),
                        0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "alpha!");
  ASSERT_TEXT(&b, 1, "bravo!");
  ASSERT_TEXT(&b, 2, "charlie!");
  bk_close(&b);

  /* An engine that answers the check line with an empty line cannot be
   * checked: nothing is sent to it. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", "awk '{ print \"\"; fflush() }'",
                                NULL, "en", "es", 2000),
                        0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 2), 0);
  CU_ASSERT(failed_with(&b, 0, "\" with an empty line: its answers cannot"));
  CU_ASSERT(failed_with(&b, 1, "not sent: "));
  CU_ASSERT(engine_failed(&b, 1, 1));
  bk_close(&b);
}

/* An answer without end: reading stops a little past what an answer to
 * the request may have, the engine is killed, the segment fails alone. */
static void test_cmd_answer_too_long(void) {
  struct bk b;
  const char *texts[] = {"short one", "endless two", "short three"};
  const char *cmd = "while IFS= read -r l; do case $l in endless*) "
                    "yes xxxxxxxxxxxxxxxx | tr -d '\\n';; esac; "
                    "printf '%s\\n' \"$l\"; done";
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", cmd, NULL, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "short one");
  CU_ASSERT(failed_with(&b, 1,
                        "answered more than 1200 bytes for a request of 11 "
                        "bytes (more than 16 times as long: not a "
                        "translation)"));
  CU_ASSERT(engine_failed(&b, 1, 0));
  ASSERT_TEXT(&b, 2, "short three");
  CU_ASSERT(b.seconds < 3);
  bk_close(&b);

  /* The maximum answer size, below what the request allows. */
  bk_max_answer = 10;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", "cat", NULL, "en", "es", 5000), 0);
  bk_max_answer = 0;
  const char *t2[] = {"ten bytes!", "eleven bytes"};
  CU_ASSERT_EQUAL(bk_run(&b, t2, 2), 0);
  ASSERT_TEXT(&b, 0, "ten bytes!");
  CU_ASSERT(failed_with(&b, 1,
                        "answered more than 10 bytes, the maximum answer "
                        "size"));
  bk_close(&b);
}

static int have_gawk(void) {
  return system("command -v gawk >/dev/null 2>&1") == 0;
}

static void test_cmd_null_flush(void) {
  if (!have_gawk()) {
    fprintf(stderr, "\nSKIP test_cmd_null_flush: no gawk\n");
    return;
  }
  struct bk b;
  const char *null[] = {"flush=null", NULL};
  const char *texts[] = {"one", "two", "three"};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("null-echo"), null, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "one");
  ASSERT_TEXT(&b, 1, "two");
  ASSERT_TEXT(&b, 2, "three");
  CU_ASSERT_EQUAL(bk_run(&b, texts + 1, 1), 0);
  ASSERT_TEXT(&b, 0, "two");
  bk_close(&b);

  /* A batch one line short cannot be matched up; alone, each segment
   * is answered with no line at all. */
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("null-few"), null, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  for (size_t i = 0; i < 3; i++) {
    CU_ASSERT(failed_with(&b, i, "answered 0 lines for 1 segment"));
    CU_ASSERT(engine_failed(&b, i, 0));
  }
  bk_close(&b);

  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("null-extra"), null, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  for (size_t i = 0; i < 3; i++)
    CU_ASSERT(failed_with(&b, i, "answered 2 lines for 1 segment"));
  bk_close(&b);
}

/* Apertium's framing, a NUL after each segment in and out: a record
 * dropped is never made up for by the next one, a record more never
 * shifts the answers, however slowly it comes. */
static void test_engine_null_segment(void) {
  if (!have_gawk()) {
    fprintf(stderr, "\nSKIP test_engine_null_segment: no gawk\n");
    return;
  }
  struct xmt_engine_config ec;
  memset(&ec, 0, sizeof ec);
  ec.command = "exec gawk 'BEGIN { RS = \"\\0\"; ORS = \"\" } $0 != "
               "\"bravo\" { printf \"%s\\0\", toupper($0); fflush() }'";
  ec.name = "engine 'null-segment'";
  ec.framing = XMT_FRAME_NULL_SEGMENT;
  ec.timeout_ms = 300;
  char err[256];
  struct xmt_engine *e = xmt_engine_new(&ec, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  struct bk b;
  memset(&b, 0, sizeof b);
  const char *texts[] = {"alpha", "bravo", "charlie"};
  struct xmt_mt_request req[3];
  xmt_mt_response *ptrs[3];
  for (size_t i = 0; i < 3; i++) {
    req[i] =
        (struct xmt_mt_request){"u", texts[i], strlen(texts[i]), "en", "es"};
    ptrs[i] = &b.resp[i];
  }
  CU_ASSERT_EQUAL(xmt_engine_translate(e, req, ptrs, 3), 0);
  ASSERT_TEXT(&b, 0, "ALPHA");
  CU_ASSERT(failed_with(&b, 1, "engine 'null-segment' timed out after 0.3 s"));
  ASSERT_TEXT(&b, 2, "CHARLIE");
  xmt_engine_free(e);
  for (size_t i = 0; i < 3; i++)
    xmt_mt_response_free(&b.resp[i]);

  /* The last segment answered in two records, the second a second late:
   * its first half is not taken for its translation. */
  memset(&b, 0, sizeof b);
  ec.command = "exec gawk 'BEGIN { RS = \"\\0\"; ORS = \"\" } { if ($0 == "
               "\"charlie\") { printf \"CHAR\\0\"; fflush(); "
               "system(\"sleep 1\"); printf \"LIE\\0\" } else printf "
               "\"%s\\0\", toupper($0); fflush() }'";
  ec.timeout_ms = 5000;
  e = xmt_engine_new(&ec, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL(e);
  for (size_t i = 0; i < 3; i++)
    ptrs[i] = &b.resp[i];
  CU_ASSERT_EQUAL(xmt_engine_translate(e, req, ptrs, 3), 0);
  ASSERT_TEXT(&b, 0, "ALPHA");
  ASSERT_TEXT(&b, 1, "BRAVO");
  CU_ASSERT(
      failed_with(&b, 2,
                  "engine 'null-segment' answered more than one record for one "
                  "segment"));
  CU_ASSERT_EQUAL(xmt_engine_translate(e, req, ptrs, 1), 0);
  ASSERT_TEXT(&b, 0, "ALPHA");
  xmt_engine_free(e);
  for (size_t i = 0; i < 3; i++)
    xmt_mt_response_free(&b.resp[i]);
}

static void test_cmd_garbage_and_slow(void) {
  struct bk b;
  const char *texts[] = {"one", "two", "three"};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("garbage"), NULL, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "one");
  CU_ASSERT(failed_with(&b, 1, "the answer is not valid UTF-8"));
  ASSERT_TEXT(&b, 2, "three");
  /* A bad answer is not an engine failure: the engine goes on. */
  long pid = xmt_engine_pid(b.state);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  ASSERT_TEXT(&b, 0, "one");
  CU_ASSERT_EQUAL(xmt_engine_pid(b.state), pid);
  bk_close(&b);

  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", fake("slow 0.2"), NULL, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "one");
  ASSERT_TEXT(&b, 1, "two");
  ASSERT_TEXT(&b, 2, "three");
  CU_ASSERT(b.seconds >= 0.5);
  bk_close(&b);
}

static void test_cmd_gives_up(void) {
  struct bk b;
  const char *texts[] = {"one", "two", "three", "four"};
  const char *opt[] = {"max-failures=2", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "cmd", fake("die 'engine broke down'"), opt,
                                "en", "es", 5000),
                        0);
  /* The batch fails, then one and two alone: two in a row, the rest is
   * not sent. */
  CU_ASSERT_EQUAL(bk_run(&b, texts, 4), 0);
  CU_ASSERT(failed_with(&b, 0, "exited with status 2: engine broke down"));
  CU_ASSERT(failed_with(&b, 1, "exited with status 2: engine broke down"));
  for (size_t i = 2; i < 4; i++)
    CU_ASSERT(failed_with(&b, i, "not sent: engine 'exec sh "));
  CU_ASSERT(failed_with(&b, 3,
                        "' failed 2 segments in a row sent alone (last: "
                        "engine 'exec sh "));
  CU_ASSERT(failed_with(&b, 3, "engine broke down)"));
  for (size_t i = 0; i < 4; i++)
    CU_ASSERT(engine_failed(&b, i, 1));
  /* No count from one call to the next (the run decides when to stop
   * asking): the next batch starts the engine again. */
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  CU_ASSERT(failed_with(&b, 0, "exited with status 2: engine broke down"));
  CU_ASSERT_EQUAL(xmt_engine_pid(b.state), -1);
  bk_close(&b);

  /* A command that does not exist: the shell's message reaches the user. */
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", "no-such-engine-xmt --fast", NULL, "en", "es", 5000),
      0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  CU_ASSERT(failed_with(&b, 0, "exited with status 127"));
  CU_ASSERT(failed_with(&b, 0, "not found"));
  bk_close(&b);
}

/* An engine that exits without reading: writing to it raises SIGPIPE,
 * which must neither kill us nor stay pending, and the disposition is
 * left as it was. */
static void test_cmd_sigpipe(void) {
  struct sigaction before, after;
  sigaction(SIGPIPE, NULL, &before);
  struct bk b;
  static char big[200000];
  memset(big, 'x', sizeof big - 1);
  const char *texts[] = {big, big, big};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "cmd", "exec 0<&-; sleep 0.2", NULL, "en", "es", 5000), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  for (size_t i = 0; i < 3; i++)
    CU_ASSERT(failed_with(&b, i, "exited with status 0"));
  bk_close(&b);
  sigaction(SIGPIPE, NULL, &after);
  CU_ASSERT(after.sa_handler == before.sa_handler);
  sigset_t pending;
  sigpending(&pending);
  CU_ASSERT_FALSE(sigismember(&pending, SIGPIPE));
}

static void test_cmd_bad_open(void) {
  struct bk b;
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "cmd", NULL, NULL, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "needs a command"));
  const char *bad_flush[] = {"flush=nul", NULL};
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "cmd", "cat", bad_flush, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "flush is 'line' or 'null'"));
  const char *bad_timeout[] = {"timeout=soon", NULL};
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "cmd", "cat", bad_timeout, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "timeout takes a number of seconds"));
  const char *unknown[] = {"speed=11", NULL};
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "cmd", "cat", unknown, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "(known: flush timeout max-failures)"));
}

/* --- apertium --------------------------------------------------------------
 */

static int have_apertium(void) {
  if (access("/usr/share/apertium/modes/eng-spa.mode", R_OK) == 0 &&
      system("command -v apertium-wblank-mode >/dev/null 2>&1") == 0)
    return 1;
  fprintf(stderr, "\nSKIP: apertium with eng-spa is not installed\n");
  return 0;
}

static void test_apertium_translates(void) {
  if (!have_apertium())
    return;
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "apertium", "eng-spa", NULL, "en", "es", 0),
                        0);
  const char *texts[] = {"Hello world.", "The cat is black.", "  The house.  ",
                         "Good morning", "Lights for the front and the back"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 5), 0);
  ASSERT_TEXT(&b, 0, "Hola Mundo.");
  ASSERT_TEXT(&b, 1, "El gato es negro.");
  ASSERT_TEXT(&b, 2, "  La casa.  ");
  ASSERT_TEXT(&b, 3, "Buenos días");
  /* Tagged as at the end of a sentence, as `apertium -u` does it. */
  ASSERT_TEXT(&b, 4, "Luces para el frente y el atrás");
  bk_close(&b);
}

/* Characters the Apertium stream format reserves come back as they went. */
static void test_apertium_special_characters(void) {
  if (!have_apertium())
    return;
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "apertium", "eng-spa", NULL, "en", "es", 0),
                        0);
  const char *texts[] = {"See [1] here.",       "Path x\\y here.",
                         "If x<y and y>z.",     "Cost ^5 $6 @7 #8 *9 /10",
                         "Braces {x} and ~b~.", "Tab\there.",
                         "[[not a blank]]"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 7), 0);
  for (size_t i = 0; i < 7; i++)
    CU_ASSERT_PTR_NULL(b.resp[i].error);
  CU_ASSERT(contains(text_of(&b, 0), "[1]"));
  CU_ASSERT(contains(text_of(&b, 1), "x\\y"));
  CU_ASSERT(contains(text_of(&b, 2), "x<y"));
  CU_ASSERT(contains(text_of(&b, 2), "y>z"));
  CU_ASSERT(contains(text_of(&b, 3), "^5 $6 @7 #8 *9 /10"));
  CU_ASSERT(contains(text_of(&b, 4), "{x}"));
  CU_ASSERT(contains(text_of(&b, 4), "~b~"));
  CU_ASSERT(contains(text_of(&b, 5), "\t"));
  /* Not taken for a word-bound blank. */
  CU_ASSERT(contains(text_of(&b, 6), "[["));
  CU_ASSERT(contains(text_of(&b, 6), "]]"));
  bk_close(&b);
}

/* XLIFF inline markup through Apertium's word-bound blanks: each span on
 * the words that translate its own, placeholders and spans without words
 * in place, text escaped as in the request, nothing lost. */
static void test_apertium_markup(void) {
  if (!have_apertium())
    return;
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "apertium", "eng-spa", NULL, "en", "es", 0),
                        0);
  const char *texts[] = {
      "Total <g id=\"1\">budget</g> for the <g id=\"2\">European</g> year.",
      "The <g id=\"1\">red</g> car is in the <g id=\"2\"><g "
      "id=\"3\">new</g> garage</g>.",
      "Click the <g id=\"1\">green</g> button<x id=\"2\"/> now.",
      "Note<g id=\"1\">:</g> the rules<x id=\"2\"/>now apply.",
      "Un<g id=\"1\">believ</g>able cars &amp; &lt;trucks&gt;.",
      "In accordance with <bx id=\"1\"/>the rules<ex id=\"2\" rid=\"1\"/>.",
      "  The house.  ",
      "<g id=\"1\">Hello world.</g>"};
  CU_ASSERT_EQUAL(bk_call(&b, texts, 8, 1), 0);
  for (size_t i = 0; i < 8; i++)
    CU_ASSERT_PTR_NULL(b.resp[i].error);
  ASSERT_TEXT(&b, 0,
              "<g id=\"1\">Presupuesto</g> total para el año <g "
              "id=\"2\">europeo</g>.");
  ASSERT_TEXT(&b, 1,
              "El coche <g id=\"1\">rojo</g> es en el <g id=\"2\">garaje <g "
              "id=\"3\">nuevo</g></g>.");
  ASSERT_TEXT(&b, 2, "Clic el botón <g id=\"1\">verde</g><x id=\"2\"/> ahora.");
  ASSERT_TEXT(&b, 3,
              "Nota<g id=\"1\">:</g> las reglas<x id=\"2\"/>ahora aplican.");
  ASSERT_TEXT(&b, 4,
              "<g id=\"1\">Unbelievable</g> Camiones &amp; &lt;de coches>.");
  ASSERT_TEXT(&b, 5,
              "De acuerdo con <bx id=\"1\"/>las reglas<ex id=\"2\" "
              "rid=\"1\"/>.");
  ASSERT_TEXT(&b, 6, "  La casa.  ");
  ASSERT_TEXT(&b, 7, "<g id=\"1\">Hola Mundo.</g>");
  bk_close(&b);
}

static void test_apertium_pairs(void) {
  if (!have_apertium())
    return;
  struct bk b;
  /* From the run's languages, a region subtag without its own mode. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "apertium", NULL, NULL, "en", "es-ES", 0),
                        0);
  const char *texts[] = {"The house."};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  ASSERT_TEXT(&b, 0, "La casa.");
  bk_close(&b);

  CU_ASSERT_NOT_EQUAL(bk_open(&b, "apertium", "eng-xyz", NULL, "en", "es", 0),
                      0);
  CU_ASSERT(contains(b.err, "apertium pair eng-xyz not installed: apt-get "
                            "install apertium-eng-xyz (or apertium-xyz-eng)"));
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "apertium", NULL, NULL, "en", "fr", 0), 0);
  CU_ASSERT(contains(b.err, "apertium pair eng-fra (en to fr) not installed: "
                            "apt-get install apertium-eng-fra"));
  const char *nodata[] = {"datadir=/nonexistent/apertium", NULL};
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "apertium", "eng-spa", nodata, "en", "es", 0),
                      0);
  CU_ASSERT(contains(b.err, "apertium is not installed"));
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "apertium", "eng spa", NULL, "en", "es", 0),
                      0);
  CU_ASSERT(contains(b.err, "not a pair name"));

  /* No pair and no languages at open: each batch's own languages. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "apertium", NULL, NULL, NULL, NULL, 0), 0);
  struct xmt_mt_request req[2] = {{"a", "The house.", 10, "en", "es"},
                                  {"b", "The house.", 10, "en", "fr"}};
  xmt_mt_response *ptrs[2] = {&b.resp[0], &b.resp[1]};
  CU_ASSERT_EQUAL(b.vt->translate(b.state, req, ptrs, 2), 0);
  ASSERT_TEXT(&b, 0, "La casa.");
  CU_ASSERT(failed_with(&b, 1,
                        "apertium pair eng-fra (en to fr) not "
                        "installed"));
  bk_close(&b);
}

/* --- plugin ----------------------------------------------------------------
 */

/* Modules are built in the build tree, the current directory of make
 * check. */
#define SAMPLE_PLUGIN "samples/plugin/.libs/upper_backend.so"

static void test_plugin_sample(void) {
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "plugin", SAMPLE_PLUGIN, NULL, "en", "es", 0), 0);
  const char *texts[] = {"Hello  big world", "x"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 2), 0);
  ASSERT_TEXT(&b, 0, "HELLO  BIG WORLD");
  CU_ASSERT_STRING_EQUAL(b.resp[0].alignment, "0-0 1-1 2-2");
  CU_ASSERT_STRING_EQUAL(b.resp[0].source_tokens, "Hello big world");
  CU_ASSERT_STRING_EQUAL(b.resp[0].target_tokens, "HELLO BIG WORLD");
  ASSERT_TEXT(&b, 1, "X");
  bk_close(&b);
  const char *lower[] = {"case=lower", NULL};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "plugin", SAMPLE_PLUGIN, lower, "en", "es", 0), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  ASSERT_TEXT(&b, 0, "hello  big world");
  bk_close(&b);
  const char *bad[] = {"case=title", NULL};
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "plugin", SAMPLE_PLUGIN, bad, "en", "es", 0),
                      0);
  CU_ASSERT(contains(b.err, "(upper): upper: unknown option 'case=title'"));
}

#define ENTRY_NAME(x) ENTRY_NAME_(x)
#define ENTRY_NAME_(x) #x

/* The entry point's name is one name, as identifier and string, and the
 * sample plug-in exports it (test_exports.sh: the library does not). */
static void test_plugin_symbol(void) {
  CU_ASSERT_STRING_EQUAL(ENTRY_NAME(XMT_BACKEND_PLUGIN_ENTRY),
                         XMT_BACKEND_PLUGIN_SYMBOL);
  void *h = dlopen(SAMPLE_PLUGIN, RTLD_NOW | RTLD_LOCAL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(h);
  void *sym = dlsym(h, XMT_BACKEND_PLUGIN_SYMBOL);
  CU_ASSERT_PTR_NOT_NULL(sym);
  xmt_backend_plugin_fn entry;
  memcpy(&entry, &sym, sizeof entry);
  if (entry != NULL)
    CU_ASSERT_STRING_EQUAL(entry()->name, "upper");
  dlclose(h);
}

static void test_plugin_load_errors(void) {
  struct bk b;
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "plugin", NULL, NULL, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "needs a library"));
  CU_ASSERT_NOT_EQUAL(
      bk_open(&b, "plugin", "/nonexistent/x.so", NULL, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "cannot load plug-in /nonexistent/x.so: "));
  CU_ASSERT(contains(b.err, "No such file"));
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "plugin",
                              "tests/fixtures/.libs/fake_plugin_nosym.so", NULL,
                              "en", "es", 0),
                      0);
  CU_ASSERT(contains(b.err, "does not export xmt_backend_plugin()"));
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "plugin",
                              "tests/fixtures/.libs/fake_plugin_old_abi.so",
                              NULL, "en", "es", 0),
                      0);
  CU_ASSERT(
      contains(b.err, "has backend ABI version 1; this xliffmt needs 2 to 3"));
  /* Version 2 still loads; its vtable ends before translate_markup, so
   * markup goes to translate. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "plugin",
                                "tests/fixtures/.libs/fake_plugin_v2.so", NULL,
                                "en", "es", 0),
                        0);
  const char *texts[] = {"a <g id=\"1\">b</g>"};
  CU_ASSERT_EQUAL(bk_call(&b, texts, 1, 0), 0);
  ASSERT_TEXT(&b, 0, "v2:a <g id=\"1\">b</g>");
  CU_ASSERT_EQUAL(bk_call(&b, texts, 1, 1), 0);
  ASSERT_TEXT(&b, 0, "v2:a <g id=\"1\">b</g>");
  bk_close(&b);
  /* Not a shared library at all. */
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "plugin", fake_engine, NULL, "en", "es", 0),
                      0);
  CU_ASSERT(contains(b.err, "cannot load plug-in"));
}

/* --- http ------------------------------------------------------------------
 */

static pid_t server_pid = -1;
static FILE *server_in; /* its stdin: closing it stops it */
static char server_url[64];

static int start_server(void) {
  const char *script = xmt_test_fixture_path("fake-http-mt.py");
  int to[2], from[2];
  if (pipe(to) != 0 || pipe(from) != 0)
    return -1;
  server_pid = fork();
  if (server_pid == 0) {
    dup2(to[0], 0);
    dup2(from[1], 1);
    close(to[1]);
    close(from[0]);
    execlp("python3", "python3", script, (char *)NULL);
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  server_in = fdopen(to[1], "w");
  FILE *out = fdopen(from[0], "r");
  int port = 0;
  if (out == NULL || fscanf(out, "PORT %d", &port) != 1 || port <= 0) {
    fprintf(stderr, "\nSKIP http tests: cannot start %s\n", script);
    if (out != NULL)
      fclose(out);
    return -1;
  }
  fclose(out);
  snprintf(server_url, sizeof server_url, "http://127.0.0.1:%d", port);
  return 0;
}

static int http_suite_init(void) {
  if (system("command -v python3 >/dev/null 2>&1") != 0) {
    fprintf(stderr, "\nno python3: the http tests only check errors\n");
    return 0;
  }
  start_server();
  return 0;
}

static int http_suite_clean(void) {
  if (server_in != NULL)
    fclose(server_in);
  if (server_pid > 0) {
    int st;
    waitpid(server_pid, &st, 0);
  }
  return 0;
}

static void test_http_apy(void) {
  if (server_url[0] == '\0')
    return;
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, NULL, "en", "es", 0),
                        0);
  const char *texts[] = {"hello world", "fail-once apy", "bad request",
                         "unicode x",   "notjson x",     " spaced out "};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 6), 0);
  ASSERT_TEXT(&b, 0, "HELLO WORLD");
  ASSERT_TEXT(&b, 1, "FAIL-ONCE APY"); /* 500, retried, then 200 */
  CU_ASSERT(failed_with(&b, 2, "HTTP 400 from "));
  CU_ASSERT(failed_with(&b, 2, "q is not acceptable"));
  /* \u00e9, a surrogate pair, \" \\ \/; the final \n is trimmed. */
  ASSERT_TEXT(&b, 3, "café \xF0\x9F\x98\x80 \"q\" \\ /");
  CU_ASSERT(failed_with(&b, 4, "the answer is not JSON: <html>not json"));
  ASSERT_TEXT(&b, 5, " SPACED OUT ");
  bk_close(&b);
  /* A language pair the service does not have: the 400 explains. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, NULL, "en", "fr", 0),
                        0);
  struct xmt_mt_request req = {"u", "hello", 5, "en", "fr"};
  xmt_mt_response *ptr = &b.resp[0];
  CU_ASSERT_EQUAL(b.vt->translate(b.state, &req, &ptr, 1), 0);
  CU_ASSERT(failed_with(&b, 0, "That pair is not installed"));
  bk_close(&b);
}

static void test_http_libretranslate(void) {
  if (server_url[0] == '\0')
    return;
  struct bk b;
  const char *opt[] = {"api=libretranslate", "key=secret", NULL};
  char url[128];
  snprintf(url, sizeof url, "%s/translate", server_url);
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", url, opt, "en", "es", 0), 0);
  const char *texts[] = {"hello \"world\"\n", "unicode x", "bad x"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  ASSERT_TEXT(&b, 0, "HELLO \"WORLD\"\n");
  ASSERT_TEXT(&b, 1, "café \xF0\x9F\x98\x80 \"q\" \\ /");
  CU_ASSERT(failed_with(&b, 2, "HTTP 400"));
  bk_close(&b);
  const char *wrong[] = {"api=libretranslate", "key=wrong", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", url, wrong, "en", "es", 0), 0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  CU_ASSERT(failed_with(&b, 0, "HTTP 403"));
  CU_ASSERT(failed_with(&b, 0, "Invalid API key"));
  bk_close(&b);
}

static void test_http_retries_and_timeouts(void) {
  if (server_url[0] == '\0')
    return;
  struct bk b;
  const char *opt[] = {"retries=2", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, opt, "en", "es", 0), 0);
  const char *texts[] = {"always-500 x"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 1), 0);
  CU_ASSERT(failed_with(&b, 0, "HTTP 500"));
  CU_ASSERT(failed_with(&b, 0, "(after 2 retries)"));
  CU_ASSERT(engine_failed(&b, 0, 1));
  CU_ASSERT(b.seconds >= 0.7); /* 250 ms, then 500 ms */
  bk_close(&b);

  /* The timeout is the batch's, retries included: no time is left for
   * a retry. */
  const char *slow[] = {"retries=1", "timeout=0.3", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, slow, "en", "es", 0),
                        0);
  const char *t2[] = {"slow x", "quick x"};
  CU_ASSERT_EQUAL(bk_run(&b, t2, 2), 0);
  CU_ASSERT(failed_with(&b, 0,
                        "Timeout was reached (the batch's 0.3 s were "
                        "up)"));
  CU_ASSERT(engine_failed(&b, 0, 1));
  ASSERT_TEXT(&b, 1, "QUICK X");
  if (b.seconds >= 1.0)
    fprintf(stderr, "\nslow batch took %.2f s\n", b.seconds);
  CU_ASSERT(b.seconds < 1.0);
  bk_close(&b);

  /* A service that never answers, three retries allowed: the batch ends
   * when its timeout is up, not after four of them. */
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, NULL, "en", "es", 800),
                        0);
  const char *never[] = {"never x", "never y", "quick x"};
  CU_ASSERT_EQUAL(bk_run(&b, never, 3), 0);
  CU_ASSERT(failed_with(&b, 0,
                        "Timeout was reached (the batch's 0.8 s were "
                        "up)"));
  CU_ASSERT(failed_with(&b, 1, "Timeout was reached"));
  ASSERT_TEXT(&b, 2, "QUICK X");
  CU_ASSERT(b.seconds >= 0.75 && b.seconds < 1.6);
  bk_close(&b);

  /* Nothing listening: connection refused, retried, then failed. */
  const char *none[] = {"retries=1", NULL};
  CU_ASSERT_EQUAL_FATAL(
      bk_open(&b, "http", "http://127.0.0.1:9/", none, "en", "es", 0), 0);
  CU_ASSERT_EQUAL(bk_run(&b, t2, 1), 0);
  CU_ASSERT(failed_with(&b, 0, "http://127.0.0.1:9/translate: "));
  CU_ASSERT(failed_with(&b, 0, "(after 1 retry)"));
  CU_ASSERT(engine_failed(&b, 0, 1));
  bk_close(&b);
}

/* An answer longer than a translation can be is cut off while it comes,
 * as one larger than the maximum answer size; the segment fails alone. A
 * 400 is the segment's failure, not the engine's. */
static void test_http_answer_limits(void) {
  if (server_url[0] == '\0')
    return;
  struct bk b;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, NULL, "en", "es", 0),
                        0);
  const char *texts[] = {"huge 50000000 x", "hello", "bad x"};
  CU_ASSERT_EQUAL(bk_run(&b, texts, 3), 0);
  /* 15 bytes: 16 * 15 + 1024 = 1264 for the translation, six times that
   * and 4096 for its JSON. */
  CU_ASSERT(failed_with(&b, 0,
                        "/translate: the answer is larger than 11680 bytes "
                        "for a request of 15 bytes"));
  CU_ASSERT(engine_failed(&b, 0, 0));
  ASSERT_TEXT(&b, 1, "HELLO");
  CU_ASSERT(failed_with(&b, 2, "HTTP 400"));
  CU_ASSERT(engine_failed(&b, 2, 0));
  CU_ASSERT(b.seconds < 2);
  bk_close(&b);
  bk_max_answer = 100;
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, NULL, "en", "es", 0),
                        0);
  bk_max_answer = 0;
  CU_ASSERT_EQUAL(bk_run(&b, texts, 2), 0);
  CU_ASSERT(failed_with(&b, 0,
                        "the answer is larger than 100 bytes, the maximum "
                        "answer size"));
  ASSERT_TEXT(&b, 1, "HELLO");
  bk_close(&b);
}

static void test_http_concurrency(void) {
  if (server_url[0] == '\0')
    return;
  struct bk b;
  const char *texts[8] = {"nap 1", "nap 2", "nap 3", "nap 4",
                          "nap 5", "nap 6", "nap 7", "nap 8"};
  const char *four[] = {"concurrency=4", NULL};
  CU_ASSERT_EQUAL_FATAL(bk_open(&b, "http", server_url, four, "en", "es", 0),
                        0);
  CU_ASSERT_EQUAL(bk_run(&b, texts, 8), 0);
  for (size_t i = 0; i < 8; i++) {
    char want[16];
    snprintf(want, sizeof want, "NAP %zu", i + 1);
    ASSERT_TEXT(&b, i, want);
  }
  /* 8 naps of 0.3 s, 4 at a time: two rounds, not eight. */
  CU_ASSERT(b.seconds >= 0.55 && b.seconds < 2.2);
  bk_close(&b);
}

static void test_http_bad_open(void) {
  struct bk b;
  CU_ASSERT_NOT_EQUAL(bk_open(&b, "http", "localhost:80", NULL, "en", "es", 0),
                      0);
  CU_ASSERT(contains(b.err, "needs a URL"));
  const char *api[] = {"api=deepl", NULL};
  CU_ASSERT_NOT_EQUAL(
      bk_open(&b, "http", "http://localhost", api, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "api is apy or libretranslate"));
  const char *conc[] = {"concurrency=0", NULL};
  CU_ASSERT_NOT_EQUAL(
      bk_open(&b, "http", "http://localhost", conc, "en", "es", 0), 0);
  CU_ASSERT(contains(b.err, "concurrency takes a whole number from 1 to 256"));
}

/* --- JSON ------------------------------------------------------------------
 */

static int json_at(const char *doc, const char *const *path, char *out,
                   size_t outlen) {
  struct xmt_buf b = {0};
  int rc = xmt_json_string_at(doc, strlen(doc), path, &b);
  snprintf(out, outlen, "%s", b.data != NULL ? b.data : "");
  xmt_buf_free(&b);
  return rc;
}

static void test_json_reader(void) {
  static const char *const apy[] = {"responseData", "translatedText", NULL};
  static const char *const top[] = {"translatedText", NULL};
  char s[256];
  CU_ASSERT_EQUAL(json_at("{\"responseData\": {\"translatedText\": \"Hola\"}, "
                          "\"responseDetails\": null, \"responseStatus\": 200}",
                          apy, s, sizeof s),
                  0);
  CU_ASSERT_STRING_EQUAL(s, "Hola");
  /* Members before, arrays, numbers, nested objects with the same key. */
  CU_ASSERT_EQUAL(json_at("{\"a\": [1, -2.5e3, true, false, null, {}, []], "
                          "\"x\": {\"translatedText\": \"no\"}, "
                          "\"translatedText\": \"yes\"}",
                          top, s, sizeof s),
                  0);
  CU_ASSERT_STRING_EQUAL(s, "yes");
  CU_ASSERT_EQUAL(json_at("{\"translatedText\": \"\\u00e9\\u20AC\\ud83d\\ude00"
                          "\\t\\\"\\\\\\/\\b\\f\\r\\n\"}",
                          top, s, sizeof s),
                  0);
  CU_ASSERT_STRING_EQUAL(s, "é€\xF0\x9F\x98\x80\t\"\\/\b\f\r\n");
  /* Valid without it, or not a string. */
  CU_ASSERT_EQUAL(json_at("{\"other\": \"x\"}", top, s, sizeof s), 1);
  CU_ASSERT_EQUAL(json_at("{\"translatedText\": 5}", top, s, sizeof s), 1);
  CU_ASSERT_EQUAL(json_at("[\"translatedText\"]", top, s, sizeof s), 1);
  /* Not JSON. */
  static const char *const bad[] = {
      "",
      "{",
      "{\"translatedText\": \"x\"} trailing",
      "{\"translatedText\": \"\\ud83d\"}",        /* lone high surrogate */
      "{\"translatedText\": \"\\ude00\"}",        /* lone low surrogate */
      "{\"translatedText\": \"\\ud83d\\u0041\"}", /* high + not low */
      "{\"translatedText\": \"\\x\"}",
      "{\"translatedText\": \"a\nb\"}", /* raw control character */
      "{\"translatedText\": \"x\", \"translatedText\": \"y\"}",
      "{'translatedText': 'x'}",
      "{\"a\": 01x}",
      "{\"a\": -}",
      "{\"a\" 1}",
      "{\"a\": 1,}",
      "[1 2]",
      "tru"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int rc = json_at(bad[i], top, s, sizeof s);
    if (rc != -1)
      fprintf(stderr, "\naccepted: %s\n", bad[i]);
    CU_ASSERT_EQUAL(rc, -1);
  }
}

/* --- The pipeline's checks -------------------------------------------------
 * Whatever the backend, the pipeline refuses answers that are no
 * translation and stops asking an engine that keeps failing. */

enum script {
  DOWN,        /* every segment: set_engine_error */
  REFUSE,      /* every segment: set_error */
  EVERY_OTHER, /* calls 1, 3, 5...: set_engine_error; the others UPPER */
  LONG,        /* 2000 bytes for every segment */
  UPPER        /* the request upper case */
};

struct scripted {
  enum script script;
  size_t calls;
};

static int scripted_translate(void *state, const struct xmt_mt_request *req,
                              xmt_mt_response *const *resp, size_t n) {
  struct scripted *s = state;
  s->calls++;
  static char text[2001];
  for (size_t i = 0; i < n; i++) {
    enum script how = s->script;
    if (how == EVERY_OTHER)
      how = s->calls % 2 == 1 ? DOWN : UPPER;
    if (how == DOWN) {
      xmt_mt_response_set_engine_error(resp[i],
                                       "engine down: Connection refused");
    } else if (how == REFUSE) {
      xmt_mt_response_set_error(resp[i], "HTTP 400: no");
    } else if (how == LONG) {
      memset(text, 'x', 2000);
      xmt_mt_response_set_text(resp[i], text, 2000);
    } else {
      size_t len = req[i].len < 2000 ? req[i].len : 2000;
      for (size_t k = 0; k < len; k++)
        text[k] = req[i].text[k] >= 'a' && req[i].text[k] <= 'z'
                      ? (char)(req[i].text[k] - 'a' + 'A')
                      : req[i].text[k];
      xmt_mt_response_set_text(resp[i], text, len);
    }
  }
  return 0;
}

static int scripted_open(void *user, const struct xmt_backend_config *config,
                         void **state, char *errbuf, size_t errlen) {
  (void)config, (void)errbuf, (void)errlen;
  *state = user;
  return 0;
}

static const struct xmt_backend scripted_backend = {
    XMT_BACKEND_ABI_VERSION, "scripted", scripted_open,
    scripted_translate,      NULL,       NULL};

struct told {
  size_t n;
  char last[300];
};

static void on_told(void *user, const char *id, unsigned long line,
                    const char *message) {
  struct told *t = user;
  t->n++;
  snprintf(t->last, sizeof t->last, "%s@%lu: %s", id, line, message);
}

/* A document of n units "word K.", written to in.xlf. */
static void write_units(size_t n) {
  FILE *fp = fopen(xmt_test_tmp_path("in.xlf"), "wb");
  CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
  fputs("<xliff version=\"1.2\" "
        "xmlns=\"urn:oasis:names:tc:xliff:document:1.2\"><file "
        "original=\"a\" source-language=\"en\" target-language=\"de\" "
        "datatype=\"plaintext\"><body>\n",
        fp);
  for (size_t i = 1; i <= n; i++)
    fprintf(fp,
            "<trans-unit id=\"%zu\"><source>word %zu.</source>"
            "</trans-unit>\n",
            i, i);
  fputs("</body></file></xliff>\n", fp);
  fclose(fp);
}

/* Translates in.xlf with a filter on s (batches of one segment). */
static xmt_status run_scripted(xmt_filter *f, struct scripted *s,
                               struct told *t) {
  CU_ASSERT_EQUAL(xmt_filter_set_backend(f, &scripted_backend, s, NULL),
                  XMT_OK);
  xmt_filter_set_batch_size(f, 1);
  xmt_filter_set_callbacks(f, NULL, on_told, t);
  memset(t, 0, sizeof *t);
  s->calls = 0;
  return xmt_filter_translate_file(f, xmt_test_tmp_path("in.xlf"),
                                   xmt_test_tmp_path("out.xlf"));
}

static size_t targets_written(void) {
  size_t len, n = 0;
  char *out = xmt_test_read_file(xmt_test_tmp_path("out.xlf"), &len);
  for (const char *p = out; p != NULL && (p = strstr(p, "<target")) != NULL;
       p++)
    n++;
  free(out);
  return n;
}

/* Three batches in a row failed by the engine itself: the run stops
 * asking it, tells no segment one by one, and says why once. The output
 * is written. */
static void test_pipeline_stops_a_dead_engine(void) {
  write_units(10);
  xmt_filter *f = xmt_filter_new();
  struct scripted s = {DOWN, 0};
  struct told t;
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(s.calls, XMT_ENGINE_FAILURES);
  CU_ASSERT_EQUAL(t.n, 0);
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->message,
                         "10 segments not translated: the MT engine failed 3 "
                         "batches in a row, the last with: engine down: "
                         "Connection refused; the run stopped asking it");
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->failed_segments, 10);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->mt_calls, 3);
  CU_ASSERT_EQUAL(xmt_filter_stats(f)->segments, 3);
  CU_ASSERT_EQUAL(targets_written(), 0);
  /* The count is the run's: kept engines, a second document, the same. */
  xmt_filter_set_flags(f, XMT_FILTER_KEEP_ENGINES);
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(s.calls, 3);
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(s.calls, 3);
  /* --keep-going: every batch sent, every segment told. */
  xmt_filter_set_flags(f, XMT_FILTER_KEEP_GOING);
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(s.calls, 10);
  CU_ASSERT_EQUAL(t.n, 10);
  CU_ASSERT_STRING_EQUAL(t.last, "10@11: engine down: Connection refused");
  CU_ASSERT_STRING_EQUAL(xmt_filter_error(f)->message,
                         "10 segments not translated");
  xmt_filter_free(f);
}

/* Failures of the segments themselves never stop the run, nor engine
 * failures that are not in a row. */
static void test_pipeline_goes_on(void) {
  write_units(10);
  xmt_filter *f = xmt_filter_new();
  struct scripted s = {REFUSE, 0};
  struct told t;
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(s.calls, 10);
  CU_ASSERT_EQUAL(t.n, 10);
  CU_ASSERT_STRING_EQUAL(t.last, "10@11: HTTP 400: no");
  s.script = EVERY_OTHER;
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(s.calls, 10);
  CU_ASSERT_EQUAL(t.n, 5);
  CU_ASSERT_EQUAL(targets_written(), 5);
  xmt_filter_free(f);
}

/* An answer much longer than its request, or longer than the maximum
 * answer size, fails its segment, whatever the backend. */
static void test_pipeline_answer_limits(void) {
  write_units(2);
  xmt_filter *f = xmt_filter_new();
  struct scripted s = {LONG, 0};
  struct told t;
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(t.n, 2);
  CU_ASSERT_STRING_EQUAL(t.last,
                         "2@3: the answer has 2000 bytes for a "
                         "request of 7 bytes: more than 16 times as long, "
                         "not a translation");
  s.script = UPPER;
  xmt_filter_set_max_answer_size(f, 6);
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_ERR_PARTIAL);
  CU_ASSERT_EQUAL(t.n, 2);
  CU_ASSERT_STRING_EQUAL(t.last, "2@3: the answer has 7 bytes, more than 6, "
                                 "the maximum answer size");
  xmt_filter_set_max_answer_size(f, 7);
  CU_ASSERT_EQUAL(run_scripted(f, &s, &t), XMT_OK);
  CU_ASSERT_EQUAL(targets_written(), 2);
  xmt_filter_free(f);
}

/* --- Suites ----------------------------------------------------------------
 */

static int cmd_suite_init(void) {
  const char *p = xmt_test_fixture_path("fake-engine.sh");
  snprintf(fake_engine, sizeof fake_engine, "%s", p);
  return access(fake_engine, R_OK) != 0;
}

static CU_TestInfo pseudo_tests[] = {
    {"exact outputs and alignments", test_pseudo_exact},
    {"token strings map onto the texts", test_pseudo_tokens_map},
    {"options", test_pseudo_options},
    CU_TEST_INFO_NULL};

static CU_TestInfo cmd_tests[] = {
    {"cat, tr, sed", test_cmd_real_engines},
    {"big batch, no deadlock", test_cmd_big_batch},
    {"crash mid-batch, restart", test_cmd_crash_and_restart},
    {"exit mid-batch, restart", test_cmd_restart_after_exit},
    {"hang: timeout", test_cmd_hang_times_out},
    {"too few, too many lines", test_cmd_wrong_counts},
    {"a dropped line, a banner: never one off", test_cmd_dropped_line},
    {"an answer without end", test_cmd_answer_too_long},
    {"null flush", test_cmd_null_flush},
    {"a NUL after each segment, one dropped", test_engine_null_segment},
    {"garbage, slow", test_cmd_garbage_and_slow},
    {"gives up", test_cmd_gives_up},
    {"SIGPIPE", test_cmd_sigpipe},
    {"bad open", test_cmd_bad_open},
    CU_TEST_INFO_NULL};

static CU_TestInfo apertium_tests[] = {
    {"translates", test_apertium_translates},
    {"special characters", test_apertium_special_characters},
    {"markup", test_apertium_markup},
    {"pairs", test_apertium_pairs},
    CU_TEST_INFO_NULL};

static CU_TestInfo plugin_tests[] = {{"sample plug-in", test_plugin_sample},
                                     {"entry point", test_plugin_symbol},
                                     {"load errors", test_plugin_load_errors},
                                     CU_TEST_INFO_NULL};

static CU_TestInfo http_tests[] = {
    {"APy", test_http_apy},
    {"LibreTranslate", test_http_libretranslate},
    {"retries and timeouts", test_http_retries_and_timeouts},
    {"answers too long", test_http_answer_limits},
    {"concurrency", test_http_concurrency},
    {"bad open", test_http_bad_open},
    {"JSON reader", test_json_reader},
    CU_TEST_INFO_NULL};

static int pipeline_suite_init(void) {
  return xmt_test_tmpdir_create("backends");
}

static CU_TestInfo pipeline_tests[] = {
    {"a dead engine stops the run", test_pipeline_stops_a_dead_engine},
    {"segment failures never stop it", test_pipeline_goes_on},
    {"answers too long", test_pipeline_answer_limits},
    CU_TEST_INFO_NULL};

CU_SuiteInfo xmt_test_suites[] = {
    {"backend pseudo", NULL, NULL, NULL, NULL, pseudo_tests},
    {"backend cmd", cmd_suite_init, NULL, NULL, NULL, cmd_tests},
    {"backend apertium", NULL, NULL, NULL, NULL, apertium_tests},
    {"backend plugin", cmd_suite_init, NULL, NULL, NULL, plugin_tests},
    {"backend http", http_suite_init, http_suite_clean, NULL, NULL, http_tests},
    {"answers checked by the pipeline", pipeline_suite_init,
     xmt_test_tmpdir_remove, NULL, NULL, pipeline_tests},
    CU_SUITE_INFO_NULL};

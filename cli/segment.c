/* segment.c -- xliffmt segment: SRX sentence segmentation of plain text
 * (one paragraph per line) or of an XLIFF document. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct options {
  const char *srx;
  const char *lang;
  const char *input;
  const char *output;
  int resegment;
};

struct state {
  struct options opt;
  xmt_segmenter *seg;
  FILE *in;
  struct xmt_cli_output output;
  /* XLIFF */
  xmt_xliff_reader *reader;
  xmt_xliff_writer *writer;
  int encoding_set;
  int failed; /* a callback reported an error */
  size_t units, segmented;
  /* Text */
  char *line;
  size_t line_len, line_cap;
  unsigned long line_no;
  int paragraphs;
};

static const char *input_name(const struct state *s) {
  return s->opt.input != NULL && strcmp(s->opt.input, "-") != 0
             ? s->opt.input
             : "standard input";
}

enum { OPT_SRX = 256, OPT_RESEGMENT };

static const struct xmt_cli_option segment_options[] = {
    {"source-language", 's', "LANG",
     "the language whose rules apply (required\nfor text; XLIFF: default the "
     "\nsource-language of each <file>)"},
    {"srx", OPT_SRX, "FILE",
     "SRX 2.0 rules (default: the rules built\ninto xliffmt)"},
    {"resegment", OPT_RESEGMENT, NULL,
     "segment anew XLIFF units that already\nhave a <seg-source>"},
    {"output", 'o', "OUT",
     "output file (written whole or not at all;\ndefault: standard output)"},
    {NULL, 0, NULL, NULL}};

static const struct xmt_cli_command segment = {
    "segment ",
    "Usage: xliffmt segment [--srx FILE] [-s LANG] [--resegment] [IN]\n"
    "                       [-o OUT]\n\n"
    "Splits text into sentences by SRX rules. IN (default: standard\n"
    "input) is XLIFF 1.2 when it starts with <?xml or <xliff: the\n"
    "output is the document with a <seg-source> for each unit, the\n"
    "sentences in <mrk mtype=\"seg\"> elements. Otherwise IN is plain\n"
    "UTF-8 text, one paragraph per line: the output has one sentence\n"
    "per line and a blank line between paragraphs.\n\n",
    XMT_CLI_GROUPS(segment_options), NULL, NULL};

static int take(void *user, int c, const char *arg) {
  struct options *o = user;
  if (c == OPT_SRX)
    o->srx = arg;
  else if (c == 's')
    o->lang = arg;
  else if (c == OPT_RESEGMENT)
    o->resegment = 1;
  else if (c == 'o')
    o->output = arg;
  return 1;
}

static int parse_options(int argc, char **argv, struct options *o) {
  int rc = xmt_cli_parse(&segment, argc, argv, take, o);
  if (rc >= 0)
    return rc;
  if (optind + 1 < argc) {
    xmt_cli_usage_error("segment ", "more than one input");
    return EXIT_BAD_INPUT;
  }
  if (optind < argc)
    o->input = argv[optind];
  return -1;
}

static void state_free(struct state *s) {
  xmt_cli_output_abort(&s->output);
  if (s->in != NULL && s->in != stdin)
    fclose(s->in);
  xmt_xliff_reader_free(s->reader);
  xmt_xliff_writer_free(s->writer);
  xmt_segmenter_free(s->seg);
  free(s->line);
}

/* --- Plain text ---------------------------------------------------------- */

/* Segments one paragraph (a line without its end of line). */
static int text_paragraph(struct state *s, const char *p, size_t len) {
  const struct xmt_span *spans;
  size_t n;
  xmt_status st = xmt_segmenter_split(s->seg, p, len, &spans, &n);
  if (st != XMT_OK) {
    const struct xmt_error *e = xmt_segmenter_error(s->seg);
    xmt_cli_say("xliffmt: %s:%lu: %s\n", input_name(s), s->line_no,
                e->message != NULL ? e->message : xmt_strerror(st));
    return xmt_cli_exit_status(st);
  }
  if (s->paragraphs++ > 0)
    fputc('\n', s->output.fp);
  for (size_t i = 0; i < n; i++) {
    fwrite(p + spans[i].start, 1, spans[i].end - spans[i].start, s->output.fp);
    fputc('\n', s->output.fp);
  }
  return EXIT_OK;
}

/* Splits buffered bytes into lines; with is_final the rest is one too. */
static int text_feed(struct state *s, const char *bytes, size_t len,
                     int is_final) {
  if (s->line_len + len + 1 > s->line_cap) {
    char *l =
        len > SIZE_MAX - 1 - s->line_len
            ? NULL
            : xmt_grow_array(s->line, &s->line_cap, s->line_len + len + 1, 1);
    if (l == NULL) {
      xmt_cli_say("xliffmt: out of memory\n");
      return EXIT_INTERNAL;
    }
    s->line = l;
  }
  memcpy(s->line + s->line_len, bytes, len);
  s->line_len += len;
  size_t start = 0;
  int rc = EXIT_OK;
  for (size_t i = 0; i < s->line_len && rc == EXIT_OK; i++) {
    if (s->line[i] != '\n')
      continue;
    size_t end = i > start && s->line[i - 1] == '\r' ? i - 1 : i;
    s->line_no++;
    // s->line is owned by s, freed by the caller: not a leak.
    // NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
    rc = text_paragraph(s, s->line + start, end - start);
    start = i + 1;
  }
  memmove(s->line, s->line + start, s->line_len - start);
  s->line_len -= start;
  if (rc == EXIT_OK && is_final && s->line_len > 0) {
    s->line_no++;
    size_t end =
        s->line[s->line_len - 1] == '\r' ? s->line_len - 1 : s->line_len;
    rc = text_paragraph(s, s->line, end);
    s->line_len = 0;
  }
  return rc;
}

/* --- XLIFF --------------------------------------------------------------- */

static int write_out(void *user, const char *bytes, size_t len) {
  struct state *s = user;
  return fwrite(bytes, 1, len, s->output.fp) == len ? 0 : 1;
}

static int set_encoding(struct state *s) {
  if (!s->encoding_set) {
    /* The reader's own encoding: refused only by a bug. */
    if (xmt_xliff_writer_set_encoding(
            s->writer, xmt_xliff_reader_encoding(s->reader)) != XMT_OK)
      return 1;
    s->encoding_set = 1;
  }
  return 0;
}

static int on_skeleton(void *user, const char *bytes, size_t len) {
  struct state *s = user;
  if (set_encoding(s) != 0)
    return 1;
  return xmt_xliff_writer_skeleton(s->writer, bytes, len) != XMT_OK;
}

static int on_file(void *user, const struct xmt_xliff_file_info *info,
                   const char *tag, size_t len) {
  struct state *s = user;
  (void)info;
  if (set_encoding(s) != 0)
    return 1;
  return xmt_xliff_writer_file_tag(s->writer, tag, len, NULL) != XMT_OK;
}

static int on_unit(void *user, xmt_xliff_unit *unit) {
  struct state *s = user;
  if (set_encoding(s) != 0)
    return 1;
  s->units++;
  int was = xmt_xliff_unit_segmented(unit);
  xmt_status st = xmt_segmenter_segment_unit(s->seg, unit, s->opt.resegment);
  if (st != XMT_OK) {
    xmt_cli_report(xmt_segmenter_error(s->seg));
    s->failed = xmt_cli_exit_status(st);
    xmt_xliff_unit_free(unit);
    return 1;
  }
  if (xmt_xliff_unit_segmented(unit) && (!was || s->opt.resegment))
    s->segmented++;
  const char *lang = xmt_xliff_unit_target_language(unit);
  struct xmt_xliff_target_options o;
  memset(&o, 0, sizeof o);
  o.target_language = lang != NULL ? lang : "und";
  o.seg_source = 1; /* the segments are what this command writes */
  st = xmt_xliff_writer_unit(s->writer, unit, &o);
  xmt_xliff_unit_free(unit);
  if (st != XMT_OK) {
    xmt_cli_say("xliffmt: cannot write the output: %s\n", xmt_strerror(st));
    s->failed = xmt_cli_exit_status(st);
    return 1;
  }
  return 0;
}

static int xliff_start(struct state *s) {
  struct xmt_xliff_reader_callbacks cb = {on_skeleton, on_file, on_unit};
  s->reader = xmt_xliff_reader_new(&cb, s);
  s->writer = xmt_xliff_writer_new(write_out, s);
  if (s->reader == NULL || s->writer == NULL ||
      xmt_xliff_reader_set_filename(s->reader, input_name(s)) != XMT_OK) {
    xmt_cli_say("xliffmt: out of memory\n");
    return EXIT_INTERNAL;
  }
  return EXIT_OK;
}

static int xliff_feed(struct state *s, const char *bytes, size_t len,
                      int is_final) {
  xmt_status st = xmt_xliff_reader_parse(s->reader, bytes, len, is_final);
  if (st == XMT_OK && is_final)
    st = xmt_xliff_writer_flush(s->writer);
  if (st == XMT_OK)
    return EXIT_OK;
  if (s->failed)
    return s->failed;
  if (st == XMT_ERR_WRITE) {
    xmt_cli_say("xliffmt: cannot write the output\n");
    return EXIT_INTERNAL;
  }
  xmt_cli_report(xmt_xliff_reader_error(s->reader));
  return xmt_cli_exit_status(st);
}

/* XLIFF when the content starts with <?xml or <xliff (after a byte order
 * mark and blanks); a UTF-16 byte order mark means XML too. */
static int is_xliff(const char *b, size_t n) {
  if (n >= 2 && ((b[0] == '\xFF' && b[1] == '\xFE') ||
                 (b[0] == '\xFE' && b[1] == '\xFF')))
    return 1;
  size_t i = n >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
    i++;
  return (n - i >= 5 && memcmp(b + i, "<?xml", 5) == 0) ||
         (n - i >= 6 && memcmp(b + i, "<xliff", 6) == 0);
}

static int run(struct state *s) {
  s->seg = xmt_segmenter_new();
  if (s->seg == NULL) {
    xmt_cli_say("xliffmt: out of memory\n");
    return EXIT_INTERNAL;
  }
  if (s->opt.srx != NULL) {
    xmt_status st = xmt_segmenter_load_srx(s->seg, s->opt.srx);
    if (st != XMT_OK) {
      xmt_cli_report(xmt_segmenter_error(s->seg));
      return xmt_cli_exit_status(st);
    }
  }
  if (s->opt.lang != NULL &&
      xmt_segmenter_set_language(s->seg, s->opt.lang) != XMT_OK) {
    xmt_cli_report(xmt_segmenter_error(s->seg));
    return EXIT_BAD_INPUT;
  }
  const char *in = s->opt.input;
  s->in = in == NULL || strcmp(in, "-") == 0 ? stdin : xmt_input_file_open(in);
  char why[200];
  if (s->in == NULL) {
    xmt_cli_say("xliffmt: %s: %s\n", in,
                xmt_input_file_why(errno, why, sizeof why));
    return EXIT_BAD_INPUT;
  }
  /* Enough bytes to tell XLIFF from text, then the rest as it comes. */
  char buf[65536];
  size_t n = fread(buf, 1, sizeof buf, s->in);
  int xliff = is_xliff(buf, n);
  if (!xliff && s->opt.lang == NULL) {
    xmt_cli_usage_error("segment ", "plain text needs -s LANG");
    return EXIT_BAD_INPUT;
  }
  int rc = xmt_cli_output_open(&s->output, s->opt.output);
  if (rc == EXIT_OK && xliff)
    rc = xliff_start(s);
  while (rc == EXIT_OK) {
    int done = n < sizeof buf;
    if (done && ferror(s->in)) {
      xmt_cli_say("xliffmt: %s: cannot read: %s\n", input_name(s),
                  strerror(errno));
      return EXIT_BAD_INPUT;
    }
    rc = xliff ? xliff_feed(s, buf, n, done) : text_feed(s, buf, n, done);
    if (done)
      break;
    n = fread(buf, 1, sizeof buf, s->in);
  }
  if (rc == EXIT_OK)
    rc = xmt_cli_output_commit(&s->output);
  return rc;
}

int xmt_cli_segment(int argc, char **argv) {
  struct state s;
  memset(&s, 0, sizeof s);
  int rc = parse_options(argc, argv, &s.opt);
  if (rc >= 0)
    return rc;
  struct xmt_cli_files fs;
  xmt_cli_files_init(&fs);
  xmt_cli_files_add(&fs, XMT_CLI_READS, s.opt.input, "", "the input", NULL);
  xmt_cli_files_add(&fs, XMT_CLI_READS, s.opt.srx, "--srx",
                    "the segmentation rules", NULL);
  xmt_cli_files_add_output(&fs, s.opt.output);
  rc = xmt_cli_files_check(&fs);
  xmt_cli_files_free(&fs);
  if (rc == EXIT_OK)
    rc = run(&s);
  state_free(&s);
  return rc;
}

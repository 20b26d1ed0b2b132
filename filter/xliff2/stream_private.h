/* stream_private.h -- an XLIFF 2 document read as a stream (stream.c):
 * the document handle of the format (xliff2.c). Not installed. */
#ifndef XMT_X2_STREAM_PRIVATE_H
#define XMT_X2_STREAM_PRIVATE_H

#include <pthread.h>
#include <stdio.h>

#include "read_private.h"

/* Bytes read and parsed at a time. */
#define X2_CHUNK 65536
/* Bytes parsed at a time: what follows a unit's end is kept with it. */
#define X2_SLICE 4096

struct x2_piece;

/* The bytes a part holds at least (but the last): the units ended
 * before are cut off with it. */
#define X2_PART_MIN 4096

/* The targets of written parts kept for the next ones. */
#define X2_SPARE 64
#define X2_BLOCKS 256
#define X2_BLOCK_MAX 16384

struct x2_stream {
  struct x2_doc live; /* read, not cut off yet; its files are the document's */
  struct reader r;
  /* the reading's: the opener's, or units()'s sink's while it reads */
  struct xmt_error_store *err;
  FILE *fp;            /* the input; NULL: whole is */
  struct x2_doc whole; /* a document in memory, UTF-8 */
  size_t whole_at;     /* whole's bytes before it are read */
  size_t chunk;
  char *chunk_buf;
  int started; /* the encoding is known */
  int done;    /* the end of the input is parsed */
  struct xmt_decoder dec;
  struct xmt_buf raw;  /* input before its encoding is known */
  struct xmt_buf utf8; /* input to parse; a character cut short waits */
  size_t bytes_in;
  int read_failed; /* units() failed on the document, not the unit stream */
  size_t units, translatable_units, units_with_target; /* read so far */
  size_t counted; /* the live document's segments counted */
  int cut_each;   /* the chunk's last slice is parsed: a part per unit */
  /* the live document's files and bytes at the last unit's end; as the
   * chunk being read began, the live document's segments of units read
   * whole, their files and end (hand_ready) */
  size_t ended_files, ended_at, ready, ready_files, ready_end;
  size_t filled_copies; /* targets taken for copies of their source */
  unsigned long root_line, root_column; /* of <xliff> */
  /* parts cut off, not handed out yet (the main thread's) */
  struct x2_piece **fresh;
  size_t nfresh, fresh_cap;
  /* Handed out, waiting for their targets; the run's worker takes
   * targets and writes: under lock. */
  pthread_mutex_t lock;
  struct x2_piece *head, *tail, *cursor;
  int reading;                /* units() runs: it frees the parts written */
  struct x2_piece *written;   /* written, for the reader to free */
  xmt_write_fn sink;          /* NULL: the stream is not written */
  struct x2_write_bufs wbufs; /* the writer's, from part to part */
  /* targets of parts written, for take() to fill again: a segment
   * allocated per target cost as much as copying it */
  xmt_segment *spare[X2_SPARE];
  size_t nspare;
  /* a part written as its last target is taken holds the run's target,
   * not a copy, while it is written: that part, and which target */
  struct x2_piece *lent;
  size_t lent_at;
  /* blocks of parts written and let go, for the reader to cut parts
   * into again (the reader's alone; a window's worth, small ones): a
   * part's block is past glibc's per-thread cache, and its malloc and
   * free cost a third of cutting the part */
  struct x2_piece *blocks;
  size_t nblocks;
  void *user;
  const char *target_language;
  int matches;
  int overwrite; /* as the units were handed out */
  xmt_x2_warn_fn warn;
  void *warn_user;
  xmt_status wst;
  struct xmt_error_store werr;
};

/* A stream of the document in fp (taken over), read up to <xliff> so
 * that its languages are known; or of data (taken over: emptied), held
 * whole and read to its end.
 * chunk 0: X2_CHUNK bytes at a time. *out is to be freed, failed too. */
xmt_status xmt_x2_stream_open(struct x2_stream **out, FILE *fp,
                              const char *path, size_t chunk,
                              struct xmt_error_store *err);
/* The same, each repeated unit-stream id made unique as a document held
 * whole makes it ("@FILE"), for a reader of its units that does not (the
 * report's). */
xmt_status xmt_x2_stream_open_unique(struct x2_stream **out, FILE *fp,
                                     const char *path, size_t chunk,
                                     struct xmt_error_store *err);
xmt_status xmt_x2_stream_memory(struct x2_stream **out, struct xmt_buf *data,
                                const char *path, size_t chunk,
                                struct xmt_error_store *err);
/* Reads the rest, handing each unit's segments to sink as it ends. */
xmt_status xmt_x2_stream_units(struct x2_stream *s, const char *source_language,
                               const char *target_language, unsigned mode,
                               const struct xmt_unit_sink *sink);
/* Before units: the parts are kept until their targets are taken, then
 * written to sink (write.c's warnings to warn) in document order. */
void xmt_x2_stream_write_to(struct x2_stream *s, const char *target_language,
                            int matches, xmt_x2_warn_fn warn, void *warn_user,
                            xmt_write_fn sink, void *user);
/* The target of the segment key (NULL: none); split: kept per sentence
 * (resegment.c), and a target kept cut as kept says (NULL: not). Any
 * thread; the parts done are written. */
xmt_status xmt_x2_stream_take(struct x2_stream *s, const char *key,
                              const xmt_xliff_unit *unit,
                              const xmt_segment *target, int split,
                              const struct x2_kept_cut *kept);
/* Reads the rest for check's rules only: each part, as it is cut, is
 * given to rules and let go (what the stream cut before is given first).
 * A document that cannot be read fails with the reader's error, the
 * bytes read before it given to rules too, as a document read whole
 * would have them; opened: what xmt_x2_stream_open returned (a failure
 * there is such a failure). */
xmt_status xmt_x2_stream_rules(struct x2_stream *s, struct x2_rules *rules,
                               xmt_status opened);
/* Writes what is left, targets taken or not. */
xmt_status xmt_x2_stream_finish(struct x2_stream *s);
/* The units read so far, counted into facts. A unit is translatable when
 * one of its segments is, as the unit stream says it: translate, and not
 * locked by its state; it has a target when one of its segments has a
 * non-empty one. */
void xmt_x2_stream_count(const struct x2_stream *s,
                         struct xmt_doc_facts *facts);
void xmt_x2_stream_free(struct x2_stream *s);

#endif /* XMT_X2_STREAM_PRIVATE_H */

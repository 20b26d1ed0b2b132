/* dictionaries.c -- the aligner's dictionaries, read by this folder's
 * readers: the public xmt_aligner_add_dictionary hands the projector's
 * aligner the spec together with xmt_lexicon_load, so that the projector
 * itself reads no file and starts no process. */
#include "config.h"

#include "lexicon_private.h"
#include "xmt_filter.h"

xmt_status xmt_aligner_add_dictionary(xmt_aligner *a, const char *spec) {
  return xmt_aligner_add_dictionary_read(a, spec, xmt_lexicon_load);
}

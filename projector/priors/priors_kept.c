/* priors_kept.c -- dictionaries read once for many trainings (struct
 * xmt_lexicon): every word pair the dictionary readers give, with each
 * word's lowercased form and stem, so that the next document's vocabulary
 * is matched against memory instead of the files. Filled and matched in
 * priors.c; this file keeps the store. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "priors_private.h"

xmt_lexicon *xmt_lexicon_new(void) { return calloc(1, sizeof(xmt_lexicon)); }

void xmt_kept_clear(xmt_lexicon *lx) {
  for (int sd = 0; sd < 2 && lx->tables_ok; sd++) {
    xmt_vocab_free(&lx->words[sd]);
    xmt_vocab_free(&lx->forms[sd]);
    xmt_vocab_free(&lx->stems[sd]);
  }
  for (int sd = 0; sd < 2; sd++) {
    free(lx->form_of[sd]);
    free(lx->stem_of[sd]);
  }
  free(lx->key);
  free(lx->pairs);
  free(lx->first_pair);
  free(lx->next_pair);
  free(lx->form_words);
  free(lx->next_form_word);
  free(lx->stem_words);
  free(lx->next_stem_word);
  memset(lx, 0, sizeof *lx);
}

void xmt_lexicon_free(xmt_lexicon *lx) {
  if (lx == NULL)
    return;
  xmt_kept_clear(lx);
  free(lx);
}

xmt_status xmt_kept_start(xmt_lexicon *lx, const char *key) {
  xmt_kept_clear(lx);
  if ((lx->key = xmt_strdup(key)) == NULL)
    return XMT_ERR_NOMEM;
  xmt_status st = XMT_OK;
  for (int sd = 0; sd < 2 && st == XMT_OK; sd++)
    if ((st = xmt_vocab_init(&lx->words[sd])) == XMT_OK &&
        (st = xmt_vocab_init(&lx->forms[sd])) == XMT_OK)
      st = xmt_vocab_init(&lx->stems[sd]);
  /* the tables of both sides are freed together: all or none */
  if (st != XMT_OK) {
    for (int sd = 0; sd < 2; sd++) {
      xmt_vocab_free(&lx->words[sd]);
      xmt_vocab_free(&lx->forms[sd]);
      xmt_vocab_free(&lx->stems[sd]);
    }
    return st;
  }
  lx->tables_ok = 1;
  return XMT_OK;
}

xmt_status xmt_kept_add(xmt_lexicon *lx, const char *const w[2],
                        const size_t len[2], double scale) {
  uint32_t id[2];
  for (int sd = 0; sd < 2; sd++) {
    xmt_status st = xmt_vocab_intern(&lx->words[sd], w[sd], len[sd], &id[sd]);
    if (st != XMT_OK)
      return st;
  }
  struct xmt_kept_pair *p =
      xmt_grow_array(lx->pairs, &lx->pairs_cap, lx->npairs + 1, sizeof *p);
  if (p == NULL)
    return XMT_ERR_NOMEM;
  lx->pairs = p;
  p[lx->npairs++] = (struct xmt_kept_pair){id[XMT_SRC], id[XMT_TGT], scale};
  return XMT_OK;
}

xmt_status xmt_priors_chain(const uint32_t *key_of, uint32_t n, uint32_t nkeys,
                            uint32_t **head, uint32_t **next) {
  *head = calloc(nkeys ? nkeys : 1, sizeof **head);
  *next = calloc(n ? n : 1, sizeof **next);
  if (*head == NULL || *next == NULL)
    return XMT_ERR_NOMEM;
  for (uint32_t id = n; id-- > 1;)
    if (key_of[id] != 0) {
      (*next)[id] = (*head)[key_of[id]];
      (*head)[key_of[id]] = id;
    }
  return XMT_OK;
}

xmt_status xmt_kept_index(xmt_lexicon *lx) {
  uint32_t nw = lx->words[XMT_SRC].count;
  /* pairs by source word; pair k is stored as k + 1 (0 ends a chain) */
  lx->first_pair = calloc(nw ? nw : 1, sizeof *lx->first_pair);
  lx->next_pair = calloc(lx->npairs + 1, sizeof *lx->next_pair);
  if (lx->first_pair == NULL || lx->next_pair == NULL)
    return XMT_ERR_NOMEM;
  for (size_t k = lx->npairs; k-- > 0;) {
    uint32_t s = lx->pairs[k].src;
    lx->next_pair[k + 1] = lx->first_pair[s];
    lx->first_pair[s] = (uint32_t)(k + 1);
  }
  xmt_status st =
      xmt_priors_chain(lx->form_of[XMT_SRC], nw, lx->forms[XMT_SRC].count,
                       &lx->form_words, &lx->next_form_word);
  if (st == XMT_OK)
    st = xmt_priors_chain(lx->stem_of[XMT_SRC], nw, lx->stems[XMT_SRC].count,
                          &lx->stem_words, &lx->next_stem_word);
  if (st == XMT_OK)
    lx->ready = 1;
  return st;
}

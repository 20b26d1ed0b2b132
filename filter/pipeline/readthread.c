/* readthread.c -- the reader on a thread of its own: the windows it
 * filled wait for the main thread in document order, and those the main
 * thread is done with come back to it. The reader waits for the main
 * thread to be idle before a failure of its own, and before <file>
 * changes what the main thread works with. */
#include "config.h"

#include <string.h>

#include "pipeline_private.h"

int xmt_rthread_start(struct rthread *t, struct window *spare, size_t nspare,
                      void *(*body)(void *), void *arg) {
  memset(t, 0, sizeof *t);
  for (size_t k = 0; k < nspare && k < RTHREAD_WINDOWS; k++)
    t->spare[t->nspare++] = &spare[k];
  pthread_mutex_init(&t->lock, NULL);
  pthread_cond_init(&t->cond, NULL);
  if (pthread_create(&t->thread, NULL, body, arg) != 0) {
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->cond);
    return 1;
  }
  return 0;
}

void xmt_rthread_join(struct rthread *t) {
  pthread_join(t->thread, NULL);
  pthread_mutex_destroy(&t->lock);
  pthread_cond_destroy(&t->cond);
}

int xmt_rthread_stopped(struct rthread *t) {
  return __atomic_load_n(&t->stop, __ATOMIC_RELAXED);
}

/* The main thread failed: the reader stops at its next unit, or at once
 * when it waits. */
void xmt_rthread_stop(struct rthread *t) {
  pthread_mutex_lock(&t->lock);
  __atomic_store_n(&t->stop, 1, __ATOMIC_RELAXED);
  pthread_cond_broadcast(&t->cond);
  pthread_mutex_unlock(&t->lock);
}

static void push_ready(struct rthread *t, struct window *w, int finish) {
  t->ready[t->nready] = w;
  t->finish[t->nready] = finish;
  t->nready++;
  pthread_cond_broadcast(&t->cond);
}

struct window *xmt_rthread_hand(struct rthread *t, struct window *w,
                                int finish) {
  pthread_mutex_lock(&t->lock);
  push_ready(t, w, finish);
  while (t->nspare == 0 && !t->stop)
    pthread_cond_wait(&t->cond, &t->lock);
  struct window *next = t->stop ? NULL : t->spare[--t->nspare];
  pthread_mutex_unlock(&t->lock);
  return next;
}

void xmt_rthread_finish(struct rthread *t, struct window *w, xmt_status st) {
  pthread_mutex_lock(&t->lock);
  t->st = st;
  t->done = 1;
  /* none once stopped in a hand-over: the main thread waits for no more */
  if (w != NULL)
    push_ready(t, w, 0);
  else
    pthread_cond_broadcast(&t->cond);
  pthread_mutex_unlock(&t->lock);
}

int xmt_rthread_wait_idle(struct rthread *t) {
  pthread_mutex_lock(&t->lock);
  while ((t->nready > 0 || t->busy) && !t->stop)
    pthread_cond_wait(&t->cond, &t->lock);
  int stop = t->stop;
  pthread_mutex_unlock(&t->lock);
  return stop;
}

struct window *xmt_rthread_next(struct rthread *t, int *last, int *finish) {
  pthread_mutex_lock(&t->lock);
  t->busy = 0;
  pthread_cond_broadcast(&t->cond);
  while (t->nready == 0)
    pthread_cond_wait(&t->cond, &t->lock);
  struct window *w = t->ready[0];
  *finish = t->finish[0];
  t->nready--;
  for (size_t k = 0; k < t->nready; k++) {
    t->ready[k] = t->ready[k + 1];
    t->finish[k] = t->finish[k + 1];
  }
  /* The reader's last window comes after all the others. */
  *last = t->done && t->nready == 0;
  t->busy = !*last;
  t->windows++;
  pthread_mutex_unlock(&t->lock);
  return w;
}

void xmt_rthread_give(struct rthread *t, struct window *w) {
  pthread_mutex_lock(&t->lock);
  t->spare[t->nspare++] = w;
  pthread_cond_broadcast(&t->cond);
  pthread_mutex_unlock(&t->lock);
}

xmt_status xmt_rthread_status(const struct rthread *t) { return t->st; }

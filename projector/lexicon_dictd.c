/* lexicon_dictd.c -- being split out of lexicon.c */
#include "config.h"

#include "priors_private.h"

#!/bin/sh
# shares.sh -- a Slurm job array that translates a collection: each task
# runs `xliffmt batch` on its share (--share TASK/COUNT: a hash of each
# document's relative path, the same on every node), all of them with one
# PostgreSQL translation memory. A task whose node dies is requeued and
# its share run again: what is written is up to date, what a dead task
# left half done is translated again, and a sentence sent once is taken
# from the cache.
#
#   sbatch --export=ALL,DOCS=docs,OUT=docs.es,CACHE='postgresql:host=db dbname=tm' shares.sh
#   sbatch --dependency=afterany:JOBID --export=ALL,DOCS=docs,OUT=docs.es,CACHE=... final.sh
#
# Env: DOCS (the collection) and OUT (its translation, one tree that every
# node sees at the same path), CACHE (the --cache of every task), MT
# (default apertium:eng-spa), SOURCE and TARGET (default en, es), XLIFFMT
# (default xliffmt). The array counts its tasks from 0.
#SBATCH --array=0-7
#SBATCH --cpus-per-task=4
#SBATCH --requeue
set -eu
: "${DOCS:?} ${OUT:?} ${CACHE:?}"
exec "${XLIFFMT:-xliffmt}" batch "$DOCS" -o "$OUT" \
  -s "${SOURCE:-en}" -t "${TARGET:-es}" --mt "${MT:-apertium:eng-spa}" \
  -j "${SLURM_CPUS_PER_TASK:-1}" -q --cache "$CACHE" \
  --share "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT" \
  --report "$OUT.share-$SLURM_ARRAY_TASK_ID.json"

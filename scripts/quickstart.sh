#!/bin/sh
# quickstart.sh -- installs what is missing, builds xliffmt, and translates
# the sample document.
set -eu
cd "$(dirname "$0")/.."
sh scripts/install-deps.sh
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure --quiet
make -j"$(nproc)" >/dev/null
./xliffmt translate samples/sample.xlf -o sample.es.xlf -s en -t es --mt apertium:eng-spa
./xliffmt check sample.es.xlf
./xliffmt report sample.es.xlf -o report.html
echo "translated document: sample.es.xlf; review page: report.html"

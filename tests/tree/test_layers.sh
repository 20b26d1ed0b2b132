#!/bin/sh
# test_layers.sh: the layers of the source tree hold, checked on the
# sources and on the objects just built: base -> projector -> xliff ->
# filter -> cli, no include and no call from a folder to one above it
# (scripts/check-house.sh --layers).
# Env: XMT_BUILDDIR. Exit 0 pass, 1 fail, 77 skip.
set -u
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
XMT_BUILD=${XMT_BUILDDIR:?} sh "$(dirname "$0")/../../scripts/check-house.sh" --layers

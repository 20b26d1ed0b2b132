#!/bin/sh
# install-deps.sh -- installs the Debian packages xliffmt needs to build,
# test and benchmark, when they are missing.
set -eu

packages="build-essential autoconf automake libtool pkg-config
libexpat1-dev libxml2-dev libxslt1-dev libicu-dev libcunit1-dev
libxml2-utils time libcurl4-openssl-dev zlib1g-dev libstemmer-dev
libsqlite3-dev sqlite3 libxxhash-dev libmicrohttpd-dev libjansson-dev curl
libzip-dev
libgnutls28-dev openssl
libpq-dev postgresql parallel
slurmctld slurmd slurm-client munge
apertium apertium-eng-spa apertium-eng-cat apertium-apy lttoolbox-dev transfuse
dict-freedict-eng-spa dict-freedict-spa-eng translate-toolkit
libreoffice-writer-nogui pandoc python3-docx poppler-utils
chromium python3 nodejs npm clang clang-format clang-tidy cppcheck
universal-ctags"

missing=
for p in $packages; do
  # Node.js from another source (NodeSource's nodejs carries npm, and
  # conflicts with Debian's npm) serves as well as Debian's.
  case $p in
  nodejs) command -v node >/dev/null 2>&1 && continue ;;
  npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  case $status in
    *"install ok installed"*) ;;
    *) missing="$missing $p" ;;
  esac
done
[ -z "$missing" ] && exit 0

echo "installing:$missing" >&2
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null

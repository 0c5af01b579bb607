#!/bin/bash
# bench/fetch.sh PKG: unpacks the Debian source package PKG (with Debian's
# patches applied) into build/bench/src/PKG, once. Uses a private apt
# configuration under build/bench/src/apt made from the system's `deb`
# entries, so the system's apt setup is left as it is.
set -eu
. "$(dirname "$0")/lib.sh"

pkg=${1:?usage: fetch.sh PKG}
[ -f "$SRC/$pkg/.fetched" ] && exit 0

apt=$SRC/apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"

# The system's binary sources, as source sources.
if [ ! -s "$apt/sources.sources" ] && [ ! -s "$apt/sources.list" ]; then
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources \
      >"$apt/sources.sources"
  elif [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list >"$apt/sources.list"
  fi
fi
list=$(ls "$apt"/sources.sources "$apt"/sources.list 2>/dev/null | head -n 1)
[ -s "$list" ] || die "no Debian package sources found in /etc/apt to fetch $pkg from"

apt_options=(-o "Dir::Etc::SourceList=$list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
  -o APT::Sandbox::User=root)
aptget() { apt-get -q "${apt_options[@]}" "$@"; }

# The newest version of the source package; when the mirror lacks its
# files (a security update it does not carry yet: 404), the other
# versions the lists name, newest first.
fetch_source() {
  aptget source "$pkg" && return 0
  local v
  for v in $(apt-cache "${apt_options[@]}" showsrc "$pkg" 2>/dev/null |
    sed -n 's/^Version: //p' | sort -r -u -V); do
    echo "retrying with version $v"
    rm -rf ./* && aptget source "$pkg=$v" && return 0
  done
  return 1
}

if ! ls "$apt"/lists/*Sources* >/dev/null 2>&1; then
  log "fetching the Debian source package lists"
  aptget update >"$apt/update.log" 2>&1 ||
    { cat "$apt/update.log" >&2; die "apt-get update (source lists) failed"; }
fi

command -v dpkg-source >/dev/null || die "dpkg-source missing: install dpkg-dev"
log "fetching Debian source package $pkg"
dl=$SRC/dl-$pkg
rm -rf "$dl" "${SRC:?}/$pkg"
mkdir -p "$dl"
(cd "$dl" && fetch_source) >"$dl.log" 2>&1 ||
  { tail -n 20 "$dl.log" >&2; die "apt-get source $pkg failed (log: $dl.log)"; }
tree=$(find "$dl" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$tree" ] || die "apt-get source $pkg unpacked nothing (log: $dl.log)"
mv "$tree" "$SRC/$pkg"
rm -rf "$dl"
touch "$SRC/$pkg/.fetched"

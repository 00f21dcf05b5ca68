#!/bin/bash
# debian-source.sh - sourced by the runners in tests/external that build programs from Debian 12
# source packages (debian-apps.sh, hypre-scotch.sh, boost-mpi.sh). Needs $work (the runner's
# WORKDIR).

# debian_source_enable PKG: make sure apt can fetch PKG's source, adding Debian 12's deb-src
# entry when there is none yet (as tests/external/mpich-testsuite.sh does).
debian_source_enable() {
    apt-get source --download-only --print-uris "$1" > /dev/null 2>&1 && return 0
    cat > /etc/apt/sources.list.d/nodempi-deb-src.sources <<'EOF2'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF2
    apt-get update -q > /dev/null
}

# debian_source_fetch PKG: unpack PKG's upstream tarball from Debian's archive into $work/src
# and print the directory. Debian's own patches are not applied: the programs are run as their
# authors wrote them (the mirror here sometimes lacks the .debian.tar, which apt-get then reports
# as an error).
debian_source_fetch() {
    local pkg=$1 tarball dir
    mkdir -p "$work/src"
    if ! ls "$work/src/${pkg}_"*.orig.tar.* > /dev/null 2>&1; then
        debian_source_enable "$pkg"
        (cd "$work/src" && apt-get source --download-only "$pkg" > "$work/src/$pkg.fetch.log" 2>&1)
    fi
    tarball=$(ls "$work/src/${pkg}_"*.orig.tar.* | head -1)
    dir=$work/src/$(tar -tf "$tarball" | head -1 | cut -d/ -f1)
    [ -d "$dir" ] || tar -xf "$tarball" -C "$work/src"
    echo "$dir"
}

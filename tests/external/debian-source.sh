#!/bin/bash
# debian-source.sh - sourced by the runners in tests/external that build programs from Debian 12
# source packages (debian-apps.sh, hypre-scotch.sh). Needs $work (the runner's WORKDIR).

# debian_source_fetch PKG: unpack PKG's upstream tarball from Debian's archive into $work/src
# and print the directory. Debian's own patches are not applied: the programs are run as their authors wrote
# them (the mirror here sometimes lacks the .debian.tar, which apt-get then reports as an error).
debian_source_fetch() {
    local pkg=$1 tarball dir
    mkdir -p "$work/src"
    if ! ls "$work/src/${pkg}_"*.orig.tar.* > /dev/null 2>&1; then
        if ! apt-get source --download-only --print-uris "$pkg" > /dev/null 2>&1; then
            # No deb-src entry yet: Debian 12's (as tests/external/mpich-testsuite.sh does).
            cat > /etc/apt/sources.list.d/nodempi-deb-src.sources <<'EOF2'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF2
            apt-get update -q > /dev/null
        fi
        (cd "$work/src" && apt-get source --download-only "$pkg" > "$work/src/$pkg.fetch.log" 2>&1)
    fi
    tarball=$(ls "$work/src/${pkg}_"*.orig.tar.* | head -1)
    dir=$work/src/$(tar -tf "$tarball" | head -1 | cut -d/ -f1)
    [ -d "$dir" ] || tar -xf "$tarball" -C "$work/src"
    echo "$dir"
}

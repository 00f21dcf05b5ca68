#!/bin/bash
# run_hwloc.sh - mpiexec and the ranks load hwloc's topology without what nodempi never reads
# (src/topo/hwloc_lean.c): no plugin (PCI, OpenCL, GL and libxml2 with their libraries were
# about half of mpiexec's CPU time for a 1-rank job, which a launcher short of CPU stretches
# into seconds) and no x86 CPUID backend (it moves the process to every CPU in turn). hwloc
# names what it registers and enables when HWLOC_COMPONENTS_VERBOSE is set. The plugin list
# mpiexec sets around hwloc's init must not reach the ranks; one the user set must.
# Usage: run_hwloc.sh <mpiexec> <report program>
. "$(dirname "$0")/lib.sh"

export HWLOC_COMPONENTS_VERBOSE=1
run -n 1 "$REPORT" HWLOC_PLUGINS_BLACKLIST
unset HWLOC_COMPONENTS_VERBOSE
expect_status 0
expect_line "$OUT" "rank 0 env HWLOC_PLUGINS_BLACKLIST unset"
if grep -q "^hwloc: Registered discovery component" "$ERR"; then
    CHECKS=$((CHECKS + 1))
    ! grep -q "^hwloc: Registered .*from plugin" "$ERR" ||
        launch_fail "a hwloc plugin was loaded: $(grep -m1 'from plugin' "$ERR")"
    CHECKS=$((CHECKS + 1))
    ! grep -q "^hwloc: Enabling discovery component \`x86'" "$ERR" ||
        launch_fail "hwloc's x86 backend was enabled"
else
    echo "note: this hwloc does not report its components; only the environment was checked"
fi

export HWLOC_PLUGINS_BLACKLIST=hwloc_gl
run -n 1 "$REPORT" HWLOC_PLUGINS_BLACKLIST
unset HWLOC_PLUGINS_BLACKLIST
expect_status 0
expect_line "$OUT" "rank 0 env HWLOC_PLUGINS_BLACKLIST=hwloc_gl"

launch_pass

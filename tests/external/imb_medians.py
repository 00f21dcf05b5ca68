#!/usr/bin/env python3
"""imb_medians.py - summarise IMB-MPI1 outputs written by tests/external/imb.sh perf.

Reads PERF_DIR/r<round>-np<n>-<mpi>.txt and prints, per rank count, benchmark and message size,
the median over rounds of each MPI's time (t[usec] for PingPong/PingPing, t_max for
Sendrecv/Exchange, t_avg for collectives; for Uniband/Biband, whose output has no time, the
Mbytes/sec column, where higher is better) and the ratio nodempi / best peer. A ratio above 1.10
in at least 2 of the rounds is flagged with '*' (times) - the rounds are compared one by one,
since only ratios within one interleaved round mean anything on a shared machine.

Usage: imb_medians.py PERF_DIR [MPI...]   (default MPIs: nodempi openmpi mpich)
"""
import glob
import os
import re
import statistics
import sys


def parse(path):
    """{(bench, size): value} from one IMB output file."""
    out, bench, cols = {}, None, None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"# Benchmarking (\S+)", line)
            if m:
                bench = m.group(1)
                continue
            if line.strip().startswith("#bytes") or line.strip().startswith("#repetitions"):
                cols = line.split()
                continue
            parts = line.split()
            if not bench or not cols or not parts or len(parts) != len(cols):
                continue
            try:
                vals = [float(p) for p in parts]
            except ValueError:
                continue
            row = dict(zip(cols, vals))
            size = int(row.get("#bytes", 0))
            for key in ("t[usec]", "t_avg[usec]" if bench not in ("Sendrecv", "Exchange")
                        else "t_max[usec]", "Mbytes/sec"):
                if key in row:
                    out[(bench, size)] = (row[key], key == "Mbytes/sec")
                    break
    return out


def main():
    perf = sys.argv[1]
    mpis = sys.argv[2:] or ["nodempi", "openmpi", "mpich"]
    data = {}  # (np, round, mpi) -> parsed
    for path in glob.glob(os.path.join(perf, "r*-np*-*.txt")):
        m = re.match(r"r(\d+)-np(\d+)-(\w+)\.txt", os.path.basename(path))
        if m and m.group(3) in mpis:
            data[(int(m.group(2)), int(m.group(1)), m.group(3))] = parse(path)
    for np_ in sorted({k[0] for k in data}):
        rounds = sorted({k[1] for k in data if k[0] == np_})
        keys = set()
        for r in rounds:
            keys |= set(data.get((np_, r, "nodempi"), {}))
        print(f"\n## {np_} ranks ({len(rounds)} rounds; medians; ratio = nodempi / best peer,"
              " >1 is nodempi slower; bandwidth rows inverted so >1 is still worse)")
        print(f"{'benchmark':22} {'bytes':>8} " + " ".join(f"{m:>10}" for m in mpis)
              + f" {'ratio':>6} {'rounds>1.1':>10}")
        for bench, size in sorted(keys, key=lambda k: (k[0], k[1])):
            med, bw = {}, False
            per_round = []
            for r in rounds:
                vals = {}
                for mpi in mpis:
                    v = data.get((np_, r, mpi), {}).get((bench, size))
                    if v:
                        vals[mpi] = v[0]
                        bw = v[1]
                peers = [vals[m] for m in mpis if m != "nodempi" and m in vals and vals[m] > 0]
                if "nodempi" in vals and peers and vals["nodempi"] > 0:
                    best = max(peers) if bw else min(peers)
                    per_round.append(best / vals["nodempi"] if bw else vals["nodempi"] / best)
            for mpi in mpis:
                vs = [data[(np_, r, mpi)][(bench, size)][0] for r in rounds
                      if (bench, size) in data.get((np_, r, mpi), {})]
                med[mpi] = statistics.median(vs) if vs else None
            peers = [med[m] for m in mpis if m != "nodempi" and med[m]]
            ratio = None
            if med.get("nodempi") and peers:
                best = max(peers) if bw else min(peers)
                ratio = best / med["nodempi"] if bw else med["nodempi"] / best
            slow = sum(1 for x in per_round if x > 1.10)
            flag = "*" if slow >= 2 else ""
            cells = " ".join(f"{med[m]:>10.2f}" if med[m] is not None else f"{'-':>10}"
                             for m in mpis)
            rs = f"{ratio:6.2f}" if ratio is not None else f"{'-':>6}"
            print(f"{bench:22} {size:>8} {cells} {rs} {slow:>9}{flag}")


if __name__ == "__main__":
    main()

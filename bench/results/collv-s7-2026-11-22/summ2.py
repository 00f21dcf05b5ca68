import csv, sys, statistics, collections
# per (op, metric, n, x): per-rep ratio nodempi/best peer, its median; mins; medians
f = sys.argv[1]; ref = sys.argv[2] if len(sys.argv) > 2 else "base"
peers = sys.argv[3].split(",") if len(sys.argv) > 3 else ["openmpi", "mpich"]
mode = sys.argv[4] if len(sys.argv) > 4 else "all"
v = collections.defaultdict(dict)
for r in csv.reader(open(f)):
    if len(r) != 7: continue
    rep, m, b, x, n, met, val = r
    v[(b, met, int(n), int(float(x)))][(int(rep), m)] = float(val)
order = []
for k in v:
    if k[0] not in order: order.append(k[0])
mpis = [ref] + peers
print("%-22s %-10s %2s %8s | %s | %6s %6s" % ("op", "metric", "n", "bytes", " ".join("%10s" % m for m in mpis), "ratio", "minrat"))
for k in sorted(v, key=lambda k: (k[2], order.index(k[0]), k[1], k[3])):
    d = v[k]; reps = sorted({r for r, m in d})
    rat = []
    for r in reps:
        if (r, ref) in d:
            p = [d[(r, m)] for m in peers if (r, m) in d]
            if p: rat.append(d[(r, ref)] / max(min(p), 1e-9))
    med = {m: statistics.median([d[(r, m)] for r in reps if (r, m) in d]) for m in mpis if any((r, m) in d for r in reps)}
    mins = {m: min([d[(r, m)] for r in reps if (r, m) in d]) for m in med}
    if not rat or ref not in mins: continue
    pm = [mins[m] for m in peers if m in mins]
    minrat = mins[ref] / max(min(pm), 1e-9)
    r = statistics.median(rat)
    if mode == "slow" and not (r > 1.25 and minrat > 1.25): continue
    print("%-22s %-10s %2d %8d | %s | %6.2f %6.2f" % (k[0], k[1], k[2], k[3], " ".join("%10.2f" % med[m] if m in med else "%10s" % "-" for m in mpis), r, minrat))

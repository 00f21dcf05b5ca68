import csv, sys, statistics, collections
# before/after: nodempi (after), base (before), openmpi; per-rep ratios, medians
f = sys.argv[1]; ops = sys.argv[2].split(","); ranks = [int(x) for x in sys.argv[3].split(",")]
v = collections.defaultdict(dict)
for r in csv.reader(open(f)):
    if len(r) != 7: continue
    rep, m, b, x, n, met, val = r
    v[(b, met, int(n), int(float(x)))][(int(rep), m)] = float(val)
def hum(x):
    for u, s in (("M", 20), ("K", 10)):
        if x >= 1 << s and x % (1 << s) == 0: return "%d %siB" % (x >> s, u)
    return "%d B" % x
def fmt(x):
    return "%.0f" % x if x >= 100 else "%.1f" % x if x >= 10 else "%.2f" % x
print("| op | ranks | size | before | after | Open MPI | after / before | after / Open MPI |")
print("|---|---|---|---|---|---|---|---|")
for k in sorted((k for k in v if k[0] in ops and k[2] in ranks), key=lambda k: (ops.index(k[0]), k[2], k[3])):
    d = v[k]; reps = sorted({r for r, m in d})
    med = lambda m: statistics.median([d[(r, m)] for r in reps if (r, m) in d])
    rr = lambda a, b: statistics.median([d[(r, a)] / d[(r, b)] for r in reps if (r, a) in d and (r, b) in d])
    print("| %s | %d | %s | %s | %s | %s | %.2f | %.2f |" % (k[0], k[2], hum(k[3]), fmt(med("base")), fmt(med("nodempi")), fmt(med("openmpi")), rr("nodempi", "base"), rr("nodempi", "openmpi")))

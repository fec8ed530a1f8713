import sys, collections
from benchmarks.fuzz import fuzz_in_child
for g in sys.argv[2].split(","):
    rep = fuzz_in_child(g, int(sys.argv[1]), 0, 3 * 2**30)
    print(g, rep.inputs, "crashes", len(rep.crashes), "hangs", len(rep.hangs), rep.by_kind)
    c = collections.Counter(x.split(": ",1)[1].split(" at ")[-1] + " | " + x.split(": ")[1] for x in rep.crashes)
    for k, v in c.most_common(25): print("  ", v, k)
    for x in rep.crashes[:8]: print(x)
    for h in rep.hangs[:5]: print("  HANG", h)

# SPDX-License-Identifier: MIT
# check.py RESULT.json EXPR WHAT - prints "ok   WHAT" when the python
# expression EXPR holds over the run's JSON result, else "FAIL WHAT" with
# the result's essentials; exit status 0 or 1. In EXPR: r (the result),
# out, status, V (violations), viol(kind, substr='').
import json, sys

path, expr, what = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    with open(path, "rb") as f:
        r = json.loads(f.read().decode("utf-8"))
except Exception as e:
    print("FAIL %s: no JSON result (%s)" % (what, e))
    sys.exit(1)
out = r.get("stdout") or ""
status = r.get("status")
V = r.get("violations") or []


def viol(kind, sub=""):
    return any(v.get("kind") == kind and sub in (v.get("what") or "") for v in V)


try:
    ok = bool(eval(expr))
except Exception as e:
    ok = False
    print("     (the check raised %r)" % (e,))
if ok:
    print("ok   " + what)
    sys.exit(0)
print("FAIL " + what)
print("     expected: " + expr)
print("     status=%s usage=%s" % (status, r.get("usage")))
print("     cgroup: %r, controllers: %r" % (r.get("layers", {}).get("cgroup"),
                                          r.get("layers", {}).get("cgroup_controllers")))
for v in V[:8]:
    print("     violation [%s] %s" % (v.get("kind"), v.get("what")))
for l in out.splitlines()[:10]:
    print("     | " + l[:200])
if r.get("error"):
    print("     error: " + r["error"])
sys.exit(1)

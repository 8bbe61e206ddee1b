# SPDX-License-Identifier: MIT
"""layers.py - the layers of the source tree, checked from what the build
made (docs/architecture.md, "Checking the layers").

A layer is a set of files that may use the layers below it and never the
ones above. Two things break that, and both are read from the build, not
guessed from names:

- A circle: files that use each other round a loop (a.c calls b.c, b.c
  calls c.c, c.c calls a.c). None of them can be read, tested or moved
  without the others. The file-level call graph comes from the objects:
  `nm` lists what each object defines and what it uses from elsewhere, and
  an edge a -> b is a symbol a uses that b defines. The circles are the
  graph's strongly connected components of more than one file (Tarjan's
  algorithm).
- The screen reached from a folder that must not know it: a .c in a
  terminal-free folder that includes curses, itself or through any chain
  of headers. The compiler's dependency files (the .d files -MMD writes
  beside each object) say which headers each .c really read; the #include
  lines of those files give the chain to name.

  layers.py [--build B] [--fail-on-circles] FOLDER|OBJECT...
      the circles among the objects of the folders (B/FOLDER/**.o whose
      FOLDER/**.c exists) or among the objects given; exit 1 with
      --fail-on-circles when there is one
  layers.py --build B --free FOLDER...
      exit 1 when a .c under a FOLDER reaches curses, naming the chain
  layers.py --build B --report FOLDER...
      for a closing note: files per folder, the 15 longest functions
      (universal-ctags), the circles

Exit status: 0 all held, 1 a check failed, 2 could not check (no build,
no nm or ctags). Plain python3, no modules beyond the standard library.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

# nm -P: "name type [value size]"; upper-case types are global. U is
# undefined (used here, defined elsewhere); these define.
DEFINING_TYPES = set("TDBRCGSVW")

# <curses.h>, <ncurses.h>, <ncursesw.h>, <ncurses_dll.h>, <ncursesw/...>,
# <ncurses/...>: any way of reaching the terminal library.
CURSES_RE = re.compile(r'^(curses\.h|ncurses[^/]*\.h|ncursesw?/.+)$')
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def fail_setup(msg):
    print("layers: " + msg, file=sys.stderr)
    sys.exit(2)


# ---- which files ----

def sources_under(folder, ext):
    """Every file under folder whose name ends in ext, sorted."""
    found = []
    for top, dirs, files in os.walk(folder):
        dirs.sort()
        found.extend(os.path.join(top, f) for f in sorted(files) if f.endswith(ext))
    return found


def objects_of(args, build):
    """The object files the arguments name: an .o as given, a folder as
    the objects of its .c files (those not built yet are skipped, and
    objects of deleted sources are not read)."""
    objs = []
    for a in args:
        if a.endswith(".o"):
            if not os.path.isfile(a):
                fail_setup("no object file %s: build first (make)" % a)
            objs.append(a)
            continue
        if not os.path.isdir(a):
            fail_setup("%s is neither a folder nor an object file" % a)
        if not build:
            fail_setup("a folder (%s) needs --build DIR, where its objects are" % a)
        for c in sources_under(a, ".c"):
            o = os.path.join(build, os.path.normpath(c)[:-2] + ".o")
            if os.path.isfile(o):
                objs.append(o)
    return objs


def source_name(obj, build):
    """build/core/run.o -> core/run.c: the file a person opens."""
    p = os.path.normpath(obj)
    if build:
        b = os.path.normpath(build) + os.sep
        if p.startswith(b):
            p = p[len(b):]
    return p[:-2] + ".c" if p.endswith(".o") else p


# ---- (a) the circles ----

def symbols(obj):
    """(defined, used) global symbol names of one object file."""
    try:
        out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    except FileNotFoundError:
        fail_setup("nm is not installed (Debian: binutils)")
    except subprocess.CalledProcessError as e:
        fail_setup("nm could not read %s: %s" % (obj, e.stderr.strip()))
    defined, used = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == "U":
            used.add(f[0])
        elif f[1] in DEFINING_TYPES:
            defined.add(f[0])
    return defined, used


def call_graph(objs):
    """{obj: {other obj: [symbols obj uses that other defines]}}"""
    owner, uses = {}, {}
    for o in objs:
        defined, used = symbols(o)
        uses[o] = used
        for s in defined:
            owner.setdefault(s, o)
    graph = {o: {} for o in objs}
    for o in objs:
        for s in sorted(uses[o]):
            d = owner.get(s)
            if d is not None and d != o:
                graph[o].setdefault(d, []).append(s)
    return graph


def circles(graph):
    """The strongly connected components of more than one node (Tarjan's
    algorithm, iterative: a deep graph needs no recursion limit)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, edges = work[-1]
            advanced = False
            for w in edges:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return sorted(found, key=lambda c: (-len(c), c))


def print_circles(graph, found, build, out=sys.stdout):
    """Each circle with its files, and within it who uses whom for what."""
    print("circles between files: %d" % len(found), file=out)
    for n, comp in enumerate(found, 1):
        names = [source_name(o, build) for o in comp]
        print("  circle %d (%d files): %s" % (n, len(comp), " ".join(names)), file=out)
        inside = set(comp)
        for o in comp:
            for d in sorted(graph[o]):
                if d in inside:
                    syms = graph[o][d]
                    more = " (+%d more)" % (len(syms) - 3) if len(syms) > 3 else ""
                    print("    %s -> %s: %s%s" % (source_name(o, build), source_name(d, build),
                                                   ", ".join(syms[:3]), more), file=out)


def check_circles(paths, build, fail):
    objs = objects_of(paths, build)
    if not objs:
        fail_setup("no object files in %s: build first (make)" % " ".join(paths))
    graph = call_graph(objs)
    found = circles(graph)
    print_circles(graph, found, build)
    if found and fail:
        print("layers: %d circle%s among the files of %s. Files in a circle cannot be "
              "read, tested or moved one without the others. Break each: move what both "
              "sides use into a file below them, or hand the lower file a callback instead "
              "of calling up (docs/architecture.md, \"Checking the layers\")."
              % (len(found), "" if len(found) == 1 else "s", " ".join(paths)), file=sys.stderr)
        return 1
    return 0


# ---- (b) the terminal-free folders ----

def dep_prerequisites(dfile):
    """The files the first rule of a make dependency file names: the .c
    and every header the compiler read for it (-MMD leaves out the
    system's own headers; -MD keeps them)."""
    with open(dfile, encoding="utf-8", errors="replace") as f:
        text = f.read().replace("\\\n", " ")
    first = text.split("\n", 1)[0]
    if ":" not in first:
        return []
    return first.split(":", 1)[1].split()


def includes_of(path):
    """[(line number, '<' or '"', name)] of a file's #include lines."""
    found = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE_RE.match(line)
                if m:
                    found.append((n, m.group(1), m.group(2)))
    except OSError:
        pass
    return found


def resolve(name, includer, headers):
    """Which of the headers the compiler read an #include name meant:
    beside the includer first, then any read header with that tail."""
    beside = os.path.normpath(os.path.join(os.path.dirname(includer), name))
    if beside in headers:
        return beside
    tail = os.sep + os.path.normpath(name)
    for h in sorted(headers):
        if h == os.path.normpath(name) or h.endswith(tail):
            return h
    return None


def curses_chain(c_file, headers):
    """The shortest include chain from c_file to curses, as a list of
    "file:line" steps ending in the <curses header>, or None."""
    seen = {c_file}
    queue = [(c_file, [])]
    while queue:
        f, chain = queue.pop(0)
        for line, _, name in includes_of(f):
            step = chain + ["%s:%d" % (f, line)]
            if CURSES_RE.match(name):
                return step + ["<%s>" % name]
            h = resolve(name, f, headers)
            if h and h not in seen:
                seen.add(h)
                queue.append((h, step))
    # a build with -MD lists the system's curses headers themselves
    for h in headers:
        if CURSES_RE.match(h.split("/include/", 1)[-1]):
            return [c_file, h]
    return None


_tree_headers = None


def tree_headers(build):
    """Every .h of the source tree (the build directories and hidden ones
    left out), read once."""
    global _tree_headers
    if _tree_headers is None:
        skip = os.path.normpath(build)
        _tree_headers = set()
        for top, dirs, files in os.walk("."):
            dirs[:] = [x for x in dirs if not x.startswith((".", "build"))
                       and os.path.normpath(os.path.join(top, x)) != skip]
            _tree_headers.update(os.path.normpath(os.path.join(top, f))
                                 for f in files if f.endswith(".h"))
    return _tree_headers


def check_free(folders, build):
    if not folders:
        return 0
    if not build:
        fail_setup("--free needs --build DIR (the dependency files are there)")
    bad = 0
    checked = 0
    for folder in folders:
        if not os.path.isdir(folder):
            fail_setup("--free %s: no such folder (TUI_FREE_DIRS in the Makefile names it?)"
                       % folder)
        for c in sources_under(folder, ".c"):
            c = os.path.normpath(c)
            d = os.path.join(build, c[:-2] + ".d")
            if os.path.isfile(d):
                headers = {os.path.normpath(p) for p in dep_prerequisites(d)} - {c}
            else:
                # not an object of this build (a host tool built its own
                # way): its #include lines alone, against the tree's headers
                headers = tree_headers(build)
            checked += 1
            chain = curses_chain(c, headers)
            if chain:
                bad += 1
                print("layers: %s is in a terminal-free folder (%s) but reaches curses: %s.\n"
                      "  Move what needs the screen to a file outside the terminal-free folders, "
                      "or include a header that does not pull curses in (split the one that "
                      "does); TUI_FREE_DIRS in the Makefile lists these folders."
                      % (c, folder, " -> ".join(chain)), file=sys.stderr)
    if bad:
        return 1
    print("layers: %d files in %s: none reaches curses" % (checked, " ".join(folders)))
    return 0


# ---- (c) the report ----

def longest_functions(files, n):
    """[(lines, name, file)] of the n longest function definitions."""
    if not shutil.which("ctags"):
        fail_setup("ctags is not installed (Debian: universal-ctags)")
    out = subprocess.run(["ctags", "--c-kinds=f", "--fields=+ne", "-f", "-"] + files,
                         capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        f = line.split("\t")
        fields = dict(x.split(":", 1) for x in f[3:] if ":" in x)
        if "line" in fields and "end" in fields:
            found.append((int(fields["end"]) - int(fields["line"]) + 1, f[0], f[1]))
    found.sort(key=lambda t: (-t[0], t[2], t[1]))
    return found[:n]


def report(folders, build):
    print("files per folder (.c, .h, lines):")
    all_c = []
    for folder in folders:
        for top, dirs, files in sorted(os.walk(folder)):
            dirs.sort()
            cs = [f for f in files if f.endswith(".c")]
            hs = [f for f in files if f.endswith(".h")]
            if not cs and not hs:
                continue
            lines = 0
            for f in cs + hs:
                with open(os.path.join(top, f), encoding="utf-8", errors="replace") as fh:
                    lines += sum(1 for _ in fh)
            print("  %-24s %4d %4d %7d" % (os.path.normpath(top) + "/", len(cs), len(hs), lines))
            all_c.extend(os.path.join(top, f) for f in sorted(cs))
    print("the 15 longest functions (lines):")
    for lines, name, path in longest_functions(all_c, 15):
        print("  %5d  %s  %s" % (lines, name, os.path.normpath(path)))
    objs = objects_of(folders, build)
    if not objs:
        fail_setup("no object files in %s: build first (make)" % " ".join(folders))
    graph = call_graph(objs)
    print_circles(graph, circles(graph), build)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(
        prog="layers.py",
        description="Circles between files, and curses reached from terminal-free folders, "
                    "read from the build.")
    ap.add_argument("paths", nargs="*", metavar="FOLDER|OBJECT",
                    help="source folders (their objects under --build) or object files")
    ap.add_argument("--build", metavar="DIR", help="the build directory (objects, .d files)")
    ap.add_argument("--fail-on-circles", action="store_true",
                    help="exit 1 when the files call each other in a circle")
    ap.add_argument("--free", nargs="*", metavar="DIR", default=None,
                    help="folders whose .c files must not include curses, even through a header")
    ap.add_argument("--report", action="store_true",
                    help="files per folder, the 15 longest functions, the circles")
    a = ap.parse_args(argv)
    if a.build and not os.path.isdir(a.build):
        fail_setup("no build directory %s: build first (make)" % a.build)
    if a.free is not None:
        if a.paths or a.report or a.fail_on_circles:
            ap.error("--free takes only --build and its folders")
        return check_free(a.free, a.build)
    if not a.paths:
        ap.error("name the folders or object files to read")
    if a.report:
        return report(a.paths, a.build)
    return check_circles(a.paths, a.build, a.fail_on_circles)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

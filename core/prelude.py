# SPDX-License-Identifier: MIT
# sandpit prelude: runs inside the sandbox before the program's first line.
#
# It gives the program its carry-in names as globals, the carry() built-in,
# and an audit hook (PEP 578) that tells the supervisor which line of the
# program did what. All of it only EXPLAINS: the program can tamper with
# any of it, and every limit is enforced by the kernel regardless.
#
# Channel (fd 3, write-only): one JSON object per line.
#   {"t": "hello", "python": [X, Y, Z]}      first, always: the prelude runs
#   {"t": "carry", "v": {name: value, ...}}   carry(name=value) was called
#   {"t": "at", "line": N, "ctx": str}        a call that may be denied next
#   {"t": "ev", "k": kind, "what": str, "line": N}  a runtime-observed violation
#   {"t": "exc", "k": "memory"|"disk"|"process", "line": N}  uncaught error
#   {"t": "var", "name", "type", "repr", "carryable", "value"?, "table"?}
#       a global at the end; a table's first rows for a DataFrame, Series
#       or array: {"shape", "columns", "index", "numeric", "rows"}
#   {"t": "vars", "more": N}                  the globals not listed (N > 0 only)
#   {"t": "last", "type": str, "repr": str}   the last expression's value, not None
#   {"t": "hint", "topic": str, "about": str, "detail": str, "line": N}
#       an uncaught error the sandbox's rules explain (core/hints.c)
#
# The program, not this file, is the __main__ module (see _program_module):
# run as the interpreter's script, this file steps aside under its own
# name first, and imported again (a multiprocessing child re-importing an
# old __main__, a program's own import) it only defines its functions.
import sys
import builtins
import os
import _thread

_CHAN = 3
_AS_SCRIPT = __name__ == "__main__"
if _AS_SCRIPT:
    # The first message, before anything else can fail: the version this
    # runs under. Too old for what follows (audit hooks are 3.8), it stops
    # here; the supervisor reports that, never a traceback from this file.
    os.write(_CHAN, ('{"t": "hello", "python": [%d, %d, %d]}\n'
                     % tuple(sys.version_info[:3])).encode("ascii"))
    if tuple(sys.version_info[:2]) < (3, 8):
        os._exit(125)
    # Programs the run starts with exec (a spawn child, a subprocess)
    # never get the channel; a forked child keeps it, as it keeps carry().
    os.set_inheritable(_CHAN, False)
    # Every function and class below belongs to this module, not to
    # __main__: a pickle or an import of __main__ finds the program.
    __name__ = "_sandpit_prelude"
    sys.modules[__name__] = sys.modules["__main__"]
_SELF = "/sandpit/prelude.py"  # also the name inside the precompiled .pyc
_USER = sys.argv[1] if len(sys.argv) > 1 else "main.py"
# A prepared sandbox (core/prepare.c): the program comes later, on fd 4.
_PREPARED = len(sys.argv) > 3 and sys.argv[3] == "prepared"
_CARRY_MAX = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 1 << 20
_SRC = "/sandpit/main.py"
_write = os.write
_getframe = sys._getframe
_ALLOWED = ("/work", "/tmp", "/cache", "/sandpit", "/usr", "/proc", "/dev/null",
            "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full", "/dev/fd",
            "/dev/shm", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/etc")
_lock = _thread.allocate_lock()
_json = None  # the json module, imported by carry() alone
_encoder = None


def _make_encoder():
    # json.dumps(obj, ensure_ascii=False, allow_nan=False) is json's C
    # encoder underneath; taken directly, it spares every cold run the
    # import of json (re, enum and their compiles: 8 ms of a run's end on
    # the bench machine, for the one "vars" line most runs send). It is
    # checked against json's own output once; a Python without it, or
    # with another signature, uses json.dumps.
    try:
        from _json import make_encoder, encode_basestring

        def default(o):
            raise TypeError("Object of type %s is not JSON serializable"
                            % type(o).__name__)

        def encode(obj):
            # a new encoder each time: its markers (the cycle check) may
            # keep entries after a failure
            return "".join(make_encoder({}, default, encode_basestring, None, ": ", ", ",
                                        False, False, False)(obj, 0))
        if encode({"a": [1, 2.5, None, True, "\u00e9\n"]}) == '{"a": [1, 2.5, null, true, "\u00e9\\n"]}':
            return encode
    except BaseException:
        pass
    import json
    return lambda obj: json.dumps(obj, ensure_ascii=False, allow_nan=False)


def _fresh_lock():
    # A child forked while another thread held the lock would inherit it
    # held, and its first message would wait for ever.
    global _lock
    _lock = _thread.allocate_lock()


if _AS_SCRIPT:
    os.register_at_fork(after_in_child=_fresh_lock)


def _dumps(obj):
    # made on first use: a run that sends nothing but its end pays nothing
    # (its one closing line is written by hand, see _send_line)
    global _encoder
    if _encoder is None:
        _encoder = _make_encoder()
    return _encoder(obj)


def _send(obj):
    try:
        # OSError too: the encoder's first use imports it, which fails
        # where the program has used up its open files
        _send_line((_dumps(obj) + "\n").encode("utf-8", "surrogatepass"))
    except (OSError, ValueError, TypeError):
        pass


def _send_line(data):
    # one whole message, already encoded
    try:
        with _lock:
            _write(_CHAN, data)
    except (OSError, ValueError):
        pass


def _user_line():
    f = _getframe(2)
    while f is not None:
        if f.f_code.co_filename == _USER:
            return f.f_lineno
        f = f.f_back
    return None


def _line_from(f):
    while f is not None:
        if f.f_code.co_filename == _USER:
            return f.f_lineno
        f = f.f_back
    return None


def _watch_spawning():
    """Tell the supervisor when a new thread or process is refused at the
    process limit (the kernel refuses; this only says where)."""
    start = _thread.start_new_thread

    def start_new_thread(*args, **kwargs):
        try:
            return start(*args, **kwargs)
        except RuntimeError:
            _send({"t": "exc", "k": "process", "line": _line_from(_getframe(1))})
            raise
    _thread.start_new_thread = start_new_thread
    fork = os.fork

    def fork_watched():
        try:
            return fork()
        except OSError as e:
            if e.errno == 11:  # EAGAIN
                _send({"t": "exc", "k": "process", "line": _line_from(_getframe(1))})
            raise
    fork_watched.__doc__ = fork.__doc__
    os.fork = fork_watched


def _watch_terminals():
    """Tell the supervisor when the program asks for a pseudo-terminal:
    /dev/ptmx is a file no one may open (core/mounts.c), so the kernel
    refuses with EACCES; this only says where, as a record."""
    for name in ("openpty", "forkpty"):
        real = getattr(os, name, None)
        if real is None:
            continue

        def watched(*args, _real=real, _name=name):
            try:
                return _real(*args)
            except OSError:
                _send({"t": "ev", "k": "syscall", "line": _line_from(_getframe(1)),
                       "what": "%s(): the sandbox has no terminals (no /dev/pts); "
                       "use pipes (subprocess) instead" % _name})
                raise
        watched.__doc__ = real.__doc__
        watched.__name__ = name
        setattr(os, name, watched)


def _top_is_user(up=2, reported=("/shutil.py",), walk=True):
    # Does the access come from the program? Its own frame, or a library
    # it called (fig.savefig, df.to_csv, np.save, shutil.copy): walk out
    # to the nearest program frame. An import on the way means the
    # library is loading itself (its own config, caches): not the program.
    # An open() inside shutil is not counted again: shutil's own events
    # (copyfile, rmtree) have said it.
    f = _getframe(up)
    depth = 0
    while f is not None and depth < 200:
        name = f.f_code.co_filename
        if name == _USER:
            return True
        if not walk:
            return False
        if name.startswith("<frozen importlib") or name.endswith(reported):
            return False
        f = f.f_back
        depth += 1
    return False


_MAX_DEPTH = 64  # SP_CARRY_MAX_DEPTH: what the next run's carry-in may nest
_INT_MIN, _INT_MAX = -(1 << 63), (1 << 63) - 1  # what the supervisor's JSON holds
_carried = {}  # name: bytes of "name":value, as the supervisor counts them
_carried_total = [2]  # the carry-out's bytes so far: {} and commas included


def _size(obj):
    return len(_json.dumps(obj, separators=(",", ":"), ensure_ascii=True, allow_nan=False))


def _not_utf8(s):
    try:
        s.encode("utf-8")
        return None
    except UnicodeEncodeError as e:
        return "holds the lone surrogate U+%04X at index %d, which is not UTF-8" % (
            ord(s[e.start]), e.start)


def _jreal(v):
    # how the supervisor writes a float (core/json_dump.c): repr's shortest
    # digits with jansson's exponent (1e-5, 1e16)
    s = repr(float(v))
    if "e" in s:
        mant, exp = s.split("e")
        s = mant + "e" + ("-" if exp[0] == "-" else "") + (exp.lstrip("+-").lstrip("0") or "0")
    elif "." not in s:
        s += ".0"
    return s


def _problem(v, where, depth, extra):
    """(where, why) when the next run could not take v, else None. Adds
    to extra[0] the bytes the supervisor counts beyond Python's dump."""
    if v is None or v is True or v is False:
        return None
    if isinstance(v, int):
        if _INT_MIN <= v <= _INT_MAX:
            return None
        return (where, "is an integer of %d bits; carried numbers hold at most 64 "
                "(carry str(n) and int() it back)" % v.bit_length())
    if isinstance(v, float):
        if v - v == 0.0:  # finite
            extra[0] += len(_jreal(v)) - len(repr(float(v)))
            return None
        return (where, "is %r, which JSON cannot hold" % v)
    if isinstance(v, str):
        why = _not_utf8(v)
        return (where, why) if why else None
    if isinstance(v, (list, tuple, dict)):
        if depth >= _MAX_DEPTH:
            return (where, "nests deeper than %d levels of lists and dicts" % _MAX_DEPTH)
        if isinstance(v, dict):
            for k, x in v.items():
                if isinstance(k, str):
                    why = _not_utf8(k)
                    if why:
                        return ("a key of " + where, why)
                p = _problem(x, "%s[%r]" % (where, k), depth + 1, extra)
                if p:
                    return p
        else:
            for i, x in enumerate(v):
                p = _problem(x, "%s[%d]" % (where, i), depth + 1, extra)
                if p:
                    return p
        return None
    return None  # json.dumps says what it cannot serialize


def carry(**values):
    """Carry name=value pairs (JSON-serializable) forward to the next run.
    Every value is checked before anything is sent: a call carries all of
    its values or, raising an error that names the value, none."""
    import keyword
    global _json
    if _json is None:
        import json as _json
    sizes = {}
    for name, value in values.items():
        if not name.isidentifier() or keyword.iskeyword(name) or (
                name.startswith("__") and name.endswith("__") and len(name) >= 4):
            raise ValueError("carry(): the name %r cannot be carried: names become the "
                             "next run's variables, so each must be a Python identifier "
                             "(not a keyword or a __dunder__)" % (name,))
        extra = [0]
        p = _problem(value, name, 0, extra)
        if p:
            where = p[0] if len(p[0]) <= 60 else p[0][:57] + "..."
            raise ValueError("carry(): the value of %r cannot be carried: %s %s; nothing "
                             "of this call was carried" % (name, where, p[1]))
        try:
            sizes[name] = _size(name) + 1 + _size(value) + extra[0]
        except (TypeError, ValueError, RecursionError) as e:
            raise TypeError("carry(): the value of %r (type %s) is not JSON-serializable: %s; "
                            "carry numbers, strings, lists and dicts of them"
                            % (name, type(value).__name__, e)) from None
    # counted from what this call changes: a program that carries
    # 40,000 names one call each must not pay for all of them each time
    total, n = _carried_total[0], len(_carried)
    for name, size in sizes.items():
        old = _carried.get(name)
        if old is None:
            total += size + (1 if n else 0)  # a comma before it
            n += 1
        else:
            total += size - old
    if total > _CARRY_MAX:
        raise ValueError("carry(): carrying %s would make the carry-out %d bytes, over "
                         "its limit of %d; nothing of this call was carried (carry "
                         "smaller results, or raise --carry-max)"
                         % (", ".join(sorted(sizes)), total, _CARRY_MAX))
    _carried.update(sizes)
    _carried_total[0] = total
    _send({"t": "carry", "v": values})


_WRITABLE = ("/work", "/tmp", "/dev/shm", "/dev/null", "/dev/zero", "/dev/full",
             "/dev/stdout", "/dev/stderr", "/dev/fd", "/proc/self/fd")


def _under(p, roots):
    for a in roots:
        if p == a or p.startswith(a + "/"):
            return True
    return False


def _outside(path, writing=False):
    """The normalized path when it reaches outside what the sandbox shows
    (or, for a write, outside what it lets the program change); else None."""
    try:
        p = os.fsdecode(path)
    except (TypeError, ValueError):
        return None
    if not isinstance(p, str) or not p:
        return None
    if not p.startswith("/"):
        try:
            p = os.path.join(os.getcwd(), p)  # "../etc/x" leaves /work
        except OSError:
            return None
    p = os.path.normpath(p)
    if writing:
        return None if _under(p, _WRITABLE) else p
    if p == "/":
        return None
    if p == "/etc" or p.startswith("/etc/"):
        # /etc holds a few synthesized files; anything else is the host's
        return None if os.path.exists(p) else p
    return None if _under(p, _ALLOWED) else p


def _mode_name(mode, flags):
    if isinstance(mode, str):
        if any(c in mode for c in "wax+"):
            return "O_WRONLY" if "+" not in mode else "O_RDWR"
        return "O_RDONLY"
    if isinstance(flags, int):
        acc = flags & 3
        return ("O_RDONLY", "O_WRONLY", "O_RDWR", "O_RDWR")[acc]
    return "O_RDONLY"


_FS_READ = ("os.listdir", "os.scandir")
_FS_EVENTS = {
    "os.listdir": "listdir", "os.scandir": "scandir", "os.remove": "unlink",
    "os.rmdir": "rmdir", "os.mkdir": "mkdir", "os.rename": "rename",
    "os.chmod": "chmod", "os.chown": "chown", "os.symlink": "symlink",
    "os.link": "link", "os.truncate": "truncate", "os.utime": "utime",
    "shutil.rmtree": "rmtree", "shutil.copyfile": "copyfile",
}
# Which arguments of a two-path call name what it reads and what it
# changes: os.symlink(target, link) makes the link and never touches its
# target (following it later is what the kernel judges), os.link and
# shutil.copyfile read their first path and write their second, os.rename
# changes both. Others: the first path, read or written as _FS_READ says.
_FS_PATHS = {
    "os.symlink": ((1, True),),
    "os.link": ((0, False), (1, True)),
    "os.rename": ((0, True), (1, True)),
    "shutil.copyfile": ((0, False), (1, True)),
}
_last_dns = [None]
_written = set()  # paths outside opened for writing: their error says "write"


_READ_FAST = ("/work/", "/tmp/", "/usr/", "/sandpit/", "/proc/")
_READ_MODES = ("r", "rb", "rt", "br", "tr")


_HINT_EVENTS = frozenset((
    "ctypes.call_function", "ctypes.dlsym", "fcntl.ioctl", "os.system",
    "subprocess.Popen", "os.exec", "os.posix_spawn", "os.fork", "os.unshare",
    "os.setns", "socket.socketpair", "os.setxattr"))
# Every event this hook looks at; Python raises thousands of others (an
# `import numpy` makes about 3,000), which must cost one set lookup each.
_WANTED = frozenset(("open", "socket.getaddrinfo", "socket.gethostbyname",
                     "socket.gethostbyname_ex", "socket.gethostbyaddr",
                     "socket.__new__")) | frozenset(_FS_EVENTS) | _HINT_EVENTS


def _hook(event, args):
    if event not in _WANTED:
        return
    try:
        if event == "open":
            path, mode, flags = args
            # Fast path, taken by nearly every open: a relative path, or a
            # read under a tree the sandbox shows, needs no frame walk.
            if path.__class__ is str and ".." not in path and (
                    path[:1] != "/" or (path.startswith(_READ_FAST) and (
                        mode in _READ_MODES or
                        (mode is None and flags.__class__ is int and not flags & 3)))):
                return
            if isinstance(path, int) or not _top_is_user():
                return
            how = _mode_name(mode, flags)
            p = _outside(path, how != "O_RDONLY")
            if p is not None:
                if how != "O_RDONLY" and len(_written) < 64:
                    _written.add(path)  # its FileNotFoundError is a write's
                _send({"t": "ev", "k": "filesystem", "line": _user_line(),
                       "what": "open(%r, %s)" % (p, how)})
        elif event in _FS_EVENTS:
            # shutil's events come from its own Python frame: one more up,
            # and out to the program (shutil.copy calls copyfile); os's
            # count from the program's own frame only (os.walk, glob and
            # pathlib look around on their own)
            if not args or not (_top_is_user(3, ()) if event[0] == "s" else
                                _top_is_user(2, (), False)):
                return
            for i, writing in _FS_PATHS.get(event, ((0, event not in _FS_READ),)):
                p = _outside(args[i], writing) if i < len(args) else None
                if p is not None:
                    if writing and len(_written) < 64:
                        _written.add(os.fsdecode(args[i]))
                    _send({"t": "ev", "k": "filesystem", "line": _user_line(),
                           "what": "%s(%r)" % (_FS_EVENTS[event], p)})
                    break
            else:
                if event == "os.chown":  # to another user: the kernel refuses
                    _send({"t": "at", "line": _user_line(), "ctx": None})
        elif event == "socket.getaddrinfo":
            host, port = args[0], args[1]
            if isinstance(host, bytes):
                host = host.decode("ascii", "replace")
            line = _user_line()
            _last_dns[0] = (host, port, line)
            _send({"t": "at", "line": line, "ctx": "DNS lookup of %r" % (host,)})
        elif event in ("socket.gethostbyname", "socket.gethostbyname_ex",
                       "socket.gethostbyaddr"):
            host = args[0]
            if isinstance(host, bytes):
                host = host.decode("ascii", "replace")
            _send({"t": "at", "line": _user_line(), "ctx": "DNS lookup of %r" % (host,)})
        elif event == "socket.__new__":
            fam = args[1]
            if fam == 1:  # AF_UNIX is allowed
                return
            ctx = None
            line = _user_line()
            if _last_dns[0] is not None and _last_dns[0][2] == line:
                ctx = "connect() to %s:%s" % _last_dns[0][:2]
            _last_dns[0] = None
            _send({"t": "at", "line": line, "ctx": ctx})
        elif event in _HINT_EVENTS:
            _send({"t": "at", "line": _user_line(), "ctx": None})
    except Exception:
        pass


def _report_uncaught(exc):
    try:
        # pandas refuses a write into a missing directory before any
        # open(): the audit hook never sees it, so it is said here
        if (isinstance(exc, OSError) and exc.filename is None and exc.args and
                str(exc.args[0]).startswith("Cannot save file into a non-existent")):
            p = _outside(str(exc.args[0]).rpartition(": ")[2].strip("'"), True)
            tb, line = exc.__traceback__, None
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == _USER:
                    line = tb.tb_lineno
                tb = tb.tb_next
            if p is not None:
                _send({"t": "ev", "k": "filesystem", "line": line,
                       "what": "to_csv into %r" % (p,)})
    except Exception:
        pass
    kind = None
    if isinstance(exc, MemoryError):
        kind = "memory"
    elif isinstance(exc, OSError) and exc.errno in (28, 27, 122):  # ENOSPC, EFBIG, EDQUOT
        kind = "disk"
    elif isinstance(exc, (BlockingIOError,)) or (
            isinstance(exc, RuntimeError) and "thread" in str(exc)):
        kind = "process"
    if kind:
        tb = exc.__traceback__
        line = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == _USER:
                line = tb.tb_lineno
            tb = tb.tb_next
        # written by hand, not with json: out of memory, an import may fail
        msg = '{"t": "exc", "k": "%s", "line": %s}\n' % (kind, "null" if line is None else int(line))
        try:
            _write(_CHAN, msg.encode("ascii"))
        except OSError:
            pass


def _hint_topic(exc):
    """(topic, detail) when the sandbox's rules explain exc, else None."""
    if isinstance(exc, ModuleNotFoundError):
        return "module", exc.name
    if isinstance(exc, EOFError) and str(exc) == "EOF when reading a line":
        return "input", None  # input()'s own words, not a pipe's or a pickle's end
    if isinstance(exc, MemoryError):
        return "memory", None
    if isinstance(exc, RecursionError):
        return "recursion", None
    sock = sys.modules.get("socket")
    if sock is not None and isinstance(exc, (sock.gaierror, sock.herror)):
        return "network", None
    err = sys.modules.get("urllib.error")
    if err is not None and isinstance(exc, err.URLError):
        return "network", None
    # (ConnectionRefusedError and kin are not the sandbox's: a socket to
    # another machine cannot even be made here, so they come from a unix
    # socket of the program's own)
    if isinstance(exc, FileNotFoundError):
        name = exc.filename if isinstance(exc.filename, str) else None
        return ("write" if name in _written else "file"), name
    if (isinstance(exc, OSError) and exc.filename is None and exc.args and
            str(exc.args[0]).startswith("Cannot save file into a non-existent directory")):
        return "write", str(exc.args[0]).rpartition(": ")[2].strip("'")  # pandas
    if isinstance(exc, OSError) and exc.errno == 30 and isinstance(exc.filename, str):
        return "readonly", exc.filename  # EROFS: only a write gets it
    if isinstance(exc, PermissionError) and exc.filename is None:
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename.endswith("/socket.py"):
                return "network", None
            tb = tb.tb_next
    return None


def _report_hints(exc):
    # the error and the ones chained to it, as the traceback shows them
    seen = 0
    said = set()
    while exc is not None and seen < 4:
        seen += 1
        try:
            got = _hint_topic(exc)
        except Exception:
            got = None
        if got and got[0] not in said:
            said.add(got[0])
            tb = exc.__traceback__
            line = None
            while tb is not None:
                if tb.tb_frame.f_code.co_filename == _USER:
                    line = tb.tb_lineno
                tb = tb.tb_next
            about = type(exc).__name__
            mod = getattr(type(exc), "__module__", "builtins")
            if mod != "builtins" and isinstance(mod, str):
                about = mod + "." + about
            if got[1] is None:
                # by hand, not with json: out of memory, an import may fail
                msg = '{"t": "hint", "topic": "%s", "about": "%s", "line": %s}\n' % (
                    got[0], about if about.replace(".", "_").isidentifier() else "", "null" if line is None else int(line))
                try:
                    _write(_CHAN, msg.encode("ascii", "replace"))
                except OSError:
                    pass
            else:
                _send({"t": "hint", "topic": got[0], "about": about,
                       "detail": str(got[1])[:200], "line": line})
        exc = exc.__cause__ or exc.__context__


_source = b""


class _Compiled(BaseException):
    pass


def _first_code(source, probe=False):
    # exec() compiles the text, then the trace function stops it at its
    # first frame, before any line runs, and keeps that frame's code.
    # None: use compile() (the trick is not there, or the text has an
    # error or a warning, which compile() then reports under its name).
    import gc
    import _warnings
    me = sys._getframe()
    got = []

    def stop(frame, event, arg):
        # only the frame exec() makes for the text; anything else that
        # runs meanwhile (a finalizer) is left alone, untraced
        if frame.f_back is me and frame.f_code.co_filename == "<string>":
            got.append(frame.f_code)
            raise _Compiled
        return None

    filters = getattr(_warnings, "filters", None)
    if not isinstance(filters, list):
        return None
    mutated = getattr(_warnings, "_filters_mutated", lambda: None)
    as_error = ("error", None, Warning, None, 0)
    gc_was_on = gc.isenabled()
    gc.disable()
    filters.insert(0, as_error)
    mutated()
    ran = False
    try:
        sys.settrace(stop)
        try:
            exec(source, {"__builtins__": builtins})
            ran = True
        except _Compiled:
            pass
        except (SyntaxError, ValueError, Warning):
            return None
        finally:
            sys.settrace(None)
    finally:
        filters.remove(as_error)
        mutated()
        if gc_was_on:
            gc.enable()
    if len(got) == 1 and not ran:
        return got[0]
    if probe:
        return None
    # the text ran untraced: running it again would run it twice
    os.write(2, b"sandpit: the prelude lost control of the program; stopped\n")
    os._exit(70)


_probed = []


def _compile(source):
    """The program's code object, named after the program.

    compile() would do, but its first call builds every type of the ast
    module: about 1 ms, on every run. exec() of text compiles without
    them (see _first_code); the code is then renamed. A probe first shows
    that tracing stops an exec here; a warning or an error in the text
    goes to compile(), which reports it under the program's name."""
    fix = getattr(sys.modules.get("_imp"), "_fix_co_filename", None)
    if not _probed:
        _probed.append(fix is not None and _first_code("0", probe=True) is not None)
    if _probed[0]:
        code = _first_code(source)
        if code is not None:
            fix(code, _USER)
            return code
    return compile(source, _USER, "exec", dont_inherit=True)


# The last value, as a notebook shows it: when the program's last
# top-level statement is an expression (df.head()), its value is kept in
# a hidden global and reported after the run. The statement becomes an
# assignment in the program's own syntax tree, so it runs once, as
# written, on its own lines. Building the tree costs about 1 ms (the ast
# types, on the first call), so a program whose last line plainly is no
# expression (an import, a def, an if, x = ...) is not looked at.
_LAST = "__sandpit_last__"  # "__": not a variable the Variables view lists
_NOT_EXPR = (b"def", b"class", b"if", b"for", b"while", b"with", b"try", b"import",
             b"from", b"return", b"pass", b"raise", b"assert", b"del", b"global",
             b"nonlocal", b"break", b"continue", b"async", b"elif", b"else",
             b"except", b"finally")
_ASSIGN = (b"=", b"+=", b"-=", b"*=", b"/=", b"//=", b"%=", b"**=", b"&=", b"|=",
           b"^=", b">>=", b"<<=", b"@=", b":")


def _may_end_in_expression(source):
    # the last line that starts a statement at column 0, roughly: False
    # only when it plainly is no expression (then nothing is missed but
    # a rare "x = 1" inside a string at column 0)
    for line in reversed(source.splitlines()):
        if not line.strip() or line[:1] in b" \t#)]}":
            continue
        if b";" in line or line.startswith(b"@"):
            return b";" in line
        word = line.split(None, 1)[0].split(b"(")[0].split(b":")[0]
        if word in _NOT_EXPR or word == b"print":  # print() is None
            return False
        i = 0
        while i < len(line) and (line[i:i + 1].isalnum() or line[i:i + 1] in b"_."):
            i += 1
        rest = line[i:].lstrip()
        return not (i and rest.startswith(_ASSIGN) and not rest.startswith(b"=="))
    return False


def _keep_last_value(source, code):
    """code, or the program compiled again with its last statement, when
    that is an expression, stored in _LAST. Warnings were reported by the
    first compile; here they are not repeated."""
    if not _may_end_in_expression(source):
        return code
    import _ast
    import _warnings
    filters = getattr(_warnings, "filters", None)
    quiet = ("ignore", None, Warning, None, 0)
    if isinstance(filters, list):
        filters.insert(0, quiet)
        getattr(_warnings, "_filters_mutated", lambda: None)()
    try:
        tree = compile(source, _USER, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
        body = tree.body
        last = body[-1] if body else None
        if type(last) is not _ast.Expr or (
                len(body) == 1 and type(last.value) is _ast.Constant
                and type(last.value.value) is str):  # a docstring
            return code
        name = _ast.Name(id=_LAST, ctx=_ast.Store())
        body[-1] = _ast.Assign(targets=[name], value=last.value)
        for node in (name, body[-1]):
            for at in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                setattr(node, at, getattr(last, at))
        return compile(tree, _USER, "exec", dont_inherit=True)
    except Exception:
        return code
    finally:
        if isinstance(filters, list) and quiet in filters:
            filters.remove(quiet)
            getattr(_warnings, "_filters_mutated", lambda: None)()


_LAST_MAX = 16384  # bytes of the repr sent; the supervisor cuts it again
_LAST_SECONDS = 0.5


def _report_last(g):
    v = g.pop(_LAST, None)
    if v is None:
        return
    try:
        import _signal
        old = _signal.signal(_signal.SIGALRM, _late)
        _signal.setitimer(_signal.ITIMER_REAL, _LAST_SECONDS)
    except BaseException:
        return
    try:
        t = type(v)
        if t in (list, tuple, dict, set, frozenset, str, bytes, bytearray) and len(v) > 1000:
            # a big builtin container's repr would be all of it (pandas
            # and numpy cut their own): its first items, as reprlib does
            r = _repr_maker()
            r.maxlevel, r.maxstring, r.maxother = 3, 2000, 200
            r.maxlist = r.maxtuple = r.maxdict = r.maxset = 100
            text = r.repr(v)
        else:
            text = repr(v)
        if type(text) is not str:
            text = "<repr is not text>"
    except _Late:
        text = "<repr took over %g s>" % _LAST_SECONDS
    except BaseException as e:
        text = "<repr failed: %s>" % type(e).__name__
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, old)
    data = text.encode("utf-8", "replace")
    if len(data) > _LAST_MAX:
        data = data[:_LAST_MAX]
    tname = type.__dict__["__name__"].__get__(type(v))
    _send({"t": "last", "type": str(tname)[:80],
           "repr": data.decode("utf-8", "ignore")})


# The width of the pane the output is shown in. COLUMNS and LINES are
# what shutil.get_terminal_size() reads (stdout is a pipe); pandas and
# numpy ignore them when they write to a pipe, so their widths are set
# too: now if they are loaded (a prepared sandbox's preload), else just
# after their import, by a finder ahead of the others.
def _pandas_width(pd, cols):
    # pandas takes a pipe for a terminal and fits a frame to
    # get_terminal_size() by leaving columns out ("..."), a few cells
    # over; as a notebook does, show them all, wrapped in blocks of the
    # width (its default without a terminal)
    pd.set_option("display.width", cols)
    if pd.get_option("display.max_columns") == 0:
        pd.set_option("display.max_columns", 20)


_WIDTHS = {"pandas": _pandas_width,
           "numpy": lambda m, n: m.set_printoptions(linewidth=n)}


def _set_width(name, module, cols):
    try:
        _WIDTHS[name](module, cols)
    except Exception:
        pass  # a module of that name that is not the library


class _WidthLoader:
    def __init__(self, loader, name, cols):
        self.loader, self.name, self.cols = loader, name, cols

    def __getattr__(self, attr):
        return getattr(self.loader, attr)

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        # the module's own loader again before its code runs: what it
        # asks of __loader__ (resources) is the real one's
        module.__loader__ = module.__spec__.loader = self.loader
        self.loader.exec_module(module)
        _set_width(self.name, module, self.cols)


class _WidthFinder:
    cols = 0

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name not in _WIDTHS or path is not None:
            return None
        import importlib.machinery
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _WidthLoader(spec.loader, name, cls.cols)
        return spec


def _pane_width():
    cols = os.environ.get("COLUMNS", "")
    if not cols.isdigit() or not 0 < int(cols) <= 1000:
        return
    _WidthFinder.cols = int(cols)
    for name in _WIDTHS:
        if name in sys.modules:
            _set_width(name, sys.modules[name], int(cols))
    sys.meta_path.insert(0, _WidthFinder)


# matplotlib's backend in a run (MPLBACKEND=module://_sandpit_show): Agg,
# whose show() cannot show anything here, so it saves each open figure in
# the work dir (figure-1.png, figure-2.png, ... never over a file there)
# for sandpit to list, keep and draw; tutorial code runs unchanged. Built
# only when matplotlib asks for it, by the finder below.
_SHOW_SRC = """
import os
from matplotlib.backends.backend_agg import _BackendAgg
from matplotlib.backend_bases import _Backend
from matplotlib._pylab_helpers import Gcf

@_Backend.export
class _BackendSandpit(_BackendAgg):
    @classmethod
    def show(cls, *args, **kwargs):
        n = 1
        for manager in Gcf.get_all_fig_managers():
            while os.path.lexists("/work/figure-%d.png" % n):
                n += 1
            manager.canvas.figure.savefig("/work/figure-%d.png" % n)
        Gcf.destroy_all()
"""


class _ShowFinder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "_sandpit_show":
            return None
        import importlib.util
        return importlib.util.spec_from_loader(name, _ShowFinder)

    @staticmethod
    def create_module(spec):
        return None

    @staticmethod
    def exec_module(module):
        exec(_SHOW_SRC, module.__dict__)


def _prepared():
    """Import the preload list (a module that fails is skipped), say
    ready, and wait for the release: the file name, the program, the
    carry-in, and maybe a memfd for stdin (see core/prepare.c). Whatever
    can be done ahead is done here; after the release, only the reads."""
    import _socket
    import json
    done = []
    for name in (sys.argv[4].split(",") if len(sys.argv) > 4 and sys.argv[4] else ()):
        try:
            __import__(name)
            done.append(name)
        except BaseException:
            pass
    _compile("0")  # the probe, ahead
    import _ast
    compile("0", _SELF, "exec", _ast.PyCF_ONLY_AST)  # the ast types, for _keep_last_value
    _send({"t": "ready", "pre": done})
    s = _socket.socket(fileno=4)
    head, fds = b"", []
    while len(head) < 32:
        data, anc, _f, _a = s.recvmsg(32 - len(head), _socket.CMSG_SPACE(8))
        if not data:
            os._exit(125)  # the supervisor is gone
        for level, kind, payload in anc:
            if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                fds += [int.from_bytes(payload[i:i + 4], sys.byteorder)
                        for i in range(0, len(payload) - 3, 4)]
        head += data
    nf, nc, nk, flags = (int.from_bytes(head[i:i + 8], "little") for i in (0, 8, 16, 24))
    body = bytearray(nf + nc + nk)
    view, got = memoryview(body), 0
    src = fds.pop(0) if flags & 2 and fds else None  # a big body: in a memfd
    while got < len(body):
        n = os.readv(src, [view[got:]]) if src is not None else s.recv_into(view[got:])
        if not n:
            os._exit(125)
        got += n
    view.release()
    s.close()  # before any of the program runs
    if src is not None:
        os.close(src)
    if flags & 1 and fds:
        os.dup2(fds[0], 0)
    for fd in fds:
        os.close(fd)
    carried = json.loads(body[nf + nc:].decode("utf-8")) if nk else {}
    cols, lines = (flags >> 16) & 0xFFFF, (flags >> 32) & 0xFFFF
    if cols and lines:  # a cold run has them from its environment
        os.environ["COLUMNS"], os.environ["LINES"] = str(cols), str(lines)
    return body[:nf].decode("utf-8", "surrogateescape"), bytes(body[nf:nf + nc]), carried


# The program's file: sandpit writes its text into the work dir under its
# own name before the program starts (core/files_in.c), as `python3 FILE`
# run in the work dir has it, so __file__'s directory is where the
# attached files are; what a spawn or forkserver child of multiprocessing
# runs again as __mp_main__, what inspect and linecache read. Left as it
# was, it is not listed as a file the run left, in a cold run and a
# prepared one alike.
def _program_file(name):
    """The absolute path of the program's file in the work dir (the name
    is one sandpit checked: a file name, never a path)."""
    return "/work/" + name


def _program_loader(path, source):
    # The loader `python3 FILE` gives __main__; its text comes from memory,
    # since the code's file name is the program's short name
    base = sys.modules["_frozen_importlib_external"].SourceFileLoader

    class ProgramLoader(base):
        def get_source(self, fullname):
            return source.decode("utf-8", "replace")

    return ProgramLoader("__main__", path)


def _program_module(source, carried):
    """The program's module, registered as __main__: what
    runpy.run_path(file, run_name="__main__") or `python3 FILE` gives
    (__file__ absolute and readable, __spec__ None, a __loader__), so
    pickle, multiprocessing, unittest.main(), doctest.testmod(), typing
    and dataclasses find the program's own names. Its globals are the
    Variables view; the carry-in names are among them."""
    import types
    path = _program_file(_USER)
    m = types.ModuleType("__main__")
    g = m.__dict__
    g.update({"__file__": path, "__cached__": None, "__package__": None,
              "__spec__": None, "__loader__": _program_loader(path, source),
              "__builtins__": builtins})
    g.update(carried)
    sys.modules["__main__"] = m
    return g


def _execute(code, g):
    """Run the program's code in its module's globals g; the exit status
    for the interpreter, with the program's end reported."""
    try:
        exec(code, g)
    except SystemExit:
        _report_globals(g)
        raise
    except BaseException as e:
        _report_uncaught(e)
        _report_hints(e)
        info = sys.exc_info()
        del e
        if info[0] is MemoryError:
            g.clear()  # give the memory back so the traceback can be printed
        try:
            _print_exc(info)
        except BaseException:
            sys.stderr.write("%s: %s\n" % (info[0].__name__, info[1]))
        _report_globals(g)
        return 1
    _report_last(g)
    _report_globals(g)
    return 0


def _main():
    global _source, _USER
    builtins.carry = carry
    sys.meta_path.append(_ShowFinder)
    _watch_spawning()
    _watch_terminals()
    if _PREPARED:
        _USER, source, carried = _prepared()
        _source = source
    else:
        with open(_SRC, "rb") as f:
            source = _source = f.read()
        carried = {}
        if os.path.exists("/sandpit/carry.json"):
            import json
            with open("/sandpit/carry.json", "rb") as f:
                carried = json.loads(f.read().decode("utf-8"))
    _pane_width()
    g = _program_module(source, carried)
    sys.argv = [_USER]
    sys.path[0:0] = ["/work"]
    try:
        code = _compile(source)
    except SyntaxError:
        _print_exc(sys.exc_info())
        return 1
    code = _keep_last_value(source, code)
    sys.addaudithook(_hook)
    return _execute(code, g)


# The program's globals at its end, for the Variables view: bounded in
# count, in size and in time, since the program decides what they are (a
# million names, a repr of a gigabyte, a __repr__ that never returns).
# The supervisor bounds them again and never trusts them.
_VARS_MAX = 200
_VARS_SECONDS = 0.2
_VALUE_MAX = 16384
_SKIP_TYPES = ("module", "function", "type", "builtin_function_or_method")


class _Late(BaseException):
    pass


def _late(signum, frame):
    raise _Late


def _carryable(v):
    # JSON can carry it, within the carry buffer's default size: None,
    # bools, finite numbers, text, lists and objects with text keys, at
    # most 64 deep; walked within a budget of nodes and bytes, so a huge
    # value costs no more than a small one. Returns its size, or -1.
    todo = [(v, 0)]
    nodes, size = 10000, 0
    while todo:
        x, depth = todo.pop()
        nodes -= 1
        size += 8
        if nodes < 0 or depth > 64 or size > (1 << 20):
            return -1
        t = type(x)
        if t is str:
            size += len(x)
            if size > (1 << 20):
                return -1
            continue
        if t is int and not _INT_MIN <= x <= _INT_MAX:
            return -1  # past what the supervisor's JSON (and carry) holds
        if x is None or t is bool or t is int:
            continue
        if t is float:
            if x != x or x in (float("inf"), float("-inf")):
                return -1
        elif (t is list or t is tuple or t is dict) and len(x) > nodes:
            return -1
        elif t is list or t is tuple:
            todo.extend((y, depth + 1) for y in x)
        elif t is dict:
            for k, y in x.items():
                if type(k) is not str:
                    return -1
                size += len(k)
                todo.append((y, depth + 1))
        else:
            return -1
    return size


def _repr_maker():
    import reprlib
    from itertools import islice

    class _Repr(reprlib.Repr):
        # reprlib sorts a dict's or a set's keys first: with a million of
        # them that alone would take longer than the time budget
        def repr_dict(self, x, level):
            if not x:
                return "{}"
            if level <= 0:
                return "{...}"
            items = ["%s: %s" % (self.repr1(k, level - 1), self.repr1(v, level - 1))
                     for k, v in islice(x.items(), self.maxdict)]
            return "{%s%s}" % (", ".join(items), ", ..." if len(x) > self.maxdict else "")

        def repr_set(self, x, level):
            if not x:
                return "set()"
            items = [self.repr1(k, level - 1) for k in islice(x, self.maxset)]
            return "{%s%s}" % (", ".join(items), ", ..." if len(x) > self.maxset else "")

    r = _Repr()
    r.maxlevel, r.maxstring, r.maxother = 2, 60, 80
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = 8
    return r


def _short_repr(v, r):
    t = type(v)
    if t is str or t is bytes or t is bytearray:
        text = repr(v[:80])
        return text + "..." if len(v) > 80 else text
    if t is int and v.bit_length() > 4000:
        return "<int of %d bits>" % v.bit_length()
    return r.repr(v)


_TABLE_ROWS, _TABLE_COLS, _CELL_MAX = 60, 20, 32


def _cell(x):
    if type(x) is float or type(x).__name__.startswith("float"):
        # as pandas shows it: six decimals at most, without trailing zeros
        text = "%.6f" % x if 1e-4 <= abs(x) < 1e15 else "%.6g" % x
        if "." in text and "e" not in text:
            text = text.rstrip("0") + ("0" if text.rstrip("0").endswith(".") else "")
    else:
        text = str(x)
    text = text.replace("\n", " ")[:_CELL_MAX]
    return text.encode("utf-8", "replace").decode("utf-8")  # no lone surrogate


def _table(v):
    """The first rows of a DataFrame, Series or 1-2 dimensional array,
    as text, for the table view; None for anything else. Only pandas and
    numpy already loaded are looked at: nothing is imported for it."""
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    rows = _TABLE_ROWS
    if pd is not None and isinstance(v, pd.Series):
        v = v.to_frame(name=v.name if v.name is not None else "value")
    if pd is not None and isinstance(v, pd.DataFrame):
        part = v.iloc[:rows, :_TABLE_COLS]
        kinds = [getattr(t, "kind", "O") for t in part.dtypes]
        return {"shape": [int(v.shape[0]), int(v.shape[1])],
                "columns": [_cell(c) for c in part.columns],
                "index": [_cell(i) for i in part.index],
                "numeric": [k in "iufc" for k in kinds],
                "rows": [[_cell(x) for x in r] for r in part.itertuples(index=False, name=None)]}
    if np is not None and isinstance(v, np.ndarray) and v.ndim in (1, 2):
        a = v.reshape(-1, 1) if v.ndim == 1 else v
        part = a[:rows, :_TABLE_COLS]
        return {"shape": [int(s) for s in a.shape],
                "columns": [str(c) for c in range(part.shape[1])],
                "index": [str(i) for i in range(part.shape[0])],
                "numeric": [a.dtype.kind in "iufc"] * part.shape[1],
                "rows": [[_cell(x) for x in r] for r in part.tolist()]}
    return None


def _report_globals(g):
    # Nothing is set up before the first value to show: most short
    # programs leave none, and then their end costs no timer, no import
    # and no message (the supervisor needs the closing line only when
    # names were left out).
    r = None
    timed = False
    shown = more = 0
    try:
        # no copy of a million items: a __repr__ that changes the globals
        # ends the walk (RuntimeError), as the time budget does
        total = len(g)
        for i, (name, v) in enumerate(g.items()):
            if type(name) is not str or name.startswith("__"):
                continue
            tname = type.__dict__["__name__"].__get__(type(v))
            if tname in _SKIP_TYPES:
                continue
            if not timed:
                try:
                    import time
                    import _signal
                    old = _signal.signal(_signal.SIGALRM, _late)
                    timed = True
                    _signal.setitimer(_signal.ITIMER_REAL, _VARS_SECONDS)
                    end = time.monotonic() + _VARS_SECONDS
                    r = _repr_maker()
                except _Late:
                    raise
                except BaseException:
                    break
            if shown >= _VARS_MAX or time.monotonic() > end:
                # the rest is counted, not looked at: a million names
                # cost no more than a few
                more += total - i
                break
            try:
                text = _short_repr(v, r)
            except _Late:
                more += 1
                break
            except BaseException as e:
                text = "<repr failed: %s>" % type(e).__name__
            if type(text) is not str:
                text = "<repr is not text>"
            # a lone surrogate would make the message invalid UTF-8
            name = name[:80].encode("utf-8", "replace").decode("utf-8")
            text = text[:200].encode("utf-8", "replace").decode("utf-8")
            size = _carryable(v)
            msg = {"t": "var", "name": name[:80], "type": str(tname)[:40],
                   "repr": text[:200], "carryable": size >= 0}
            if 0 <= size <= _VALUE_MAX:
                msg["value"] = v
            elif size < 0:
                try:
                    table = _table(v)
                except _Late:
                    raise
                except BaseException:
                    table = None
                if table is not None:
                    msg["table"] = table
            _send(msg)
            shown += 1
    except (_Late, RuntimeError):
        pass
    finally:
        if timed:
            _signal.setitimer(_signal.ITIMER_REAL, 0)
            _signal.signal(_signal.SIGALRM, old)
    if more:
        # the same bytes json's encoder makes, without loading it (_json
        # is a shared library: 0.23 ms of a cold run's end, for one line)
        _send_line(b'{"t": "vars", "more": %d}\n' % more)


def _print_exc(info):
    import traceback
    etype, value, tb = info
    # drop the prelude's own frames: the traceback is about the program
    import linecache
    # the program is not a file under its own name: lend its lines
    text = _source.decode("utf-8", "replace")
    linecache.cache[_USER] = (len(text), None, text.splitlines(True), _USER)
    te = traceback.TracebackException(etype, value, tb)
    te.stack = traceback.StackSummary.from_list(
        [f for f in te.stack if f.filename != _SELF])
    sys.stderr.write("".join(te.format()))


def _end_prepared():
    """A prepared run ends as Python's own exit would, for the program:
    its threads joined, its atexit functions run, stdout and stderr
    flushed, the same exit status; then os._exit. Tearing down every
    module and collecting them (Py_Finalize) would cost the program the
    CPU of unloading what it did not load: 150 ms with numpy, pandas and
    matplotlib preloaded."""
    try:
        code = _main()
    except SystemExit as e:
        code = e.code
        if code is None:
            code = 0
        elif not isinstance(code, int):
            try:
                sys.stderr.write("%s\n" % (code,))
            except BaseException:
                pass
            code = 1
    try:
        t = sys.modules.get("threading")
        if t is not None:
            t._shutdown()
        import atexit
        atexit._run_exitfuncs()
    except BaseException:
        pass
    try:
        sys.stdout.flush()
    except BaseException:
        code = 120  # as Python, when stdout cannot be flushed at exit
    try:
        sys.stderr.flush()
    except BaseException:
        pass
    os._exit(code & 0xFF if -(1 << 62) < code < (1 << 62) else 255)


if _AS_SCRIPT:
    if _PREPARED:
        _end_prepared()
    sys.exit(_main())

# SPDX-License-Identifier: MIT
# runner.py - one CPython regression-test module, as tests/compat/run.sh
# runs it: bare (python3 -I -u -B in an empty directory) and in sandpit
# (the same file, the same zip of the test package attached). It unpacks
# the test package where it runs, so both see the same files at the same
# relative place, runs the module with unittest, and prints one line:
#   COMPAT-RESULT {"test id": "pass"|"fail"|"error"|"skip"|..., ...}
# The module's name is the line MODULE = ... below, which run.sh fills in.
import io
import json
import os
import sys
import unittest
import zipfile

MODULE = "@MODULE@"

# A spawn or forkserver child of a test imports this file again (as
# __mp_main__), as it would any program's: it must find the test package
# and do nothing else.
sys.path.insert(0, os.getcwd())
outcome = {}


class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test)
        outcome.setdefault(test.id(), "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        outcome[test.id()] = "fail"

    def addError(self, test, err):
        super().addError(test, err)
        outcome[test.id()] = "error"

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        outcome[test.id()] = "skip"

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        outcome[test.id()] = "xfail"

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        outcome[test.id()] = "xpass"

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            outcome[test.id()] = "fail"


def main():
    zipfile.ZipFile("pytests.zip").extractall(".")
    from test import support
    # the resources regrtest gates (network, large files, GUI, ...) stay
    # off, bare and in the sandbox alike: the comparison is the sandbox's
    support.use_resources = []
    stream = io.StringIO()
    try:
        suite = unittest.defaultTestLoader.loadTestsFromName(MODULE)
        unittest.TextTestRunner(stream=stream, resultclass=Result, verbosity=2).run(suite)
    except BaseException as e:  # the module could not even load
        outcome["<load>"] = "error: %s" % type(e).__name__
    sys.stdout.flush()
    sys.stderr.write(stream.getvalue()[-20000:])
    sys.stdout.write("\nCOMPAT-RESULT " + json.dumps(outcome, sort_keys=True) + "\n")
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()

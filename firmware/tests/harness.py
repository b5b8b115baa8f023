"""A tiny test runner that works under MicroPython and CPython: every test_* function of
the calling module runs; the last line is `OK <name> <count>`, or FAIL lines and exit 1.

    from harness import run
    ...
    run(globals(), "debounce")
"""

import sys

try:
    from sys import print_exception
except ImportError:  # CPython
    import traceback

    def print_exception(err):
        traceback.print_exception(type(err), err, err.__traceback__)


def run(namespace, name):
    names = sorted([key for key in namespace if key.startswith("test_")])
    failed = 0
    for key in names:
        test = namespace[key]
        if not callable(test):
            continue
        try:
            test()
        except Exception as err:
            failed += 1
            print("FAIL", name, key, repr(err))
            print_exception(err)
    if failed:
        print("FAILED", name, failed, "of", len(names))
        sys.exit(1)
    print("OK", name, len(names))


def raises(kind, function, *args):
    """True if function(*args) raises `kind`."""
    try:
        function(*args)
    except kind:
        return True
    return False

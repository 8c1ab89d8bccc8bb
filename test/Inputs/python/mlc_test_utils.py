"""Helpers shared by the Python lit tests.

lit.cfg.py puts this folder on the tests' PYTHONPATH, beside the mlc package
of the source tree: `from mlc_test_utils import expect_error`.
"""


def expect_error(kind, fn, *args):
    """Calls fn(*args), which must raise `kind`; prints "Kind: message" for
    FileCheck."""
    try:
        fn(*args)
    except kind as err:
        print("%s: %s" % (kind.__name__, err))
        return
    raise AssertionError("no %s raised" % kind.__name__)

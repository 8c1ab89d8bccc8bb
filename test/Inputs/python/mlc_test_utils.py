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


def relay_main(params, body):
    """Relay text of `def @main` taking float32 `params` ((name, array)
    pairs) and returning `body`."""
    args = ", ".join("%%%s: Tensor[(%s), float32]" % (name, ", ".join(map(str, v.shape)))
                     for name, v in params)
    return '#[version = "0.0.5"]\ndef @main(%s) {\n%s\n}\n' % (args, body)


def kernels_after(module_text, passes):
    """The kernels of a relay/relax module, bufferized, after `passes` (the
    inside of a builtin.module pass pipeline)."""
    from mlc import tools
    kernels = tools.run("mlc-opt", ["--mlc-graph-to-kernels", "--mlc-cpu-bufferize"],
                        input_text=module_text)
    return tools.run("mlc-opt", ["--pass-pipeline=builtin.module(%s)" % passes],
                     input_text=kernels)


def default_scheduled(module_text):
    """The kernels of a relay/relax module after mlc-default-schedule."""
    return kernels_after(module_text, "func.func(mlc-default-schedule)")


def bind_relay_params(inputs, params, body):
    """The relax text of a Relay `def @main` over float32 `inputs` and
    `params` ((name, array) pairs) returning `body`, with `params` bound as
    constants (relay-bind-params), as mlc-run --params binds weights."""
    import os
    import tempfile
    import numpy as np
    import mlc
    from mlc import tools
    text = relay_main(inputs + params, body)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "params.npz")
        np.savez(path, **dict(params))
        return tools.run("mlc-opt", ["--relay-bind-params=params=" + path],
                         input_text=mlc.relay.fromtext(text).text)

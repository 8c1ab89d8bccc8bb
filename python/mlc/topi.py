"""A few of TVM's `tvm.topi` operators as te.compute stages, for
BlockBuilder.emit_te (the MLC course uses topi.nn.dense and topi.add):
elementwise add/subtract/multiply/divide with numpy broadcasting, nn.relu,
nn.dense (data @ weight^T + bias), matmul."""

from . import te

__all__ = ["add", "divide", "matmul", "multiply", "nn", "subtract"]


def _broadcast_shape(a, b):
    shape = []
    for x, y in zip(reversed((1,) * (len(b) - len(a)) + tuple(a)),
                    reversed((1,) * (len(a) - len(b)) + tuple(b))):
        if x != y and 1 not in (x, y):
            raise ValueError("topi: shapes %s and %s do not broadcast" % (list(a), list(b)))
        shape.append(max(x, y))
    return tuple(reversed(shape))


def _broadcast_index(tensor, axes):
    """The indices of `tensor` at the output axes `axes` (numpy broadcasting)."""
    offset = len(axes) - len(tensor.shape)
    return [0 if extent == 1 else axes[offset + d] for d, extent in enumerate(tensor.shape)]


def _elementwise(name, op):
    def f(lhs, rhs):
        if not isinstance(rhs, te.Tensor):
            return te.compute(lhs.shape, lambda *i: op(lhs(*i), rhs), name="T_" + name)
        if not isinstance(lhs, te.Tensor):
            return te.compute(rhs.shape, lambda *i: op(lhs, rhs(*i)), name="T_" + name)
        shape = _broadcast_shape(lhs.shape, rhs.shape)
        return te.compute(shape, lambda *i: op(lhs(*_broadcast_index(lhs, i)),
                                               rhs(*_broadcast_index(rhs, i))),
                          name="T_" + name)
    f.__name__ = name
    f.__doc__ = "topi.%s: elementwise, with numpy broadcasting" % name
    return f


add = _elementwise("add", lambda a, b: a + b)
subtract = _elementwise("subtract", lambda a, b: a - b)
multiply = _elementwise("multiply", lambda a, b: a * b)
divide = _elementwise("divide", lambda a, b: a / b)


def matmul(a, b, transpose_a=False, transpose_b=False):
    """topi.matmul of two 2-D tensors."""
    m = a.shape[1] if transpose_a else a.shape[0]
    k = a.shape[0] if transpose_a else a.shape[1]
    n = b.shape[0] if transpose_b else b.shape[1]
    r = te.reduce_axis((0, k), "k")
    return te.compute((m, n), lambda i, j: te.sum(
        (a[r, i] if transpose_a else a[i, r]) * (b[j, r] if transpose_b else b[r, j]),
        axis=r), name="T_matmul")


class nn:  # noqa: N801 (TVM's module name)
    """topi.nn."""

    @staticmethod
    def relu(x):
        return te.compute(x.shape, lambda *i: te.max(x(*i), 0), name="relu")

    @staticmethod
    def dense(data, weight, bias=None, out_dtype=None):
        """data (M x K) @ weight (N x K)^T (+ bias (N))."""
        if data.shape[1] != weight.shape[1]:
            raise ValueError("topi.nn.dense: data %s and weight %s disagree on K"
                             % (list(data.shape), list(weight.shape)))
        r = te.reduce_axis((0, data.shape[1]), "k")
        out = te.compute((data.shape[0], weight.shape[0]),
                         lambda i, j: te.sum(data[i, r] * weight[j, r], axis=r),
                         name="T_matmul_NT")
        if bias is not None:
            out = te.compute(out.shape, lambda i, j: out[i, j] + bias[j], name="T_add")
        return out

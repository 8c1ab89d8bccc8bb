"""torch.fx graphs of aten ops to relax: what `from_exported_program`
translates (torch.export's graph module), and `from_fx(..., aten=True)`
(the same graph traced with make_fx, which this torch has).

The aten operators share their schemas with TorchScript's, so the table is
the relay front end's (`mlc.relay.frontend.pytorch`): the graph becomes
Relay text, is imported (in process through the C API, else with the tools),
its parameters are bound as constants (unless kept as inputs), and
`relay-to-relax` makes it relax.
"""

import os
import tempfile

from ....ir import Module
from ....relay.frontend import pytorch as _table


def from_aten_graph(graph_module, user_inputs, params, outputs, *,
                    keep_params_as_input=False, custom_convert_map=None):
    """`graph_module`: an fx graph of aten ops; `user_inputs`: (placeholder,
    name[, (shape, dtype) where the graph records none]) of its tensor
    inputs, in order; `params`: placeholder -> (module
    path, tensor) of its parameters, buffers and lifted constants;
    `outputs`: the fx nodes it returns. Returns a Module of the relax
    dialect."""
    from .... import tools
    from ....relay import fromtext

    state = {path: tensor for path, tensor in params.values()}
    converter = _table._Converter(state, custom_convert_map, "float32")
    for placeholder, (path, _) in params.items():
        converter.values[placeholder] = _table._Attribute(path)
    nodes = {n.name: n for n in graph_module.graph.nodes}
    inputs = []
    for placeholder, name, *given in user_inputs:
        meta = _table._fx_meta(nodes[placeholder].meta) or (given[0] if given else None)
        if meta is None or meta[0] is None:
            raise ValueError("input %r has no recorded shape" % name)
        inputs.append((placeholder, name, meta[0], meta[1] or "float32"))
    text = converter.run(_table._fx_nodes(graph_module), inputs,
                         [_table._Ref(n.name) for n in outputs])
    with tempfile.TemporaryDirectory() as tmp:
        meta = {str(i): a for i, a in enumerate(converter.meta)}
        relay = fromtext(text, meta=meta or None)
        passes = ["relay-to-relax"]
        if converter.params and not keep_params_as_input:
            params_path = os.path.join(tmp, "params.npz")
            tools.save_npz(params_path, converter.params)
            passes.insert(0, "relay-bind-params{params=%s}" % params_path)
        relax = tools.run_passes(relay.text, ",".join(passes))
    if keep_params_as_input and converter.params:
        relax = _with_num_input(relax, "main", len(inputs))
    mod = Module(relax)
    if keep_params_as_input:
        mod.params = {"main": list(converter.params.values())}
        mod.param_names = {"main": list(converter.params)}
    return mod


def _with_num_input(text, func, num_input):
    """`text` with `relax.num_input` on @`func`: its first `num_input`
    parameters are inputs, the others weights (TVM's from_exported_program
    sets "num_input" so with keep_params_as_input, for
    LiftTransformParams). MLIR prints a function's header on one line, its
    own attributes after the `attributes` keyword."""
    attr = "relax.num_input = %d : i64" % num_input
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("func.func @%s(" % func):
            continue
        if " attributes {" in line:
            lines[i] = line.replace(" attributes {", " attributes {%s, " % attr, 1)
        elif line.endswith(" {"):
            lines[i] = line[:-2] + " attributes {%s} {" % attr
        return "\n".join(lines)
    raise ValueError("no function @%s in the imported module" % func)


def trace_with_make_fx(model, example_args):
    """`model` traced into aten ops with make_fx over its parameters and
    buffers (functional_call): the graph torch.export would give, on the
    torch this machine has. Returns (graph_module, user_inputs, params,
    outputs) for from_aten_graph."""
    import torch
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch.nn.utils import stateless

    named = dict(model.named_parameters())
    named.update(model.named_buffers())
    names = list(named)

    def call(flat_params, *args):
        return stateless.functional_call(model, dict(zip(names, flat_params)), args)

    from torch.fx.passes.shape_prop import ShapeProp

    flat = [named[n].detach() for n in names]
    with torch.no_grad():
        graph_module = make_fx(call)(flat, *example_args)
        # Every result's shape (make_fx records none for tuple results).
        ShapeProp(graph_module).propagate(*flat, *example_args)
    placeholders = [n for n in graph_module.graph.nodes if n.op == "placeholder"]
    params = {p.name: (name, named[name].detach())
              for p, name in zip(placeholders, names)}
    user = [(p.name, "input%d" % i,
             (tuple(x.shape), _table._torch_dtype_name(x.dtype)))
            for i, (p, x) in enumerate(zip(placeholders[len(names):], example_args))]
    output = next(n for n in graph_module.graph.nodes if n.op == "output")
    result = output.args[0]
    outputs = list(result) if isinstance(result, (list, tuple)) else [result]
    return graph_module, user, params, outputs

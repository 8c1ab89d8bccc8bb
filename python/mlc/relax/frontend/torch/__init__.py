"""PyTorch front end (tvm.relax.frontend.torch): from_fx and
from_exported_program. torch is imported when they are called, so `import
mlc` works without it."""


def from_fx(model, input_info, *, keep_params_as_input=False,
            unwrap_unit_return_tuple=False, no_bind_return_tuple=False,
            custom_convert_map=None, aten=False):
    """Imports a `torch.fx.GraphModule` (or an nn.Module, traced with
    `torch.fx.symbolic_trace`) into a Module of the relax dialect, with TVM's
    signature.

    `input_info` is `[(shape, dtype), ...]`, one per graph input; a shape may
    hold strings for symbolic dimensions (`("n", 3, 224, 224)`), which become
    `#relax.shape` symbols. Parameters and buffers are named by their module
    path (`layer1.0.conv1.weight`) as `relax.name`; they are bound as
    dense_resource constants, or kept as parameters of `main` after the
    inputs with `keep_params_as_input` (see `detach_params`).

    mlc's relax functions return several results directly (no tuple type), so
    `unwrap_unit_return_tuple` and `no_bind_return_tuple` change nothing; they
    are accepted for TVM compatibility. `custom_convert_map` maps a module
    type, function or method name to `fn(node, translator)` returning the
    converted value (see FXTranslator.emit).

    Every unsupported operation is listed in one error before anything is
    converted.

    With `aten=True` the module is traced to aten operators with make_fx
    (static shapes: `input_info` may not hold symbols) and converted by
    the aten table that `from_exported_program` uses; `custom_convert_map`
    then maps an aten operator (`"aten::elu"`) to a converter as in
    `mlc.relay.frontend.from_pytorch`.
    """
    import torch
    from .fx_translator import FXTranslator

    if aten:
        from . import aten as _aten
        import numpy as np

        shapes = [tuple(shape) for shape, _ in input_info]
        if any(not isinstance(d, int) for shape in shapes for d in shape):
            raise ValueError("from_fx(aten=True) takes static shapes, got %s" % shapes)
        examples = [torch.from_numpy(np.zeros(shape, dtype=dtype))
                    for shape, (_, dtype) in zip(shapes, input_info)]
        graph, user, params, outputs = _aten.trace_with_make_fx(model, examples)
        return _aten.from_aten_graph(graph, user, params, outputs,
                                     keep_params_as_input=keep_params_as_input,
                                     custom_convert_map=custom_convert_map)

    del no_bind_return_tuple  # results are never bound to a tuple
    if not isinstance(model, torch.fx.GraphModule):
        model = torch.fx.symbolic_trace(model)
    return FXTranslator(model, input_info, custom_convert_map).translate(
        keep_params_as_input, unwrap_unit_return_tuple)


def from_exported_program(exported_program, *, keep_params_as_input=False,
                          unwrap_unit_return_tuple=False, no_bind_return_tuple=False,
                          custom_convert_map=None, run_ep_decomposition=True):
    """tvm.relax.frontend.torch.from_exported_program: a `torch.export`
    ExportedProgram (torch 2.1 or later) to a Module of the relax dialect.
    Its graph of aten operators goes through the aten table (see `aten.py`;
    tested here through `from_fx(..., aten=True)`, since this machine's
    torch has no torch.export). Parameters, buffers and lifted constants
    are named by their module path and bound as constants, or kept as
    parameters of `main` with `keep_params_as_input` (see detach_params);
    user inputs keep their placeholder names."""
    import torch

    del unwrap_unit_return_tuple, no_bind_return_tuple  # results are never tuples
    if not hasattr(torch, "export"):
        raise RuntimeError(
            "from_exported_program needs torch.export, which torch %s does not have "
            "(torch 2.1 or later); use from_fx with a torch.fx.GraphModule instead"
            % torch.__version__)
    from . import aten as _aten

    program = exported_program
    if run_ep_decomposition:
        program = program.run_decompositions()
    signature = program.graph_signature
    state = dict(program.state_dict)
    state.update(getattr(program, "constants", {}) or {})
    lifted = {}
    for mapping in ("inputs_to_parameters", "inputs_to_buffers",
                    "inputs_to_lifted_tensor_constants"):
        lifted.update(getattr(signature, mapping, {}) or {})
    graph = program.graph_module
    params = {placeholder: (path, state[path].detach())
              for placeholder, path in lifted.items()}
    user = [(name, name) for name in signature.user_inputs]
    output = next(n for n in graph.graph.nodes if n.op == "output")
    results = output.args[0]
    results = list(results) if isinstance(results, (list, tuple)) else [results]
    user_outputs = set(signature.user_outputs)
    outputs = [n for n in results if getattr(n, "name", None) in user_outputs]
    return _aten.from_aten_graph(graph, user, params, outputs,
                                 keep_params_as_input=keep_params_as_input,
                                 custom_convert_map=custom_convert_map)


__all__ = ["from_fx", "from_exported_program"]

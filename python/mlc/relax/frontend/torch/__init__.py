"""PyTorch front end (tvm.relax.frontend.torch): from_fx and
from_exported_program. torch is imported when they are called, so `import
mlc` works without it."""


def from_fx(model, input_info, *, keep_params_as_input=False,
            unwrap_unit_return_tuple=False, no_bind_return_tuple=False,
            custom_convert_map=None):
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
    """
    import torch
    from .fx_translator import FXTranslator

    del no_bind_return_tuple  # results are never bound to a tuple
    if not isinstance(model, torch.fx.GraphModule):
        model = torch.fx.symbolic_trace(model)
    return FXTranslator(model, input_info, custom_convert_map).translate(
        keep_params_as_input, unwrap_unit_return_tuple)


def from_exported_program(exported_program, *, keep_params_as_input=False,
                          unwrap_unit_return_tuple=False, no_bind_return_tuple=False,
                          custom_convert_map=None, run_ep_decomposition=True):
    """tvm.relax.frontend.torch.from_exported_program. Needs `torch.export`
    (torch 2.1 or later)."""
    import torch

    if not hasattr(torch, "export"):
        raise RuntimeError(
            "from_exported_program needs torch.export, which torch %s does not have "
            "(torch 2.1 or later); use from_fx with a torch.fx.GraphModule instead"
            % torch.__version__)
    raise NotImplementedError(
        "from_exported_program: the aten-level translator is not written yet; "
        "use from_fx")


__all__ = ["from_fx", "from_exported_program"]

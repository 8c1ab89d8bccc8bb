//===- Passes.td - relay-to-relax conversion ----------------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_CONVERSION_RELAYTORELAX_PASSES_TD
#define MLC_CONVERSION_RELAYTORELAX_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelayToRelax : Pass<"relay-to-relax", "::mlir::ModuleOp"> {
  let summary = "convert relay functions into relax functions";
  let description = [{
    TVM's `relay_translator.from_relay`. For every `func.func` that holds
    relay ops or `relay.name` parameters:
    - parameter attributes `relay.name` become `relax.name`;
    - relay ops are rewritten into their relax equivalents, one pattern per
      op (`populateRelayToRelaxPatterns`): `relay.constant` becomes
      `relax.constant`; `add`, `subtract`, `multiply`, `divide`,
      `nn.relu`, `nn.softmax` and `nn.log_softmax` map 1:1; `reshape`
      becomes `relax.reshape` to its static result shape and `transpose`
      `relax.permute_dims`; `nn.dense(x, w)` becomes
      `relax.matmul(x, relax.permute_dims(w))` (as TVM's translator does),
      `nn.matmul` / `nn.batch_matmul` permute the last two dimensions of
      transposed operands before `relax.matmul`; `nn.bias_add` expands the
      bias with trailing unit dimensions (`relax.expand_dims`) to broadcast
      along `axis`, then `relax.add`; `nn.conv2d` (without `channels` /
      `kernel_size`), `nn.max_pool2d`, `nn.avg_pool2d` and `nn.batch_norm`
      (three results) keep their attributes, `nn.global_avg_pool2d`
      becomes `relax.nn.adaptive_avg_pool2d` to 1x1, `sum` / `mean` list
      the reduced axes instead of `exclude`, `concatenate` becomes
      `relax.concat` and `nn.layer_norm`'s `axis` becomes `axes`;
      elementwise math (`exp`, `log`, `sqrt`, `rsqrt`, `tanh`, `sigmoid`,
      `erf`, `abs`, `negative`), `power` / `maximum` / `minimum`, the
      comparisons, `where`, `squeeze`, `split` (one result per part),
      `broadcast_to`, `max` / `min` / `prod`, `nn.leaky_relu`, `nn.pad`
      and `nn.conv2d_transpose` map 1:1; `cast` becomes `relax.astype`,
      `clip`'s `a_min`/`a_max` become `min`/`max`, `strided_slice` (end
      mode) and `take` (batch_dims 0) drop those attributes,
      `argmax` / `argmin` (one axis or all) become relax's i64 op and a
      `relax.astype` back to i32, `nn.instance_norm` / `nn.group_norm`'s
      `axis` becomes `channel_axis`, `nn.batch_flatten` becomes a
      `relax.reshape`, `expand_dims`' `axis`/`num_newaxis` become the list of
      new positions, `nn.adaptive_avg_pool2d` maps 1:1 and `nn.dropout` is
      replaced by its input (inference; only when the mask is unused). Types are unchanged (static shapes need
      no `#relax.shape`);
    - the function body (a single block of side-effect-free ops) is wrapped
      in one `relax.dataflow` block whose outputs are the values the
      `return` uses; constants stay in front of it.

    A relay op without a relax equivalent yet is an error naming it, unless
    `allow-relay-ops` is set, which keeps it (relay ops are pure, so they may
    sit in the dataflow block) so that partially covered models can still be
    processed while the relax op set grows.

    ```mlir
    func.func @main(%x: tensor<2xf32> {relay.name = "x"}) -> tensor<2xf32> {
      %0 = relay.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32>
    }
    // becomes
    func.func @main(%x: tensor<2xf32> {relax.name = "x"}) -> tensor<2xf32> {
      %r = relax.dataflow -> tensor<2xf32> {
        %0 = relax.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
        relax.output %0 : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    }
    ```
  }];
  let options = [
    Option<"allowRelayOps", "allow-relay-ops", "bool", /*default=*/"false",
           "keep relay ops that have no relax equivalent instead of failing">,
  ];
  let dependentDialects = ["::mlc::relax::RelaxDialect"];
}

#endif // MLC_CONVERSION_RELAYTORELAX_PASSES_TD

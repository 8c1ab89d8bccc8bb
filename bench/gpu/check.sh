#!/usr/bin/env bash
# One pass over every case of bench/gpu/run.py on the GPU machine, in groups
# that each run under a time limit: a kernel that hangs (a wgmma pipeline
# waiting on an mbarrier that never completes, say) costs its own group
# only, and the other groups still report. Then memcheck and racecheck on
# small cases, and last torch.compile baselines of the f16 models.
#
#   bench/gpu/check.sh [--dir bench/gpu/build] [--quick]
#
# --quick times with fewer repeats (for a short device lease). Results go
# to stdout; when OUT is set, each group's JSON to $OUT/<group>/ and the
# whole log to $OUT/check.log. Exits 1 when any group fails or times out.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
dir="$here/build"
timing=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    --quick) timing=(--repeat 5 --min-repeat-ms 20 --warmup 3); shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
log=/dev/null
[[ -n "${OUT:-}" ]] && log="$OUT/check.log"

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>&1 | tee -a "$log"
# The copy bandwidth of this GPU (bytes read plus written), for %peak.
peak=$(python3 - <<'EOF' 2>/dev/null
import torch
x = torch.empty(1 << 30, dtype=torch.uint8, device="cuda"); y = torch.empty_like(x)
for _ in range(3): y.copy_(x)
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
s.record()
for _ in range(20): y.copy_(x)
e.record(); torch.cuda.synchronize()
print("%.3e" % (2 * 20 * x.numel() / (s.elapsed_time(e) / 1e3)))
EOF
)
peak=${peak:-3.0e12}
echo "measured copy bandwidth: $peak B/s" | tee -a "$log"

status=0
group() {
  local name=$1 limit=$2; shift 2
  local options=()
  [[ ${1:-} == --torch-compile ]] && options=(--torch-compile) && shift
  echo "== group $name (limit ${limit}s): ${options[*]} $*" | tee -a "$log"
  local out=()
  [[ -n "${OUT:-}" ]] && mkdir -p "$OUT/$name" && out=(env "OUT=$OUT/$name")
  PYTHONUNBUFFERED=1 timeout -k 5 "$limit" "${out[@]}" python3 "$here/run.py" --dir "$dir" \
    --peak-bw "$peak" "${timing[@]}" "${options[@]}" --cases "$@" 2>&1 | tee -a "$log"
  local rc=${PIPESTATUS[0]}
  [[ $rc -eq 124 || $rc -eq 137 ]] && echo "== group $name: stopped after ${limit}s" | tee -a "$log"
  [[ $rc -ne 0 ]] && status=1
}

group f32 100 mlp cnn resnet mobilenet transformer add relu softmax sum layer_norm \
  matmul1024 matmul_odd dense2048 matmul4096
group mma 70 matmul4096_f16 bert_qkv_f16 bert_ffn1_f16 bert_ffn2_f16 bert_ffn1_m300_f16 \
  matmul_odd_f16 matmul_odd3_f16 matmul4096_bf16 bert_ffn1_bf16 matmul4096_tf32 bert_ffn1_tf32 \
  bert_ffn2_m128_f16 bert_ffn2_m128_f16_sm90a
group sm90a 60 matmul4096_f16_sm90a bert_ffn1_f16_sm90a bert_ffn2_f16_sm90a \
  bert_ffn1_m300_f16_sm90a matmul4096_bf16_sm90a matmul4096_f16_out16_sm90a \
  bert_qkv_f16_out16_sm90a bert_ffn1_f16_out16_sm90a bert_ffn2_f16_out16_sm90a \
  bert_ffn1_f16_out16_bound_sm90a matmul_narrow_f16_sm90a
group conv_attention 70 resnet_conv3x3_b32_f16 resnet_conv1x1_b32_f16 resnet_conv3x3s2_b32_f16 \
  resnet_conv3x3_b1_f16 attention_bert_b32_f16 attention_bert_b1_f16 attention_s1024_f16 \
  attention_gpt2_causal_f16 attention_h128_f16 attention_vit_b32_f16 attention_sd_self_f16 \
  attention_sd_cross_f16 resnet_conv3x3_b32_f16_nhwc resnet_conv1x1_b32_f16_nhwc \
  resnet_conv3x3s2_b32_f16_nhwc resnet_conv1x1_b32_f16_nhwc_sm90a \
  resnet_conv1x1_o256_b32_f16_nhwc_sm90a resnet_conv3x3_b32_f16_nhwc_sm90a \
  resnet_conv3x3s2_b32_f16_nhwc_sm90a resnet_conv3x3_b1_f16_sm90a
group bert 120 bert_layer_b1 bert_layer_b32 bert_layer_b1_f16 bert_layer_b32_f16 \
  bert_layer_b1_f16_sm90a bert_layer_b32_f16_sm90a bert_layer_b1_f16_bound_sm90a \
  bert_layer_b32_f16_bound_sm90a
group resnet50 150 resnet50_b1_f16_sm90a resnet50_b32_f16_sm90a
group mixed 70 mlp_f16 mlp_bf16 cnn_f16 cnn_bf16 resnet_f16 resnet_bf16 mobilenet_f16 \
  mobilenet_bf16 transformer_f16 transformer_bf16

echo "== compute-sanitizer" | tee -a "$log"
"$here/sanitize.sh" --dir "$dir" --timeout 30 --tool memcheck transformer matmul_odd3_f16 \
  bert_ffn1_m300_f16_sm90a matmul_narrow_f16_sm90a attention_bert_b1_f16 resnet_conv3x3_b1_f16 \
  resnet_conv3x3_b1_f16_sm90a attention_sd_cross_f16 bert_ffn2_m128_f16 2>&1 | tee -a "$log"
[[ ${PIPESTATUS[0]} -ne 0 ]] && status=1
"$here/sanitize.sh" --dir "$dir" --timeout 40 --tool racecheck transformer mlp_f16 \
  transformer_f16 attention_h128_f16 resnet_conv3x3_b1_f16_sm90a 2>&1 | tee -a "$log"
[[ ${PIPESTATUS[0]} -ne 0 ]] && status=1

# torch.compile (inductor) of the f16 BERT layers and ResNet-50, compiled on
# this machine first: last, so that its compile time, or its absence, costs
# no other check.
group compiled 300 --torch-compile bert_layer_b1_f16_sm90a bert_layer_b32_f16_sm90a \
  resnet50_b1_f16_sm90a resnet50_b32_f16_sm90a
exit $status

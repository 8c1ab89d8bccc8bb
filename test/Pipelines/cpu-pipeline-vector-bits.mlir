// The CPU pipeline sizes the default schedule's register tiles to the
// target's vector registers (target-vector-bits; 0, the default, is the
// host's): 32 of 512 bits (AVX-512) hold a 6 x 64 contraction tile (24
// accumulators) and 16-pixel convolution tiles; 16 of 256 bits (AVX2) a
// 6 x 16 tile and 6 pixels (12 accumulators), where 6 x 64 would be 48 and
// spill. target-cpu refines that: Zen 4 (znver4), whose 512-bit FMAs run
// as two 256-bit halves, gets 6 x 32 contraction tiles; other AVX-512 CPUs
// 6 x 64; any CPU without AVX-512 6 x 16. The expanded pipeline shows the
// options it gives the pass.
// RUN: mlc-opt %s --mlc-cpu-pipeline="target-vector-bits=512 target-cpu=skylake-avx512" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX512
// RUN: mlc-opt %s --mlc-cpu-pipeline="target-vector-bits=256" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: mlc-opt %s --mlc-cpu-pipeline="target-vector-bits=128" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2
// RUN: mlc-opt %s --mlc-cpu-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: mlc-opt %s --mlc-cpu-pipeline="target-vector-bits=512 target-cpu=znver4" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZEN4
// RUN: mlc-opt %s --mlc-cpu-pipeline="target-vector-bits=512 target-cpu=sapphirerapids" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX512
// RUN: mlc-opt %s --mlc-cpu-pipeline="target-vector-bits=512 target-cpu=znver5" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX512
// RUN: mlc-opt %s --mlc-cpu-pipeline="target-vector-bits=256 target-cpu=znver4" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=AVX2

// AVX512: mlc-default-schedule{conv-m-register=16 {{.*}} m-register=6 {{.*}} n-register=64
// AVX2: mlc-default-schedule{conv-m-register=6 {{.*}} m-register=6 {{.*}} n-register=16
// ZEN4: mlc-default-schedule{conv-m-register=16 {{.*}} m-register=6 {{.*}} n-register=32
// HOST: mlc-default-schedule{conv-m-register={{16|6}} {{.*}} n-register={{64|32|16}}
module {}

//===- DTypes.td - TVM's dtypes as MLIR element types ------*- tablegen -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// The element types relay and relax tensors may have: TVM's dtypes (bool,
// int8-64, uint8-64, float16, bfloat16, float32, float64) as bool = i1,
// intN = iN (signless), uintN = uiN. Other element types (index, complex,
// i0, f8...) are no TVM dtype, and the op library has no kernels for them,
// so the ops' verifiers reject them where they are written.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_DIALECT_UTILS_DTYPES_TD
#define MLC_DIALECT_UTILS_DTYPES_TD

include "mlir/IR/CommonTypeConstraints.td"

def MLC_FloatDType : AnyTypeOf<[F16, BF16, F32, F64],
    "float16, bfloat16, float32 or float64">;
def MLC_IntDType : AnyTypeOf<[I1, I8, I16, I32, I64, UI8, UI16, UI32, UI64],
    "bool, int8-64 or uint8-64">;
def MLC_DType : AnyTypeOf<[MLC_IntDType, MLC_FloatDType],
    "a TVM dtype (bool, int8-64, uint8-64, float16, bfloat16, float32, "
    "float64)">;

#endif // MLC_DIALECT_UTILS_DTYPES_TD

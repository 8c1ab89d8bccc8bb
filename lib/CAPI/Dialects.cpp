//===- Dialects.cpp - C API of mlc's dialects -------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc-c/Dialects.h"

#include "mlc/Dialect/Relax/IR/Relax.h"
#include "mlc/Dialect/Relay/IR/Relay.h"
#include "mlc/Dialect/TensorIR/IR/TensorIR.h"

#include "mlir/CAPI/Registration.h"

/// Upstream's MLIR_DEFINE_CAPI_DIALECT_REGISTRATION names the handle
/// mlirGetDialectHandle__<ns>__; mlc's entry points carry mlc's prefix.
#define MLC_DEFINE_CAPI_DIALECT_REGISTRATION(Name, Namespace, ClassName)       \
  static void mlcDialectRegistryInsert##Name##Dialect(                         \
      MlirDialectRegistry registry) {                                          \
    unwrap(registry)->insert<ClassName>();                                     \
  }                                                                            \
  static MlirDialect mlcContextLoad##Name##Dialect(MlirContext context) {      \
    return wrap(unwrap(context)->getOrLoadDialect<ClassName>());               \
  }                                                                            \
  static MlirStringRef mlc##Name##DialectGetNamespace() {                      \
    return wrap(ClassName::getDialectNamespace());                             \
  }                                                                            \
  MlirDialectHandle mlcGetDialectHandle__##Namespace##__() {                   \
    static MlirDialectRegistrationHooks hooks = {                              \
        mlcDialectRegistryInsert##Name##Dialect,                               \
        mlcContextLoad##Name##Dialect, mlc##Name##DialectGetNamespace};        \
    return MlirDialectHandle{&hooks};                                          \
  }

MLC_DEFINE_CAPI_DIALECT_REGISTRATION(Relay, relay, mlc::relay::RelayDialect)
MLC_DEFINE_CAPI_DIALECT_REGISTRATION(Relax, relax, mlc::relax::RelaxDialect)
MLC_DEFINE_CAPI_DIALECT_REGISTRATION(TensorIR, tensorir,
                                     mlc::tensorir::TensorIRDialect)

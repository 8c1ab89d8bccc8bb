//===- OpSchemas.cpp - ONNX operator schemas (input counts) ---------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// libonnx's schema header uses exceptions in inline code, so this file alone
// is compiled with -fexceptions (CMakeLists.txt) and hands out plain data.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <onnx/defs/schema.h>

using namespace mlc::onnx_import;

std::optional<InputSpec> mlc::onnx_import::getInputSpec(llvm::StringRef opType,
                                                        int64_t opset) {
  const onnx::OpSchema *schema =
      onnx::OpSchemaRegistry::Schema(opType.str(), static_cast<int>(opset),
                                     /*domain=*/"");
  if (!schema)
    return std::nullopt;
  InputSpec spec;
  spec.minInputs = schema->min_input();
  spec.maxInputs = schema->max_input();
  for (const onnx::OpSchema::FormalParameter &formal : schema->inputs())
    spec.formals.push_back(
        {formal.GetName(), formal.GetOption() == onnx::OpSchema::Optional});
  return spec;
}

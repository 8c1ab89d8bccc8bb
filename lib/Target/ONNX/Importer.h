//===- Importer.h - ONNX importer internals ---------------------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Shared by the graph importer (ONNXImporter.cpp) and the node converters
// (Converters*.cpp): the importer's state, the view a converter gets of one
// node, and the converter table.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_TARGET_ONNX_IMPORTER_H
#define MLC_LIB_TARGET_ONNX_IMPORTER_H

#include "mlc/Dialect/Relax/Utils/ConstantEvaluator.h"
#include "mlc/Dialect/Utils/SymbolicShape.h"
#include "mlc/Target/ONNX/ONNXImporter.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

namespace mlc::onnx_import {

class NodeContext;

/// Converts one node; emits an error (through NodeContext::error) on failure.
using Converter = mlir::LogicalResult (*)(NodeContext &node);

struct ConverterEntry {
  const char *opType;
  /// The opset version from which this converter's semantics apply.
  int64_t sinceVersion;
  Converter convert;
};

/// Every converter, all op types (Converters*.cpp).
llvm::ArrayRef<ConverterEntry> getConverters();

/// The converter for `opType` at `opset`: the entry with the highest
/// sinceVersion not above `opset`; null if none.
const ConverterEntry *lookupConverter(llvm::StringRef opType, int64_t opset);

/// The builtin element type of an ONNX TensorProto data type, or null.
mlir::Type getElementType(mlir::MLIRContext *context, int32_t dataType);

/// An integer tensor of rank 0 or 1 whose elements are symbolic dimensions:
/// the value of an ONNX shape computation on a tensor with a symbolic
/// dimension (Shape, then Gather, Unsqueeze, Concat, arithmetic, ...), kept
/// as expressions until a Reshape consumes it. Relax has no runtime shape
/// values; mlc's shapes are symbolic in the types instead.
struct ShapeValue {
  SymShape elements;
  bool isScalar = false;
  mlir::Type elementType;
};

/// Converts a node that reads a ShapeValue (ConvertShapeValues.cpp).
mlir::LogicalResult convertShapeValueNode(NodeContext &node);

/// The state of one import.
class Importer {
public:
  Importer(mlir::MLIRContext *context, const onnx::ModelProto &model,
           llvm::StringRef fileName, const ONNXImportOptions &options);

  mlir::OwningOpRef<mlir::ModuleOp> run();

  /// The ONNX value `name`, or null if it has none (yet) or is a ShapeValue.
  mlir::Value lookup(llvm::StringRef name) const { return values.lookup(name); }
  void define(llvm::StringRef name, mlir::Value value) { values[name] = value; }
  /// The ShapeValue `name`, or null.
  const ShapeValue *lookupShapeValue(llvm::StringRef name) const {
    auto it = shapeValues.find(name);
    return it == shapeValues.end() ? nullptr : &it->second;
  }
  /// Defines `name` as `value`, or as an integer relax.constant when every
  /// element is a constant.
  void defineShapeValue(llvm::StringRef name, const ShapeValue &value,
                        mlir::Location loc);
  bool isDefined(llvm::StringRef name) const {
    return values.count(name) || shapeValues.count(name);
  }

  /// A relax.constant of `value` at the builder's insertion point.
  mlir::Value constant(mlir::ElementsAttr value, mlir::Location loc);

  /// Builds `relax.<name>` with inferred types; when all its operands are
  /// constants and its results are small, replaces it by their values.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  create(llvm::StringRef name, mlir::ValueRange operands,
         llvm::ArrayRef<mlir::NamedAttribute> attrs, mlir::Location loc);

  /// The values of a TensorProto (typed fields, raw bytes or external
  /// data) as an attribute; `loc` and `what` are for errors.
  mlir::FailureOr<mlir::ElementsAttr> readTensor(const onnx::TensorProto &t,
                                                 mlir::Location loc,
                                                 llvm::StringRef what);

  mlir::MLIRContext *context;
  mlir::OpBuilder builder;
  int64_t opset = 0;
  std::string fileName;
  /// The names of the symbolic dimensions of the graph's inputs.
  SymbolScope scope;

private:
  mlir::LogicalResult checkModel();
  mlir::LogicalResult importNode(const onnx::NodeProto &node);
  mlir::LogicalResult checkInputsAgainstSchema(NodeContext &ctx,
                                               const onnx::NodeProto &node);
  mlir::FailureOr<mlir::RankedTensorType>
  getInputType(const onnx::ValueInfoProto &info, mlir::Location loc,
               llvm::SmallVectorImpl<std::string> &symbols);

  const onnx::ModelProto &model;
  const ONNXImportOptions &options;
  llvm::StringMap<mlir::Value> values;
  llvm::StringMap<ShapeValue> shapeValues;
  relax::ConstantEvaluator evaluator;
  unsigned resourceCounter = 0;
};

/// What ONNX's schema of an operator (at an opset) says about its inputs.
struct InputSpec {
  struct Formal {
    std::string name;
    bool optional;
  };
  int minInputs = 0, maxInputs = 0; // maxInputs is INT_MAX when variadic
  /// The formal inputs; the last one repeats when it is variadic.
  llvm::SmallVector<Formal> formals;
};

/// The schema of the default-domain operator `opType` at `opset`, from
/// libonnx; none for an operator it does not know.
std::optional<InputSpec> getInputSpec(llvm::StringRef opType, int64_t opset);

/// One node as a converter sees it.
class NodeContext {
public:
  NodeContext(Importer &importer, const onnx::NodeProto &node,
              mlir::Location loc)
      : importer(importer), node(node), loc(loc) {}

  llvm::StringRef getOpType() const { return node.op_type(); }
  int64_t getOpset() const { return importer.opset; }
  mlir::Location getLoc() const { return loc; }
  mlir::MLIRContext *getContext() const { return importer.context; }
  mlir::OpBuilder &getBuilder() { return importer.builder; }

  /// An error at the node, prefixed with its type and name.
  mlir::InFlightDiagnostic error();

  unsigned getNumInputs() const { return node.input_size(); }
  unsigned getNumOutputs() const { return node.output_size(); }
  llvm::StringRef getOutputName(unsigned i) const { return node.output(i); }
  /// Whether optional input `i` is given (present and not "").
  bool hasInput(unsigned i) const {
    return (int)i < node.input_size() && !node.input(i).empty();
  }
  mlir::Value input(unsigned i) const { return importer.lookup(node.input(i)); }
  mlir::RankedTensorType inputType(unsigned i) const {
    return llvm::cast<mlir::RankedTensorType>(input(i).getType());
  }
  /// Input `i` as a ShapeValue: a symbolic one, or an integer constant of
  /// rank 0 or 1; none otherwise.
  std::optional<ShapeValue> shapeInput(unsigned i) const;
  /// Whether some input is a symbolic ShapeValue.
  bool hasShapeValueInput() const;
  /// Defines output `i` as `value` (see Importer::defineShapeValue).
  void setShapeOutput(unsigned i, const ShapeValue &value);
  SymbolScope &getScope() { return importer.scope; }

  /// The value of input `i` when it is a constant; null otherwise.
  mlir::ElementsAttr constantInput(unsigned i) const;
  /// Input `i` as integers; fails with an error naming `what` when it is not
  /// a constant.
  mlir::FailureOr<llvm::SmallVector<int64_t>> intInput(unsigned i,
                                                       llvm::StringRef what);
  /// Input `i` (a scalar or one-element tensor) as a float.
  mlir::FailureOr<double> floatInput(unsigned i, llvm::StringRef what);

  // Attributes, with defaults when absent; an attribute of the wrong kind is
  // an error.
  const onnx::AttributeProto *findAttr(llvm::StringRef name) const;
  bool hasAttr(llvm::StringRef name) const { return findAttr(name); }
  mlir::FailureOr<int64_t> getInt(llvm::StringRef name, int64_t def);
  mlir::FailureOr<double> getFloat(llvm::StringRef name, double def);
  mlir::FailureOr<std::string> getString(llvm::StringRef name,
                                         llvm::StringRef def);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getInts(llvm::StringRef name, llvm::ArrayRef<int64_t> def = {});
  mlir::FailureOr<llvm::SmallVector<double>> getFloats(llvm::StringRef name);
  mlir::FailureOr<mlir::ElementsAttr> getTensor(llvm::StringRef name);
  /// An error if attribute `name` is present with another value than `ok`.
  mlir::LogicalResult requireInt(llvm::StringRef name, int64_t ok,
                                 llvm::StringRef why);

  /// Builds `relax.<name>` (see Importer::create) and returns its results.
  mlir::FailureOr<mlir::Value>
  op(llvm::StringRef name, mlir::ValueRange operands,
     llvm::ArrayRef<mlir::NamedAttribute> attrs = {});
  mlir::FailureOr<mlir::ValueRange>
  ops(llvm::StringRef name, mlir::ValueRange operands,
      llvm::ArrayRef<mlir::NamedAttribute> attrs = {});
  /// A scalar (0-d) relax.constant of `elementType`.
  mlir::Value scalar(double value, mlir::Type elementType);
  mlir::Value constant(mlir::ElementsAttr value) {
    return importer.constant(value, loc);
  }
  mlir::NamedAttribute attr(llvm::StringRef name, mlir::Attribute value) {
    return importer.builder.getNamedAttr(name, value);
  }
  mlir::NamedAttribute i64s(llvm::StringRef name, llvm::ArrayRef<int64_t> v) {
    return attr(name, importer.builder.getDenseI64ArrayAttr(v));
  }
  mlir::NamedAttribute i64(llvm::StringRef name, int64_t v) {
    return attr(name, importer.builder.getI64IntegerAttr(v));
  }
  mlir::NamedAttribute f64(llvm::StringRef name, double v) {
    return attr(name, importer.builder.getF64FloatAttr(v));
  }
  mlir::NamedAttribute str(llvm::StringRef name, llvm::StringRef v) {
    return attr(name, importer.builder.getStringAttr(v));
  }

  /// Defines output `i`; outputs past the node's list are ignored.
  void setOutput(unsigned i, mlir::Value value);
  /// Fails with an error when output `i` is requested: the converter does
  /// not compute it.
  mlir::LogicalResult rejectOutput(unsigned i, llvm::StringRef what);

private:
  Importer &importer;
  const onnx::NodeProto &node;
  mlir::Location loc;
  /// The results of the last `ops` call.
  llvm::SmallVector<mlir::Value> lastResults;
};

/// Normalizes a possibly negative axis; fails with an error when out of
/// `[-rank, rank)`.
mlir::FailureOr<int64_t> normalizeAxis(NodeContext &node, int64_t axis,
                                       int64_t rank, llvm::StringRef what);

} // namespace mlc::onnx_import

#endif // MLC_LIB_TARGET_ONNX_IMPORTER_H

//===- BindParams.cpp - bind function parameters to constants ---*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/BindParams.h"

#include "mlc/Support/TensorFile.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlc;

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string s = "(";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << '?';
    else
      os << d;
  });
  os << ')';
  return s;
}

LogicalResult mlc::bindParams(FunctionOpInterface func, StringRef nameAttr,
                              ArrayRef<NamedTensor> tensors, StringRef source,
                              Operation *symbolTableOp,
                              BindConstantBuilder buildConstant) {
  StringRef funcName = SymbolTable::getSymbolName(func).getValue();
  auto error = [&]() {
    return func.emitError("cannot bind parameters of @")
           << funcName << " from '" << source << "': ";
  };
  if (func.isExternal())
    return error() << "the function has no body";

  // Parameter names, each once.
  llvm::StringMap<unsigned> paramIndex;
  SmallVector<std::string> paramNames;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
    auto name = func.getArgAttrOfType<StringAttr>(i, nameAttr);
    if (!name)
      continue;
    auto [it, inserted] = paramIndex.try_emplace(name.getValue(), i);
    if (!inserted)
      return error() << "parameters #" << it->second << " and #" << i
                     << " are both named '" << name.getValue() << "'";
    paramNames.push_back(name.getValue().str());
  }

  // Every tensor names a parameter, once, with a fitting type.
  llvm::StringMap<unsigned> seen;
  SmallVector<std::pair<unsigned, ElementsAttr>> bindings;
  for (auto [t, tensor] : llvm::enumerate(tensors)) {
    if (!seen.try_emplace(tensor.name, t).second)
      return error() << "'" << tensor.name << "' is given twice";
    auto it = paramIndex.find(tensor.name);
    if (it == paramIndex.end()) {
      InFlightDiagnostic diag = error();
      diag << "'" << tensor.name << "' is not a parameter of @" << funcName
           << " (";
      if (paramNames.empty())
        diag << "it has no parameters with a '" << nameAttr << "' attribute";
      else
        diag << "its named parameters: " << llvm::join(paramNames, ", ");
      return diag << ")";
    }
    unsigned index = it->second;
    Type paramType = func.getArgument(index).getType();
    auto param = dyn_cast<RankedTensorType>(paramType);
    auto value = dyn_cast<RankedTensorType>(tensor.value.getType());
    if (!param || !value)
      return error() << "parameter '" << tensor.name << "' (#" << index
                     << ") has type " << paramType
                     << ", which cannot be bound to a tensor of type "
                     << tensor.value.getType();
    if (param.getElementType() != value.getElementType())
      return error() << "dtype mismatch for parameter '" << tensor.name
                     << "': the file has " << value.getElementType()
                     << ", the parameter is " << paramType;
    bool fits = param.getRank() == value.getRank();
    for (unsigned d = 0; fits && d < param.getRank(); ++d)
      fits =
          param.isDynamicDim(d) || param.getDimSize(d) == value.getDimSize(d);
    if (!fits)
      return error() << "shape mismatch for parameter '" << tensor.name
                     << "': the file has " << shapeString(value.getShape())
                     << ", the parameter is " << paramType;
    bindings.emplace_back(index, tensor.value);
  }
  if (bindings.empty())
    return success();

  // Every use of the function must be a call whose operands we can drop.
  SmallVector<CallOpInterface> calls;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, symbolTableOp)) {
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<CallOpInterface>(use.getUser());
      if (!call || call.getArgOperands().size() != func.getNumArguments())
        return error() << "@" << funcName << " is used by '"
                       << use.getUser()->getName()
                       << "', which is not a call whose arguments can be "
                          "dropped";
      calls.push_back(call);
    }
  }

  // Nothing can fail from here on.
  llvm::BitVector erase(func.getNumArguments());
  Block &entry = func.getFunctionBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  llvm::sort(bindings, llvm::less_first());
  for (auto [index, value] : bindings) {
    BlockArgument arg = func.getArgument(index);
    Value replacement =
        buildConstant(builder, arg.getLoc(), value, arg.getType());
    arg.replaceAllUsesWith(replacement);
    erase.set(index);
  }
  for (CallOpInterface call : calls) {
    MutableOperandRange args = call.getArgOperandsMutable();
    for (int i = erase.size() - 1; i >= 0; --i)
      if (erase.test(i))
        args.erase(i);
  }
  return func.eraseArguments(erase);
}

/// Finds a key present twice at the top level of the JSON header of a
/// `.safetensors` file (llvm::json keeps only one of them). Returns the empty
/// string if there is none or `data` is not a safetensors file.
static std::string findDuplicateSafetensorsKey(StringRef data) {
  if (data.size() < 8 || data.starts_with("PK"))
    return {};
  uint64_t len = 0;
  for (int i = 7; i >= 0; --i)
    len = (len << 8) | static_cast<unsigned char>(data[i]);
  if (len > data.size() - 8)
    return {};
  StringRef header = data.substr(8, len);
  llvm::StringSet<> keys;
  int depth = 0;
  bool expectKey = false;
  for (size_t i = 0; i < header.size(); ++i) {
    char c = header[i];
    if (c == '{' || c == '[') {
      expectKey = c == '{' && depth == 0;
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 1) {
      expectKey = true;
    } else if (c == '"') {
      // A string: find its end, honouring escapes.
      size_t j = i + 1;
      std::string text;
      for (; j < header.size() && header[j] != '"'; ++j) {
        if (header[j] == '\\' && j + 1 < header.size())
          ++j;
        text += header[j];
      }
      if (expectKey && depth == 1 && !keys.insert(text).second)
        return text;
      expectKey = false;
      i = j;
    }
  }
  return {};
}

FailureOr<SmallVector<NamedTensor>> mlc::readNamedTensors(StringRef path,
                                                          Location loc) {
  llvm::Expected<std::unique_ptr<TensorFile>> file = TensorFile::open(path);
  if (!file)
    return emitError(loc, "cannot read parameters: ")
           << llvm::toString(file.takeError());
  // TensorFile reports names repeated in a zip archive; a safetensors header
  // with a repeated key is checked here.
  if (auto buffer = llvm::MemoryBuffer::getFile(path)) {
    std::string dup = findDuplicateSafetensorsKey((*buffer)->getBuffer());
    if (!dup.empty())
      return emitError(loc, "cannot read parameters: ")
             << path << ": entry '" << dup << "' appears twice in the header";
  }
  SmallVector<NamedTensor> tensors;
  for (const std::string &name : (*file)->getNames()) {
    llvm::Expected<TensorView> view = (*file)->lookup(name);
    if (!view)
      return emitError(loc, "cannot read parameter '")
             << name << "': " << llvm::toString(view.takeError());
    // Scalars stay inline: lowerings of 0-d globals read their value as a
    // splat, which a dense_resource blob does not provide.
    mlir::RankedTensorType type = view->getType(loc.getContext());
    if (type.getRank() == 0 && !type.getElementType().isInteger(1)) {
      tensors.push_back(
          {name, DenseElementsAttr::getFromRawBuffer(type, view->data)});
      continue;
    }
    tensors.push_back(
        {name, TensorFile::getResourceAttr(*view, loc.getContext(), name)});
  }
  return tensors;
}

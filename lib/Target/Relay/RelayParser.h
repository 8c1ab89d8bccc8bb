//===- RelayParser.h - TVM Relay text AST and parser -----------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//
//
// Internal to MLCTargetRelay: the syntax tree of TVM's Relay text format
// (v0.0.5) and the parser that builds it. The parser only checks syntax; name
// resolution, types and ops are the importer's business
// (RelayImporter.cpp). Bodies are kept as flat binding lists so that long
// graphs (`%0 = ...; %1 = ...; ...`) need no deep recursion.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_LIB_TARGET_RELAY_RELAYPARSER_H
#define MLC_LIB_TARGET_RELAY_RELAYPARSER_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlc {
namespace relay_text {

/// `Tensor[(1, ?), float32]`, a tuple type `(T1, T2)`, or a bare dtype
/// (`float32`, a 0-d tensor).
struct TypeNode {
  enum Kind { Tensor, Tuple } kind = Tensor;
  llvm::SMLoc loc;
  /// Tensor: dimensions, mlir::ShapedType::kDynamic for `?` / symbolic ones.
  llvm::SmallVector<int64_t> shape;
  std::string dtype;
  std::vector<TypeNode> elements;
};

/// An attribute value of an operator call (`axis=1`, `pool_size=[3, 3]`).
struct AttrNode {
  enum Kind { Int, Float, Bool, String, None, List } kind = None;
  llvm::SMLoc loc;
  int64_t intValue = 0;
  double floatValue = 0;
  bool boolValue = false;
  std::string stringValue;
  std::vector<AttrNode> elements;
};

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

/// One statement of a body: `%x = e;`, `let %x: T = e;`, `free_var %x: T;`.
struct Binding {
  enum Kind { Graph, Let, FreeVar } kind = Graph;
  llvm::SMLoc loc;
  std::string name;
  std::optional<TypeNode> type;
  ExprPtr value; // null for FreeVar
};

struct Expr {
  enum Kind {
    LocalVar,  // %x (name may carry `.N` projections, resolved by scope)
    GlobalVar, // @f used as a value
    Literal,   // 1f, 2i64, 3, True
    Meta,      // meta[relay.Constant][N]
    Call,      // op(args, attr=...) / @f(args)
    Tuple,     // (a, b)
    Project,   // e.N
    Seq,       // bindings; result (a `let` chain in expression position)
  } kind;
  llvm::SMLoc loc;

  /// LocalVar / GlobalVar name (without sigil), operator name of an op call,
  /// global name of a function call, meta kind ("relay.Constant").
  std::string name;

  // Literal.
  std::string dtype; // "float32", "int64", "bool", ...
  bool isFloat = false;
  int64_t intValue = 0;
  double floatValue = 0;

  /// Project: the index; Meta: the constant index.
  int64_t index = 0;

  enum CalleeKind { OpCallee, GlobalCallee, ValueCallee };
  CalleeKind callee = OpCallee;
  /// Call: the arguments; Tuple: the fields; Project: the tuple;
  /// Seq: args[0] is the result. ValueCallee: args.back() is the callee.
  std::vector<ExprPtr> args;
  std::vector<std::pair<std::string, AttrNode>> attrs;
  std::vector<Binding> bindings; // Seq

  /// The `/* ty=... */` annotation TVM prints after an expression.
  std::optional<TypeNode> annotatedType;

  explicit Expr(Kind kind, llvm::SMLoc loc) : kind(kind), loc(loc) {}
};

struct Param {
  std::string name;
  llvm::SMLoc loc;
  std::optional<TypeNode> type;
};

struct FuncNode {
  std::string name;
  llvm::SMLoc loc;
  std::vector<Param> params;
  std::optional<TypeNode> resultType;
  /// A Seq expression.
  ExprPtr body;
};

struct ModuleNode {
  std::vector<FuncNode> functions;
  /// The file has a `#[metadata]` section (which is skipped).
  bool hasMetadataSection = false;
  llvm::SMLoc metadataLoc;
};

/// Parses the main buffer of `sourceMgr`. Syntax errors are emitted as MLIR
/// diagnostics at `file:line:col`; returns std::nullopt after one.
std::optional<ModuleNode> parseRelayText(llvm::SourceMgr &sourceMgr,
                                         mlir::MLIRContext *context);

/// The location of `loc` in the main buffer of `sourceMgr`.
mlir::Location getLocation(llvm::SourceMgr &sourceMgr,
                           mlir::MLIRContext *context, llvm::SMLoc loc);

} // namespace relay_text
} // namespace mlc

#endif // MLC_LIB_TARGET_RELAY_RELAYPARSER_H

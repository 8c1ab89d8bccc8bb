//===- SymbolicShape.cpp - symbolic dimension expressions -------*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Dialect/Utils/SymbolicShape.h"
#include "mlc/Dialect/Utils/ShapeFunctions.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlc;

/// A deterministic sort key for a normalized expression (its printed form
/// over s0, s1, ...).
static std::string sortKey(AffineExpr e) {
  std::string key;
  llvm::raw_string_ostream os(key);
  e.print(os);
  return key;
}

static AffineExpr normalizeExpr(AffineExpr e);

/// Adds the terms of the sum `e` (normalized) to `terms` as (factor,
/// coefficient) pairs and its constants to `constant`. Fails when a
/// coefficient or the constant overflows int64_t.
static LogicalResult
collectTerms(AffineExpr e, int64_t scale,
             SmallVectorImpl<std::pair<AffineExpr, int64_t>> &terms,
             int64_t &constant) {
  if (auto c = dyn_cast<AffineConstantExpr>(e)) {
    int64_t product;
    if (llvm::MulOverflow(scale, c.getValue(), product) ||
        llvm::AddOverflow(constant, product, constant))
      return failure();
    return success();
  }
  if (auto bin = dyn_cast<AffineBinaryOpExpr>(e)) {
    if (bin.getKind() == AffineExprKind::Add)
      return success(
          succeeded(collectTerms(bin.getLHS(), scale, terms, constant)) &&
          succeeded(collectTerms(bin.getRHS(), scale, terms, constant)));
    if (bin.getKind() == AffineExprKind::Mul)
      if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS())) {
        int64_t product;
        if (llvm::MulOverflow(scale, c.getValue(), product))
          return failure();
        return collectTerms(bin.getLHS(), product, terms, constant);
      }
  }
  terms.emplace_back(normalizeExpr(e), scale);
  return success();
}

/// Adds the factors of the product `e` to `factors`.
static void collectFactors(AffineExpr e, SmallVectorImpl<AffineExpr> &factors) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (bin && bin.getKind() == AffineExprKind::Mul) {
    collectFactors(bin.getLHS(), factors);
    collectFactors(bin.getRHS(), factors);
    return;
  }
  factors.push_back(normalizeExpr(e));
}

/// The normal form of a symbolic dimension: sums are flattened, like terms
/// combined and ordered by `sortKey`, products' factors ordered likewise, and
/// the operands of floordiv, ceildiv and mod normalized. `m + n * 2` and
/// `n * 2 + m` (or `n + m + n`) have the same normal form, so shapes that are
/// equal up to these rewrites are the same attribute.
static AffineExpr normalizeExpr(AffineExpr e) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(e);
  if (!bin)
    return e;
  switch (bin.getKind()) {
  case AffineExprKind::Add:
  case AffineExprKind::Mul: {
    if (bin.getKind() == AffineExprKind::Mul &&
        !isa<AffineConstantExpr>(bin.getRHS())) {
      SmallVector<AffineExpr> factors;
      collectFactors(e, factors);
      llvm::stable_sort(factors, [](AffineExpr a, AffineExpr b) {
        return sortKey(a) < sortKey(b);
      });
      AffineExpr product = factors.front();
      for (AffineExpr f : llvm::drop_begin(factors))
        product = product * f;
      return product;
    }
    // A sum whose coefficients overflow int64_t (sizes no tensor has) is
    // left as it is.
    SmallVector<std::pair<AffineExpr, int64_t>> terms;
    int64_t constant = 0;
    if (failed(collectTerms(e, 1, terms, constant)))
      return e;
    // Combine like terms, then order them.
    SmallVector<std::pair<std::string, std::pair<AffineExpr, int64_t>>> keyed;
    for (auto [factor, coefficient] : terms) {
      auto *it = llvm::find_if(
          keyed, [&](const auto &k) { return k.second.first == factor; });
      if (it == keyed.end())
        keyed.push_back({sortKey(factor), {factor, coefficient}});
      else if (llvm::AddOverflow(it->second.second, coefficient,
                                 it->second.second))
        return e;
    }
    llvm::stable_sort(
        keyed, [](const auto &a, const auto &b) { return a.first < b.first; });
    AffineExpr sum = getAffineConstantExpr(0, e.getContext());
    bool first = true;
    for (auto &[key, term] : keyed) {
      if (term.second == 0)
        continue;
      AffineExpr t = term.first * term.second;
      sum = first ? t : sum + t;
      first = false;
    }
    return constant == 0 ? sum : sum + constant;
  }
  case AffineExprKind::FloorDiv:
    return normalizeExpr(bin.getLHS()).floorDiv(normalizeExpr(bin.getRHS()));
  case AffineExprKind::CeilDiv:
    return normalizeExpr(bin.getLHS()).ceilDiv(normalizeExpr(bin.getRHS()));
  case AffineExprKind::Mod:
    return normalizeExpr(bin.getLHS()) % normalizeExpr(bin.getRHS());
  default:
    return e;
  }
}

static SymDim normalize(SymDim dim, unsigned) {
  // Rebuilding can simplify further (`(m + n * 2) floordiv 2` becomes the
  // sum `m floordiv 2 + n`), so repeat until nothing changes (bounded).
  for (int i = 0; dim && i < 4; ++i) {
    SymDim next = normalizeExpr(dim);
    if (next == dim)
      break;
    dim = next;
  }
  return dim;
}

SymDim SymbolScope::getSymbol(StringAttr name) {
  auto [it, inserted] = positions.try_emplace(name, names.size());
  if (inserted)
    names.push_back(name);
  return getAffineSymbolExpr(it->second, ctx);
}

SymDim SymbolScope::getSymbol(StringRef name) {
  return getSymbol(StringAttr::get(ctx, name));
}

SymDim SymbolScope::getConstant(int64_t value) const {
  return getAffineConstantExpr(value, ctx);
}

SymShape SymbolScope::import(ArrayRef<StringAttr> fromNames,
                             ArrayRef<SymDim> dims) {
  SmallVector<AffineExpr> replacements;
  for (StringAttr name : fromNames)
    replacements.push_back(getSymbol(name));
  SymShape result;
  for (SymDim dim : dims)
    result.push_back(
        dim ? normalize(dim.replaceSymbols(replacements), names.size())
            : SymDim());
  return result;
}

SymShape SymbolScope::importStatic(ArrayRef<int64_t> shape) const {
  SymShape result;
  for (int64_t size : shape)
    result.push_back(ShapedType::isDynamic(size) ? SymDim()
                                                 : getConstant(size));
  return result;
}

void SymbolScope::exportCanonical(ArrayRef<SymDim> dims,
                                  SmallVectorImpl<StringAttr> &outNames,
                                  SmallVectorImpl<SymDim> &outDims) const {
  // Symbols used, in name order.
  llvm::SmallBitVector used(names.size());
  for (SymDim dim : dims)
    if (dim)
      dim.walk([&](AffineExpr e) {
        if (auto sym = dyn_cast<AffineSymbolExpr>(e))
          used.set(sym.getPosition());
      });
  SmallVector<unsigned> order;
  for (unsigned i = 0, e = names.size(); i < e; ++i)
    if (used.test(i))
      order.push_back(i);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return names[a].getValue() < names[b].getValue();
  });
  SmallVector<AffineExpr> replacements(names.size(),
                                       getAffineConstantExpr(0, ctx));
  outNames.clear();
  for (auto [newPos, oldPos] : llvm::enumerate(order)) {
    replacements[oldPos] = getAffineSymbolExpr(newPos, ctx);
    outNames.push_back(names[oldPos]);
  }
  outDims.clear();
  for (SymDim dim : dims)
    outDims.push_back(
        dim ? normalize(dim.replaceSymbols(replacements), outNames.size())
            : SymDim());
}

std::string SymbolScope::print(SymDim dim) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  printSymDim(os, dim, names);
  return s;
}

std::string SymbolScope::print(ArrayRef<SymDim> dims) const {
  std::string s;
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(dims, os,
                        [&](SymDim dim) { printSymDim(os, dim, names); });
  return s;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

namespace {
// Binding strength: additive < multiplicative < atom.
enum Prec { kAdd = 0, kMul = 1, kAtom = 2 };

Prec precedence(AffineExpr e) {
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return kAdd;
  case AffineExprKind::Mul:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod:
    return kMul;
  case AffineExprKind::Constant:
    return cast<AffineConstantExpr>(e).getValue() < 0 ? kAdd : kAtom;
  default:
    return kAtom;
  }
}

void printExpr(raw_ostream &os, AffineExpr e, ArrayRef<StringAttr> names,
               Prec context) {
  bool parens = precedence(e) < context;
  if (parens)
    os << '(';
  switch (e.getKind()) {
  case AffineExprKind::Constant:
    os << cast<AffineConstantExpr>(e).getValue();
    break;
  case AffineExprKind::SymbolId: {
    unsigned pos = cast<AffineSymbolExpr>(e).getPosition();
    if (pos < names.size())
      os << names[pos].getValue();
    else
      os << 's' << pos;
    break;
  }
  case AffineExprKind::DimId:
    os << 'd' << cast<AffineDimExpr>(e).getPosition();
    break;
  case AffineExprKind::Add: {
    auto bin = cast<AffineBinaryOpExpr>(e);
    printExpr(os, bin.getLHS(), names, kAdd);
    AffineExpr rhs = bin.getRHS();
    // a + -c  ->  a - c;  a + b * -1  ->  a - b;  a + b * -c  ->  a - b * c.
    // (Negated as unsigned: -INT64_MIN is not an int64_t.)
    if (auto c = dyn_cast<AffineConstantExpr>(rhs); c && c.getValue() < 0) {
      os << " - " << 0 - static_cast<uint64_t>(c.getValue());
      break;
    }
    if (auto mul = dyn_cast<AffineBinaryOpExpr>(rhs);
        mul && mul.getKind() == AffineExprKind::Mul) {
      if (auto c = dyn_cast<AffineConstantExpr>(mul.getRHS());
          c && c.getValue() < 0) {
        os << " - ";
        printExpr(os, mul.getLHS(), names, kMul);
        if (c.getValue() != -1)
          os << " * " << 0 - static_cast<uint64_t>(c.getValue());
        break;
      }
    }
    os << " + ";
    printExpr(os, rhs, names, kMul);
    break;
  }
  case AffineExprKind::Mul:
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod: {
    auto bin = cast<AffineBinaryOpExpr>(e);
    auto rhsConstant = dyn_cast<AffineConstantExpr>(bin.getRHS());
    // x * -1 is printed as -x.
    if (e.getKind() == AffineExprKind::Mul && rhsConstant &&
        rhsConstant.getValue() == -1) {
      os << '-';
      printExpr(os, bin.getLHS(), names, kAtom);
      break;
    }
    printExpr(os, bin.getLHS(), names, kMul);
    switch (e.getKind()) {
    case AffineExprKind::Mul:
      os << " * ";
      break;
    case AffineExprKind::FloorDiv:
      os << " floordiv ";
      break;
    case AffineExprKind::CeilDiv:
      os << " ceildiv ";
      break;
    default:
      os << " mod ";
      break;
    }
    // A constant right operand needs no parentheses, even when negative.
    if (rhsConstant)
      os << rhsConstant.getValue();
    else
      printExpr(os, bin.getRHS(), names, kAtom);
    break;
  }
  }
  if (parens)
    os << ')';
}
} // namespace

void mlc::printSymDim(raw_ostream &os, SymDim dim, ArrayRef<StringAttr> names) {
  if (!dim) {
    os << '?';
    return;
  }
  printExpr(os, dim, names, kAdd);
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
ParseResult parseAdditive(AsmParser &parser, SymbolScope &scope,
                          AffineExpr &result);

ParseResult parseAtom(AsmParser &parser, SymbolScope &scope,
                      AffineExpr &result) {
  if (succeeded(parser.parseOptionalLParen())) {
    if (parseAdditive(parser, scope, result) || parser.parseRParen())
      return failure();
    return success();
  }
  if (succeeded(parser.parseOptionalMinus())) {
    AffineExpr operand;
    if (parseAtom(parser, scope, operand))
      return failure();
    result = -operand;
    return success();
  }
  int64_t value = 0;
  OptionalParseResult intResult = parser.parseOptionalInteger(value);
  if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    result = scope.getConstant(value);
    return success();
  }
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (failed(parser.parseOptionalKeyword(&name)))
    return parser.emitError(loc, "expected a dimension: an integer, a name, "
                                 "'?', '-' or '('");
  if (name == "floordiv" || name == "ceildiv" || name == "mod")
    return parser.emitError(loc, "'") << name
                                      << "' is an operator, not a "
                                         "dimension name";
  result = scope.getSymbol(name);
  return success();
}

ParseResult parseMultiplicative(AsmParser &parser, SymbolScope &scope,
                                AffineExpr &result) {
  if (parseAtom(parser, scope, result))
    return failure();
  while (true) {
    enum { Mul, FloorDiv, CeilDiv, Mod } kind;
    if (succeeded(parser.parseOptionalStar()))
      kind = Mul;
    else if (succeeded(parser.parseOptionalKeyword("floordiv")))
      kind = FloorDiv;
    else if (succeeded(parser.parseOptionalKeyword("ceildiv")))
      kind = CeilDiv;
    else if (succeeded(parser.parseOptionalKeyword("mod")))
      kind = Mod;
    else
      return success();
    SMLoc loc = parser.getCurrentLocation();
    AffineExpr rhs;
    if (parseAtom(parser, scope, rhs))
      return failure();
    if (kind != Mul) {
      auto c = dyn_cast<AffineConstantExpr>(rhs);
      if (c && c.getValue() <= 0)
        return parser.emitError(loc, "divisor must be positive, got ")
               << c.getValue();
    }
    switch (kind) {
    case Mul:
      result = result * rhs;
      break;
    case FloorDiv:
      result = result.floorDiv(rhs);
      break;
    case CeilDiv:
      result = result.ceilDiv(rhs);
      break;
    case Mod:
      result = result % rhs;
      break;
    }
  }
}

ParseResult parseAdditive(AsmParser &parser, SymbolScope &scope,
                          AffineExpr &result) {
  if (parseMultiplicative(parser, scope, result))
    return failure();
  while (true) {
    bool minus;
    if (succeeded(parser.parseOptionalPlus()))
      minus = false;
    else if (succeeded(parser.parseOptionalMinus()))
      minus = true;
    else
      return success();
    AffineExpr rhs;
    if (parseMultiplicative(parser, scope, rhs))
      return failure();
    result = minus ? result - rhs : result + rhs;
  }
}
} // namespace

ParseResult mlc::parseSymDim(AsmParser &parser, SymbolScope &scope,
                             SymDim &dim) {
  if (succeeded(parser.parseOptionalQuestion())) {
    dim = SymDim();
    return success();
  }
  return parseAdditive(parser, scope, dim);
}

//===----------------------------------------------------------------------===//
// Shape functions
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlc::getConstantSize(SymDim dim) {
  if (auto c = dyn_cast_or_null<AffineConstantExpr>(dim))
    return c.getValue();
  return std::nullopt;
}

SmallVector<int64_t> mlc::getStaticShape(ArrayRef<SymDim> dims) {
  SmallVector<int64_t> shape;
  for (SymDim dim : dims)
    shape.push_back(getConstantSize(dim).value_or(ShapedType::kDynamic));
  return shape;
}

FailureOr<SymShape>
mlc::broadcastSymbolicShapes(ArrayRef<SymDim> lhs, ArrayRef<SymDim> rhs,
                             const SymbolScope &scope,
                             function_ref<void(const Twine &)> emitError) {
  // The static rule first: it reports static conflicts and decides every
  // dimension that has no symbolic side.
  SmallVector<int64_t> staticResult;
  if (failed(broadcastShapes(getStaticShape(lhs), getStaticShape(rhs),
                             staticResult, emitError)))
    return failure();
  size_t rank = staticResult.size();
  SymDim one = scope.getConstant(1);
  SymShape result;
  for (size_t i = 0; i < rank; ++i) {
    // Missing leading dimensions are 1.
    size_t fromRight = rank - 1 - i;
    SymDim l = fromRight < lhs.size() ? lhs[lhs.size() - 1 - fromRight] : one;
    SymDim r = fromRight < rhs.size() ? rhs[rhs.size() - 1 - fromRight] : one;
    bool symbolic = (l && !getConstantSize(l)) || (r && !getConstantSize(r));
    if (!symbolic) {
      result.push_back(ShapedType::isDynamic(staticResult[i])
                           ? SymDim()
                           : scope.getConstant(staticResult[i]));
    } else if (l == r || !r || getConstantSize(r) == 1) {
      result.push_back(l);
    } else if (!l || getConstantSize(l) == 1) {
      result.push_back(r);
    } else {
      if (emitError)
        emitError("dimension " + Twine(i) + ": " + scope.print(l) + " vs " +
                  scope.print(r));
      return failure();
    }
  }
  return result;
}

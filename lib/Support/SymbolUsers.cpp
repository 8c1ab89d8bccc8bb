//===- SymbolUsers.cpp - every symbol's users from one walk ---------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/SymbolUsers.h"

std::optional<mlc::SymbolUsers> mlc::collectSymbolUsers(mlir::Region &region) {
  std::optional<mlir::SymbolTable::UseRange> uses =
      mlir::SymbolTable::getSymbolUses(&region);
  if (!uses)
    return std::nullopt;
  SymbolUsers users;
  for (const mlir::SymbolTable::SymbolUse &use : *uses)
    users[use.getSymbolRef().getRootReference()].push_back(use.getUser());
  return users;
}

void mlc::eraseUnusedSymbols(mlir::SymbolTable &symbols, mlir::Region &region,
                             llvm::ArrayRef<mlir::Operation *> candidates) {
  if (candidates.empty())
    return;
  std::optional<SymbolUsers> used = collectSymbolUsers(region);
  if (!used)
    return;
  for (mlir::Operation *candidate : candidates)
    if (!used->contains(mlir::SymbolTable::getSymbolName(candidate)))
      symbols.erase(candidate);
}

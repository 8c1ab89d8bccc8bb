//===- TranslateRegistration.cpp - register --import-relay -----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Target/Relay/RelayImporter.h"

void mlc::registerRelayImportTranslation() {}

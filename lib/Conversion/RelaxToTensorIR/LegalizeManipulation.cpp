//===- LegalizeManipulation.cpp - manipulation relax op kernels
//----------------------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "Legalizations.h"

using namespace mlir;
using namespace mlc;
using namespace mlc::legalize;

void mlc::legalize::populateManipulationLegalizations(
    LegalizationTable &table) {}

//===- TensorFile.cpp - read named tensors from .npz / .safetensors -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/TensorFile.h"

//===- TensorFile.h - read named tensors from .npz / .safetensors -*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#ifndef MLC_SUPPORT_TENSORFILE_H
#define MLC_SUPPORT_TENSORFILE_H

namespace mlc {} // namespace mlc

#endif // MLC_SUPPORT_TENSORFILE_H

//===- NpzWriter.cpp - write named tensors as a numpy .npz -----*- C++ -*-===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/NpzWriter.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlc;

std::string mlc::getNumpyDType(Type type) {
  if (type.isF16())
    return "<f2";
  // numpy has no bfloat16: its bit patterns, as onnx.numpy_helper writes.
  if (type.isBF16())
    return "<u2";
  if (type.isF32())
    return "<f4";
  if (type.isF64())
    return "<f8";
  if (type.isInteger(1))
    return "|b1";
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (width != 8 && width != 16 && width != 32 && width != 64)
      return "";
    char kind = intType.isUnsigned() ? 'u' : 'i';
    std::string dtype = width == 8 ? "|" : "<";
    return dtype + kind + std::to_string(width / 8);
  }
  return "";
}

static std::string makeNpy(StringRef dtype, ArrayRef<int64_t> shape,
                           ArrayRef<char> data) {
  // Python tuple syntax: "()", "(3,)", "(2, 3)".
  std::string shapeText = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    shapeText += std::to_string(shape[i]);
    if (shape.size() == 1)
      shapeText += ",";
    else if (i + 1 < shape.size())
      shapeText += ", ";
  }
  shapeText += ")";
  std::string header = "{'descr': '" + dtype.str() +
                       "', 'fortran_order': False, 'shape': " + shapeText;
  header += ", }";
  // magic(6) + version(2) + len(2) + header + '\n' padded to 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';

  std::string npy("\x93NUMPY\x01\x00", 8);
  char len[2];
  llvm::support::endian::write16le(len, header.size());
  npy.append(len, 2);
  npy += header;
  npy.append(data.data(), data.size());
  return npy;
}

bool NpzWriter::add(StringRef name, ArrayRef<int64_t> shape, Type elementType,
                    ArrayRef<char> data, std::string &error) {
  std::string dtype = getNumpyDType(elementType);
  if (dtype.empty()) {
    llvm::raw_string_ostream os(error);
    os << "cannot write '" << name << "': numpy has no dtype for "
       << elementType;
    return false;
  }
  entries.push_back({(name + ".npy").str(), makeNpy(dtype, shape, data)});
  return true;
}

namespace {
/// Little-endian field writer for the zip records.
struct ZipRecord {
  std::string bytes;
  void u16(uint16_t v) {
    char b[2];
    llvm::support::endian::write16le(b, v);
    bytes.append(b, 2);
  }
  void u32(uint32_t v) {
    char b[4];
    llvm::support::endian::write32le(b, v);
    bytes.append(b, 4);
  }
};
} // namespace

bool NpzWriter::write(StringRef path, std::string &error) const {
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec) {
    error = "cannot open '" + path.str() + "' for writing: " + ec.message();
    return false;
  }
  // A stored (uncompressed) zip: local header + data per entry, then the
  // central directory. Sizes stay below 4 GiB, so no zip64 records.
  ZipRecord central;
  uint32_t offset = 0;
  for (const Entry &entry : entries) {
    if (entry.bytes.size() >= 0xffffffffu) {
      error = "'" + entry.fileName + "' is too large for a zip32 archive";
      return false;
    }
    uint32_t crc = llvm::crc32(llvm::ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(entry.bytes.data()),
        entry.bytes.size()));
    uint32_t size = entry.bytes.size();
    ZipRecord local;
    local.u32(0x04034b50);
    local.u16(20);   // version needed
    local.u16(0);    // flags
    local.u16(0);    // stored
    local.u16(0);    // mod time
    local.u16(0x21); // mod date (1980-01-01)
    local.u32(crc);
    local.u32(size);
    local.u32(size);
    local.u16(entry.fileName.size());
    local.u16(0);
    local.bytes += entry.fileName;
    out.os() << local.bytes << entry.bytes;

    central.u32(0x02014b50);
    central.u16(20); // version made by
    central.u16(20); // version needed
    central.u16(0);
    central.u16(0);
    central.u16(0);
    central.u16(0x21);
    central.u32(crc);
    central.u32(size);
    central.u32(size);
    central.u16(entry.fileName.size());
    central.u16(0); // extra
    central.u16(0); // comment
    central.u16(0); // disk
    central.u16(0); // internal attrs
    central.u32(0); // external attrs
    central.u32(offset);
    central.bytes += entry.fileName;
    offset += local.bytes.size() + size;
  }
  ZipRecord end;
  end.u32(0x06054b50);
  end.u16(0);
  end.u16(0);
  end.u16(entries.size());
  end.u16(entries.size());
  end.u32(central.bytes.size());
  end.u32(offset);
  end.u16(0);
  out.os() << central.bytes << end.bytes;
  out.os().flush();
  if (out.os().has_error()) {
    error = "error writing '" + path.str() + "'";
    out.os().clear_error();
    return false;
  }
  out.keep();
  return true;
}

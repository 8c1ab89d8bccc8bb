//===- TensorFile.cpp - read named tensors from .npz / .safetensors -------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/Support/TensorFile.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemAlloc.h"
#include "llvm/Support/MemoryBuffer.h"

#include <zlib.h>

using namespace mlc;
using llvm::StringRef;

//===----------------------------------------------------------------------===//
// dtypes
//===----------------------------------------------------------------------===//

unsigned mlc::getDTypeByteSize(TensorDType dtype) {
  switch (dtype) {
  case TensorDType::F16:
  case TensorDType::BF16:
  case TensorDType::I16:
  case TensorDType::U16:
    return 2;
  case TensorDType::F32:
  case TensorDType::I32:
    return 4;
  case TensorDType::F64:
  case TensorDType::I64:
    return 8;
  case TensorDType::I8:
  case TensorDType::U8:
  case TensorDType::Bool:
    return 1;
  }
  return 1;
}

mlir::Type mlc::getDTypeElementType(TensorDType dtype,
                                    mlir::MLIRContext *context) {
  switch (dtype) {
  case TensorDType::F16:
    return mlir::Float16Type::get(context);
  case TensorDType::BF16:
    return mlir::BFloat16Type::get(context);
  case TensorDType::F32:
    return mlir::Float32Type::get(context);
  case TensorDType::F64:
    return mlir::Float64Type::get(context);
  case TensorDType::I8:
    return mlir::IntegerType::get(context, 8);
  case TensorDType::I16:
    return mlir::IntegerType::get(context, 16);
  case TensorDType::I32:
    return mlir::IntegerType::get(context, 32);
  case TensorDType::I64:
    return mlir::IntegerType::get(context, 64);
  case TensorDType::U8:
    return mlir::IntegerType::get(context, 8, mlir::IntegerType::Unsigned);
  case TensorDType::U16:
    return mlir::IntegerType::get(context, 16, mlir::IntegerType::Unsigned);
  case TensorDType::Bool:
    return mlir::IntegerType::get(context, 1);
  }
  return {};
}

StringRef mlc::getDTypeName(TensorDType dtype) {
  switch (dtype) {
  case TensorDType::F16:
    return "float16";
  case TensorDType::BF16:
    return "bfloat16";
  case TensorDType::F32:
    return "float32";
  case TensorDType::F64:
    return "float64";
  case TensorDType::I8:
    return "int8";
  case TensorDType::I16:
    return "int16";
  case TensorDType::I32:
    return "int32";
  case TensorDType::I64:
    return "int64";
  case TensorDType::U8:
    return "uint8";
  case TensorDType::U16:
    return "uint16";
  case TensorDType::Bool:
    return "bool";
  }
  return "?";
}

int64_t TensorView::getNumElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

mlir::RankedTensorType TensorView::getType(mlir::MLIRContext *context) const {
  return mlir::RankedTensorType::get(shape,
                                     getDTypeElementType(dtype, context));
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

namespace {
uint16_t read16(const char *p) { return llvm::support::endian::read16le(p); }
uint32_t read32(const char *p) { return llvm::support::endian::read32le(p); }
uint64_t read64(const char *p) { return llvm::support::endian::read64le(p); }

/// An aligned heap buffer shared between a TensorFile and the resource blobs
/// made from it.
std::shared_ptr<char> allocateShared(size_t size, size_t align) {
  char *data = static_cast<char *>(
      llvm::allocate_buffer(std::max<size_t>(size, 1), align));
  return std::shared_ptr<char>(data, [size, align](char *p) {
    llvm::deallocate_buffer(p, std::max<size_t>(size, 1), align);
  });
}

/// Number of elements of `shape` times `elemSize`, or nullopt on overflow or
/// a negative dimension.
std::optional<uint64_t> getByteSize(llvm::ArrayRef<int64_t> shape,
                                    uint64_t elemSize) {
  uint64_t total = elemSize;
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    uint64_t next;
    if (__builtin_mul_overflow(total, static_cast<uint64_t>(d), &next))
      return std::nullopt;
    total = next;
  }
  // Keep sizes well inside what size_t and int64_t arithmetic can hold.
  if (total > (uint64_t(1) << 62))
    return std::nullopt;
  return total;
}

//===----------------------------------------------------------------------===//
// .npy header: a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//===----------------------------------------------------------------------===//

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
};

class NpyHeaderParser {
public:
  explicit NpyHeaderParser(StringRef text) : text(text) {}

  /// Parses the header; on failure returns a message.
  std::optional<std::string> parse(NpyHeader &header) {
    bool seenDescr = false, seenOrder = false, seenShape = false;
    skipSpace();
    if (!consume('{'))
      return std::string("header is not a dict");
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key))
        return std::string("expected a quoted key in the header");
      skipSpace();
      if (!consume(':'))
        return "expected ':' after '" + key + "'";
      skipSpace();
      if (key == "descr") {
        if (!parseString(header.descr))
          return std::string("'descr' is not a string");
        seenDescr = true;
      } else if (key == "fortran_order") {
        if (text.consume_front("True"))
          header.fortranOrder = true;
        else if (text.consume_front("False"))
          header.fortranOrder = false;
        else
          return std::string("'fortran_order' is not True/False");
        seenOrder = true;
      } else if (key == "shape") {
        if (!parseShape(header.shape))
          return std::string("'shape' is not a tuple of integers");
        seenShape = true;
      } else {
        return "unexpected key '" + key + "' in the header";
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume('}'))
        break;
      return std::string("expected ',' or '}' in the header");
    }
    if (!seenDescr || !seenOrder || !seenShape)
      return std::string(
          "header lacks one of 'descr', 'fortran_order', 'shape'");
    return std::nullopt;
  }

private:
  void skipSpace() { text = text.ltrim(" \t\n\r"); }
  bool consume(char c) { return text.consume_front(StringRef(&c, 1)); }
  bool parseString(std::string &out) {
    if (text.empty() || (text.front() != '\'' && text.front() != '"'))
      return false;
    char quote = text.front();
    size_t end = text.find(quote, 1);
    if (end == StringRef::npos)
      return false;
    out = text.slice(1, end).str();
    text = text.drop_front(end + 1);
    return true;
  }
  bool parseShape(llvm::SmallVectorImpl<int64_t> &shape) {
    if (!consume('('))
      return false;
    while (true) {
      skipSpace();
      if (consume(')'))
        return true;
      size_t len = 0;
      while (len < text.size() && llvm::isDigit(text[len]))
        ++len;
      if (len == 0 || len > 18)
        return false;
      int64_t dim;
      if (text.take_front(len).getAsInteger(10, dim))
        return false;
      text = text.drop_front(len);
      // Python writes 'L' suffixes in very old files.
      consume('L');
      shape.push_back(dim);
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (consume(')'))
        return true;
      return false;
    }
  }

  StringRef text;
};

std::optional<TensorDType> parseNpyDescr(StringRef descr) {
  if (descr.size() < 2)
    return std::nullopt;
  char order = descr[0];
  StringRef kind = descr.drop_front();
  // One-byte types are written with '|' (no byte order).
  bool oneByte = kind == "i1" || kind == "u1" || kind == "b1";
  if (order == '>' && !oneByte)
    return std::nullopt;
  if (order != '<' && order != '|' && order != '=' && order != '>')
    return std::nullopt;
  return llvm::StringSwitch<std::optional<TensorDType>>(kind)
      .Case("f2", TensorDType::F16)
      .Case("f4", TensorDType::F32)
      .Case("f8", TensorDType::F64)
      .Case("i1", TensorDType::I8)
      .Case("i2", TensorDType::I16)
      .Case("i4", TensorDType::I32)
      .Case("i8", TensorDType::I64)
      .Case("u1", TensorDType::U8)
      .Case("u2", TensorDType::U16)
      .Case("b1", TensorDType::Bool)
      .Default(std::nullopt);
}

std::optional<TensorDType> parseSafetensorsDType(StringRef dtype) {
  return llvm::StringSwitch<std::optional<TensorDType>>(dtype)
      .Case("F16", TensorDType::F16)
      .Case("BF16", TensorDType::BF16)
      .Case("F32", TensorDType::F32)
      .Case("F64", TensorDType::F64)
      .Case("I8", TensorDType::I8)
      .Case("I16", TensorDType::I16)
      .Case("I32", TensorDType::I32)
      .Case("I64", TensorDType::I64)
      .Case("U8", TensorDType::U8)
      .Case("U16", TensorDType::U16)
      .Case("BOOL", TensorDType::Bool)
      .Default(std::nullopt);
}
} // namespace

//===----------------------------------------------------------------------===//
// TensorFile
//===----------------------------------------------------------------------===//

struct TensorFile::Entry {
  // npz: the zip member.
  uint16_t method = 0;
  uint32_t crc = 0;
  uint64_t compressedSize = 0;
  uint64_t uncompressedSize = 0;
  uint64_t localHeaderOffset = 0;
  /// The inflated member, once decoded.
  std::shared_ptr<char> inflated;

  // safetensors: the decoded header entry.
  std::string dtype;
  llvm::SmallVector<int64_t> shape;
  uint64_t begin = 0, end = 0;
};

TensorFile::~TensorFile() = default;

llvm::Error TensorFile::entryError(StringRef name,
                                   const llvm::Twine &msg) const {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": entry '" + name + "': " + msg);
}

static llvm::Error fileError(StringRef path, const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + msg);
}

llvm::Expected<std::unique_ptr<TensorFile>> TensorFile::open(StringRef path) {
  // Not volatile: large files are mmap'ed, stored entries are read in place.
  auto bufferOr = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false,
                                              /*IsVolatile=*/false);
  if (!bufferOr)
    return fileError(path, "cannot open: " + bufferOr.getError().message());
  return open(std::move(*bufferOr));
}

llvm::Expected<std::unique_ptr<TensorFile>>
TensorFile::open(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  std::unique_ptr<TensorFile> file(new TensorFile());
  file->path = buffer->getBufferIdentifier().str();
  file->buffer = std::shared_ptr<llvm::MemoryBuffer>(std::move(buffer));
  StringRef data = file->buffer->getBuffer();
  if (data.size() >= 4 && (data.starts_with(StringRef("PK\x03\x04", 4)) ||
                           data.starts_with(StringRef("PK\x05\x06", 4)))) {
    file->isZip = true;
    if (llvm::Error err = file->parseZip())
      return std::move(err);
  } else {
    if (llvm::Error err = file->parseSafetensors())
      return std::move(err);
  }
  return file;
}

llvm::Error TensorFile::parseZip() {
  StringRef data = buffer->getBuffer();
  const size_t size = data.size();
  const char *base = data.data();
  // End of central directory record: 22 bytes plus a comment of up to 64 KiB.
  if (size < 22)
    return fileError(path, "truncated zip file (no end of central directory)");
  size_t eocd = StringRef::npos;
  size_t lowest = size >= 22 + 0xFFFF ? size - 22 - 0xFFFF : 0;
  for (size_t pos = size - 22 + 1; pos-- > lowest;) {
    if (read32(base + pos) == 0x06054b50) {
      eocd = pos;
      break;
    }
  }
  if (eocd == StringRef::npos)
    return fileError(path, "not a valid zip file: end of central directory "
                           "not found (truncated?)");
  uint64_t numEntries = read16(base + eocd + 10);
  uint64_t cdSize = read32(base + eocd + 12);
  uint64_t cdOffset = read32(base + eocd + 16);
  if (numEntries == 0xFFFF || cdSize == 0xFFFFFFFF || cdOffset == 0xFFFFFFFF) {
    // ZIP64: the locator sits right before the classic record.
    if (eocd < 20 || read32(base + eocd - 20) != 0x07064b50)
      return fileError(path, "zip64 end of central directory locator missing");
    uint64_t z64 = read64(base + eocd - 20 + 8);
    if (z64 > size || size - z64 < 56 || read32(base + z64) != 0x06064b50)
      return fileError(path, "zip64 end of central directory record invalid");
    numEntries = read64(base + z64 + 32);
    cdSize = read64(base + z64 + 40);
    cdOffset = read64(base + z64 + 48);
  }
  if (cdOffset > size || cdSize > size - cdOffset)
    return fileError(path, "central directory lies outside the file "
                           "(truncated?)");

  uint64_t pos = cdOffset, cdEnd = cdOffset + cdSize;
  for (uint64_t i = 0; i < numEntries; ++i) {
    if (cdEnd - pos < 46 || read32(base + pos) != 0x02014b50)
      return fileError(path,
                       "corrupt central directory entry #" + llvm::Twine(i));
    const char *h = base + pos;
    uint16_t flags = read16(h + 8);
    auto entry = std::make_unique<Entry>();
    entry->method = read16(h + 10);
    entry->crc = read32(h + 16);
    entry->compressedSize = read32(h + 20);
    entry->uncompressedSize = read32(h + 24);
    uint16_t nameLen = read16(h + 28), extraLen = read16(h + 30),
             commentLen = read16(h + 32);
    entry->localHeaderOffset = read32(h + 42);
    if (cdEnd - pos < 46ull + nameLen + extraLen + commentLen)
      return fileError(path,
                       "corrupt central directory entry #" + llvm::Twine(i));
    StringRef name(h + 46, nameLen);
    StringRef extra(h + 46 + nameLen, extraLen);
    // ZIP64 extended information: the 0xFFFFFFFF fields, in order.
    while (extra.size() >= 4) {
      uint16_t id = read16(extra.data()), len = read16(extra.data() + 2);
      if (extra.size() < 4u + len)
        break;
      if (id == 0x0001) {
        StringRef z = extra.substr(4, len);
        auto take = [&](uint64_t &field) {
          if (field != 0xFFFFFFFF || z.size() < 8)
            return;
          field = read64(z.data());
          z = z.drop_front(8);
        };
        take(entry->uncompressedSize);
        take(entry->compressedSize);
        take(entry->localHeaderOffset);
      }
      extra = extra.drop_front(4 + len);
    }
    pos += 46ull + nameLen + extraLen + commentLen;

    StringRef key = name;
    key.consume_back(".npy");
    if (flags & 1)
      return entryError(key, "encrypted zip entries are not supported");
    if (entries.count(key))
      return entryError(key, "appears twice in the archive");
    names.push_back(key.str());
    entries[key] = std::move(entry);
  }
  return llvm::Error::success();
}

llvm::Error TensorFile::parseSafetensors() {
  StringRef data = buffer->getBuffer();
  if (data.size() < 8)
    return fileError(path, "neither a zip (.npz) nor a .safetensors file "
                           "(shorter than 8 bytes)");
  uint64_t headerLen = read64(data.data());
  if (headerLen > data.size() - 8)
    return fileError(path, "safetensors header length " +
                               llvm::Twine(headerLen) +
                               " exceeds the file size (truncated, or not a "
                               ".npz/.safetensors file)");
  StringRef header = data.substr(8, headerLen);
  uint64_t dataSize = data.size() - 8 - headerLen;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(header);
  if (!json)
    return fileError(path, "invalid safetensors JSON header: " +
                               llvm::toString(json.takeError()));
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return fileError(path, "safetensors header is not a JSON object");
  for (const auto &kv : *object) {
    StringRef name = kv.first;
    if (name == "__metadata__")
      continue;
    const llvm::json::Object *desc = kv.second.getAsObject();
    if (!desc)
      return entryError(name, "header entry is not an object");
    auto entry = std::make_unique<Entry>();
    std::optional<StringRef> dtype = desc->getString("dtype");
    const llvm::json::Array *shape = desc->getArray("shape");
    const llvm::json::Array *offsets = desc->getArray("data_offsets");
    if (!dtype || !shape || !offsets)
      return entryError(
          name, "header entry lacks 'dtype', 'shape' or 'data_offsets'");
    entry->dtype = dtype->str();
    for (const llvm::json::Value &d : *shape) {
      std::optional<int64_t> dim = d.getAsInteger();
      if (!dim || *dim < 0)
        return entryError(name, "shape holds a non-integer or negative "
                                "dimension");
      entry->shape.push_back(*dim);
    }
    if (offsets->size() != 2)
      return entryError(name, "'data_offsets' must have two elements");
    std::optional<int64_t> b = (*offsets)[0].getAsInteger();
    std::optional<int64_t> e = (*offsets)[1].getAsInteger();
    if (!b || !e || *b < 0 || *e < *b)
      return entryError(name, "invalid 'data_offsets'");
    if (static_cast<uint64_t>(*e) > dataSize)
      return entryError(name, "data lies outside the file (truncated?)");
    entry->begin = 8 + headerLen + *b;
    entry->end = 8 + headerLen + *e;
    entries[name] = std::move(entry);
    names.push_back(name.str());
  }
  // json::Object is unordered; list entries in file order.
  llvm::sort(names, [&](const std::string &a, const std::string &b) {
    return entries[a]->begin < entries[b]->begin ||
           (entries[a]->begin == entries[b]->begin && a < b);
  });
  return llvm::Error::success();
}

llvm::Expected<TensorView> TensorFile::lookup(StringRef name) {
  auto it = entries.find(name);
  if (it == entries.end())
    return entryError(name, "no such entry");
  Entry &entry = *it->second;
  StringRef data = buffer->getBuffer();
  TensorView view;
  view.name = name.str();

  if (!isZip) {
    std::optional<TensorDType> dtype = parseSafetensorsDType(entry.dtype);
    if (!dtype)
      return entryError(name, "unsupported safetensors dtype '" + entry.dtype +
                                  "' (supported: F16 BF16 F32 F64 I8 I16 I32 "
                                  "I64 U8 U16 BOOL)");
    std::optional<uint64_t> bytes =
        getByteSize(entry.shape, getDTypeByteSize(*dtype));
    if (!bytes)
      return entryError(name, "shape is too large");
    if (*bytes != entry.end - entry.begin)
      return entryError(name, "data size " +
                                  llvm::Twine(entry.end - entry.begin) +
                                  " does not match shape and dtype (" +
                                  llvm::Twine(*bytes) + " bytes)");
    view.dtype = *dtype;
    view.shape = entry.shape;
    view.data = llvm::ArrayRef<char>(data.data() + entry.begin, *bytes);
    view.keepAlive = buffer;
    return view;
  }

  // npz member: find the bytes of the .npy file.
  llvm::ArrayRef<char> npy;
  std::shared_ptr<const void> owner;
  uint64_t off = entry.localHeaderOffset;
  if (off > data.size() || data.size() - off < 30 ||
      read32(data.data() + off) != 0x04034b50)
    return entryError(name, "local zip header missing (truncated?)");
  uint64_t start = off + 30 + read16(data.data() + off + 26) +
                   read16(data.data() + off + 28);
  if (start > data.size() || data.size() - start < entry.compressedSize)
    return entryError(name, "member data lies outside the file (truncated?)");
  StringRef stored = data.substr(start, entry.compressedSize);
  if (entry.method == 0) {
    if (entry.compressedSize != entry.uncompressedSize)
      return entryError(name, "stored member with differing sizes");
    npy = llvm::ArrayRef<char>(stored.data(), stored.size());
    owner = buffer;
  } else if (entry.method == 8) {
    if (!entry.inflated) {
      // Deflate cannot expand data more than ~1032:1; a larger claimed size
      // is corrupt and must not drive the allocation below.
      if (entry.uncompressedSize / 1032 > entry.compressedSize + 1)
        return entryError(name, "uncompressed size " +
                                    llvm::Twine(entry.uncompressedSize) +
                                    " is impossible for " +
                                    llvm::Twine(entry.compressedSize) +
                                    " compressed bytes (corrupt archive)");
      // Inflate into a 64-byte aligned buffer: .npy pads its header to 64
      // bytes, so the array data then ends up aligned too.
      std::shared_ptr<char> out = allocateShared(entry.uncompressedSize, 64);
      z_stream strm = {};
      if (inflateInit2(&strm, -MAX_WBITS) != Z_OK)
        return entryError(name, "zlib initialisation failed");
      uint64_t inDone = 0, outDone = 0;
      int rc = Z_OK;
      // zlib counts in uInt; feed big members in chunks.
      while (rc == Z_OK) {
        uInt inChunk = static_cast<uInt>(
            std::min<uint64_t>(stored.size() - inDone, 1u << 30));
        uInt outChunk = static_cast<uInt>(
            std::min<uint64_t>(entry.uncompressedSize - outDone, 1u << 30));
        strm.next_in =
            reinterpret_cast<Bytef *>(const_cast<char *>(stored.data())) +
            inDone;
        strm.avail_in = inChunk;
        strm.next_out = reinterpret_cast<Bytef *>(out.get()) + outDone;
        strm.avail_out = outChunk;
        rc = inflate(&strm, Z_NO_FLUSH);
        inDone += inChunk - strm.avail_in;
        outDone += outChunk - strm.avail_out;
        if (rc == Z_OK && strm.avail_in == inChunk &&
            strm.avail_out == outChunk)
          rc = Z_BUF_ERROR; // no progress
      }
      inflateEnd(&strm);
      if (rc != Z_STREAM_END || outDone != entry.uncompressedSize)
        return entryError(name, llvm::Twine("corrupt or truncated deflate "
                                            "data (") +
                                    (strm.msg ? strm.msg : "size mismatch") +
                                    ")");
      entry.inflated = out;
    }
    npy = llvm::ArrayRef<char>(entry.inflated.get(), entry.uncompressedSize);
    owner = entry.inflated;
  } else {
    return entryError(name, "unsupported zip compression method " +
                                llvm::Twine(entry.method) +
                                " (only stored and deflated)");
  }
  uLong crc = crc32(0L, Z_NULL, 0);
  for (size_t done = 0; done < npy.size();) {
    uInt chunk =
        static_cast<uInt>(std::min<size_t>(npy.size() - done, 1u << 30));
    crc = crc32(crc, reinterpret_cast<const Bytef *>(npy.data() + done), chunk);
    done += chunk;
  }
  if (crc != entry.crc)
    return entryError(name, "CRC mismatch (corrupt member)");

  // .npy: magic, version, header length, header, data.
  StringRef file(npy.data(), npy.size());
  if (!file.starts_with("\x93NUMPY") || file.size() < 10)
    return entryError(name, "not a .npy array (bad magic)");
  unsigned major = static_cast<unsigned char>(file[6]);
  uint64_t headerLen, headerStart;
  if (major == 1) {
    headerLen = read16(file.data() + 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12)
      return entryError(name, "truncated .npy header");
    headerLen = read32(file.data() + 8);
    headerStart = 12;
  } else {
    return entryError(name, "unsupported .npy version " + llvm::Twine(major));
  }
  if (file.size() - headerStart < headerLen)
    return entryError(name, "truncated .npy header");
  NpyHeader header;
  if (std::optional<std::string> err =
          NpyHeaderParser(file.substr(headerStart, headerLen)).parse(header))
    return entryError(name, "malformed .npy header: " + *err);
  std::optional<TensorDType> dtype = parseNpyDescr(header.descr);
  if (!dtype)
    return entryError(name, "unsupported .npy dtype '" + header.descr +
                                "' (supported little-endian f2 f4 f8 i1 i2 i4 "
                                "i8 u1 u2 b1)");
  if (header.fortranOrder)
    return entryError(name, "fortran_order=True arrays are not supported; "
                            "save a C-ordered array (np.ascontiguousarray)");
  std::optional<uint64_t> bytes =
      getByteSize(header.shape, getDTypeByteSize(*dtype));
  if (!bytes)
    return entryError(name, "shape is too large");
  uint64_t dataStart = headerStart + headerLen;
  if (file.size() - dataStart != *bytes)
    return entryError(name, "array data is " +
                                llvm::Twine(file.size() - dataStart) +
                                " bytes, expected " + llvm::Twine(*bytes) +
                                " for the shape and dtype");
  view.dtype = *dtype;
  view.shape = header.shape;
  view.data = npy.slice(dataStart, *bytes);
  view.keepAlive = owner;
  return view;
}

mlir::DenseResourceElementsAttr
TensorFile::getResourceAttr(const TensorView &view, mlir::MLIRContext *context,
                            StringRef blobName) {
  size_t align = getDTypeByteSize(view.dtype);
  mlir::AsmResourceBlob blob;
  if (reinterpret_cast<uintptr_t>(view.data.data()) % align == 0) {
    // The bytes are aligned for their element type: share them instead of
    // copying. An unmanaged blob does not free anything itself; its deleter
    // just drops our reference to the owner (the mapped file or the inflated
    // buffer), so the bytes stay valid exactly as long as the blob and the
    // caller may drop the TensorFile right away.
    blob = mlir::UnmanagedAsmResourceBlob::allocateWithAlign(
        view.data, align,
        [keep = view.keepAlive](void *, size_t, size_t) mutable {
          keep.reset();
        });
  } else {
    // Misaligned (a stored zip member starts wherever its local header ends):
    // the one copy, into a heap blob that the context owns.
    blob =
        mlir::HeapAsmResourceBlob::allocateAndCopyWithAlign(view.data, align);
  }
  return mlir::DenseResourceElementsAttr::get(view.getType(context), blobName,
                                              std::move(blob));
}

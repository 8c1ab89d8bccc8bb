//===- ObjectJIT.cpp - Run compiled object code in-process ----------------===//
//
// Part of the mlc project.
//
//===----------------------------------------------------------------------===//

#include "mlc/ExecutionEngine/ObjectJIT.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlc;

ObjectJIT::ObjectJIT() = default;
ObjectJIT::~ObjectJIT() = default;

llvm::Expected<std::unique_ptr<ObjectJIT>>
ObjectJIT::create(std::unique_ptr<llvm::MemoryBuffer> object,
                  llvm::ArrayRef<llvm::StringRef> sharedLibPaths) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto jit = llvm::orc::LLJITBuilder().create();
  if (!jit)
    return jit.takeError();
  llvm::orc::JITDylib &main = (*jit)->getMainJITDylib();
  char prefix = (*jit)->getDataLayout().getGlobalPrefix();
  for (llvm::StringRef path : sharedLibPaths) {
    auto library = llvm::orc::DynamicLibrarySearchGenerator::Load(
        path.str().c_str(), prefix);
    if (!library)
      return library.takeError();
    main.addGenerator(std::move(*library));
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  main.addGenerator(std::move(*process));
  if (llvm::Error error = (*jit)->addObjectFile(std::move(object)))
    return std::move(error);
  std::unique_ptr<ObjectJIT> result(new ObjectJIT());
  result->jit = std::move(*jit);
  return result;
}

llvm::Error ObjectJIT::lookupPacked(llvm::StringRef name) {
  auto address = jit->lookup(("_mlir_" + name).str());
  if (!address)
    return address.takeError();
  return llvm::Error::success();
}

llvm::Error ObjectJIT::invokePacked(llvm::StringRef name,
                                    llvm::MutableArrayRef<void *> args) {
  auto address = jit->lookup(("_mlir_" + name).str());
  if (!address)
    return address.takeError();
  address->toPtr<void (*)(void **)>()(args.data());
  return llvm::Error::success();
}

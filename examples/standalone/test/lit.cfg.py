# The standalone example's tests: standalone-opt and LLVM's FileCheck.
import os

import lit.formats

config.name = "mlc-standalone"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".mlir"]
config.test_source_root = config.standalone_test_dir
config.test_exec_root = config.standalone_obj_dir
config.environment["PATH"] = os.pathsep.join(
    [config.standalone_tools_dir, config.llvm_tools_dir,
     config.environment.get("PATH", os.environ.get("PATH", ""))])

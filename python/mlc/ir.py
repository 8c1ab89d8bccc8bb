"""IR containers."""


class Module:
    """An MLIR module (TVM's IRModule) held as text in MLIR's generic or
    pretty form; the tools parse and verify it."""

    def __init__(self, text):
        self.text = text

    @staticmethod
    def from_file(path):
        with open(path) as f:
            return Module(f.read())

    def astext(self):
        return self.text

    def __str__(self):
        return self.text

#!/usr/bin/python3
"""Mutation fuzzer for `mlc-translate --import-relay`.

Takes the Relay test inputs (and the tensor files the meta-constant tests
use), mutates them (byte flips, token deletions, duplications, swaps and
insertions, truncations) and runs the importer on each mutant. Every run must
end either successfully or with a clean error (exit code 1 and an `error:`
diagnostic); a signal exit (crash, assertion, sanitizer abort) or a timeout is
a failure. Crashing inputs are saved for reproduction.

usage (from the repository root, after building):
  /usr/bin/python3 utils/fuzz/fuzz-relay-import.py --runs 2000 --seed 1
With a sanitizer build (cmake -DMLC_ENABLE_SANITIZERS=ON ...), pass its binary:
  /usr/bin/python3 utils/fuzz/fuzz-relay-import.py --mlc-translate BUILD/bin/mlc-translate

Exit status: 0 if no run crashed or hung, 1 otherwise.
"""

import argparse
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TOKEN_RE = re.compile(
    rb"\s+|//[^\n]*|/\*.*?\*/|%[\w.:]+|@[\w.]+|[A-Za-z_][\w.]*|"
    rb"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?[fiu]?\d*|\"[^\"\n]*\"|.",
    re.S)

# Fragments that reach the parser's and importer's less common paths.
INTERESTING = [
    b"(", b")", b"[", b"]", b"{", b"}", b",", b";", b"=", b".", b":", b"?",
    b"->", b"%0", b"%1.0", b"%x.0.1", b"@main", b"@f(", b"let %v = ", b"fn",
    b"if", b"free_var %q: float32;", b"meta[relay.Constant][0]",
    b"meta[relay.Constant][99]", b"meta[relay.Foo][0]", b"#[metadata]",
    b"#[version = \"0.0.4\"]", b"/*", b"*/", b"/* ty=Tensor[(1), float32] */",
    b"\"", b"\\", b"-", b"1e999f", b"-0f", b"99999999999999999999i64",
    b"300i8", b"2u1", b"1f16", b"True", b"None", b"Tensor[(?, 3), int64]",
    b"Tensor[(), bool]", b"(Tensor[(1), float32],)", b"()", b"(,)",
    b"axis=-1", b"axis=[[1], [2, [3]]]", b"dtype=\"int4\"", b"out_dtype=\"\"",
    b"padding=[0.5f]", b"\x00", b"\xff", b"\xc3\xa9", b"\t", b"\n",
]


def tokens(data):
    return [m.group(0) for m in TOKEN_RE.finditer(data)]


def mutate_text(data, rng):
    """One to four random edits of a Relay program."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["flip", "delete", "duplicate", "swap", "insert",
                           "truncate", "splice"])
        if not data:
            data = rng.choice(INTERESTING)
            continue
        if kind == "flip":
            data = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(len(data))
                data[i] = rng.randrange(256) if rng.random() < 0.5 else data[i] ^ (1 << rng.randrange(8))
            data = bytes(data)
        elif kind == "truncate":
            data = data[: rng.randrange(len(data))]
        else:
            toks = tokens(data)
            if not toks:
                continue
            i = rng.randrange(len(toks))
            if kind == "delete":
                n = rng.randint(1, 3)
                del toks[i:i + n]
            elif kind == "duplicate":
                n = rng.randint(1, 6)
                toks[i:i] = toks[i:i + n] * rng.randint(1, 3)
            elif kind == "swap":
                j = rng.randrange(len(toks))
                toks[i], toks[j] = toks[j], toks[i]
            elif kind == "insert":
                toks.insert(i, rng.choice(INTERESTING))
            elif kind == "splice":
                # Repeat a span many times: deep nesting, long lists.
                j = min(len(toks), i + rng.randint(1, 4))
                toks[i:i] = toks[i:j] * rng.randint(10, 400)
            data = b"".join(toks)
    return data


def mutate_binary(data, rng):
    """Damage a tensor file: flips, truncation, chunk duplication/deletion."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["flip", "flip", "truncate", "delete", "duplicate", "int"])
        if not data:
            break
        i = rng.randrange(len(data))
        if kind == "flip":
            data[i] = rng.randrange(256)
        elif kind == "truncate":
            del data[i:]
        elif kind == "delete":
            del data[i:i + rng.randint(1, 64)]
        elif kind == "duplicate":
            data[i:i] = data[i:i + rng.randint(1, 64)]
        elif kind == "int":
            # Overwrite with a boundary integer (sizes, offsets, lengths).
            value = rng.choice([0, 1, 0x7F, 0xFF, 0xFFFF, 0xFFFFFFFF, 0x7FFFFFFF,
                                0xFFFFFFFFFFFFFFFF, 1 << 40])
            width = rng.choice([2, 4, 8])
            data[i:i + width] = (value & ((1 << (8 * width)) - 1)).to_bytes(width, "little")
    return bytes(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mlc-translate", default=os.path.join(ROOT, "build", "bin", "mlc-translate"))
    parser.add_argument("--inputs", nargs="*",
                        default=sorted(glob.glob(os.path.join(ROOT, "test", "Target", "Relay", "**", "*.relay"), recursive=True)))
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=600, help="stop after this long")
    parser.add_argument("--timeout", type=float, default=20, help="per run")
    parser.add_argument("--tensor-fraction", type=float, default=0.15,
                        help="share of runs that damage the --relay-meta file instead of the program")
    parser.add_argument("--crash-dir", default=None, help="where to save crashing inputs (default: a temp dir)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    if not os.path.exists(args.mlc_translate):
        sys.exit(f"error: {args.mlc_translate} not found; build first")
    rng = random.Random(args.seed)
    seeds = [(p, open(p, "rb").read()) for p in args.inputs]
    if not seeds:
        sys.exit("error: no inputs")

    work = tempfile.mkdtemp(prefix="fuzz-relay-")
    # A private copy, so that rebuilding during a long run does not disturb it.
    translate = os.path.join(work, "mlc-translate")
    shutil.copy2(args.mlc_translate, translate)
    crash_dir = args.crash_dir or os.path.join(work, "crashes")
    os.makedirs(crash_dir, exist_ok=True)

    # Tensor files as the tests make them; the meta test program uses them.
    tensor_files = []
    maker = os.path.join(ROOT, "test", "Target", "Relay", "Inputs", "make-tensors.py")
    meta_program = os.path.join(ROOT, "test", "Target", "Relay", "meta-constants.relay")
    if os.path.exists(maker) and os.path.exists(meta_program):
        tdir = os.path.join(work, "tensors")
        subprocess.run([sys.executable, maker, tdir], check=True)
        for name in ["stored.npz", "compressed.npz", "consts.safetensors"]:
            tensor_files.append(open(os.path.join(tdir, name), "rb").read())
    meta_good = os.path.join(work, "good.npz")
    if tensor_files:
        open(meta_good, "wb").write(tensor_files[0])

    # Sanitizer reports (in a -DMLC_ENABLE_SANITIZERS=ON build) must count as
    # crashes, not as exit code 1.
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "abort_on_error=1:detect_leaks=0")
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:print_stacktrace=1")

    counts = {"ok": 0, "error": 0, "crash": 0, "timeout": 0, "silent": 0}
    start = time.time()
    runs = 0
    program = os.path.join(work, "input.relay")
    meta = os.path.join(work, "meta.bin")
    for runs in range(1, args.runs + 1):
        if time.time() - start > args.max_seconds:
            runs -= 1
            break
        if tensor_files and rng.random() < args.tensor_fraction:
            text = open(meta_program, "rb").read()
            blob = mutate_binary(rng.choice(tensor_files), rng)
            open(meta, "wb").write(blob)
            meta_arg = meta
            origin = "tensor file"
        else:
            origin, text = rng.choice(seeds)
            text = mutate_text(text, rng)
            meta_arg = meta_good if tensor_files else None
            blob = None
        open(program, "wb").write(text)
        cmd = [translate, "--import-relay", program, "-o", os.devnull]
        if meta_arg:
            cmd.append("--relay-meta=" + meta_arg)
        try:
            proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  timeout=args.timeout, env=env)
            rc = proc.returncode
            stderr = proc.stderr
        except subprocess.TimeoutExpired:
            rc, stderr = None, b""
        if rc is None:
            kind = "timeout"
        elif rc == 0:
            kind = "ok"
        elif rc < 0 or rc >= 128 or b"Sanitizer" in stderr or b"runtime error:" in stderr:
            kind = "crash"
        elif b"error:" in stderr:
            kind = "error"
        else:
            kind = "silent"  # failed without saying why
        counts[kind] += 1
        if kind in ("crash", "timeout", "silent"):
            base = os.path.join(crash_dir, f"{kind}-{runs}")
            open(base + ".relay", "wb").write(text)
            if blob is not None:
                open(base + ".meta", "wb").write(blob)
            print(f"{kind}: run {runs} (from {os.path.basename(origin)}), rc={rc}, saved {base}.relay", flush=True)
            if args.verbose:
                sys.stdout.write(stderr.decode(errors="replace")[-2000:])
    elapsed = time.time() - start
    print(f"{runs} runs in {elapsed:.0f}s (seed {args.seed}): "
          f"{counts['ok']} imported, {counts['error']} clean errors, "
          f"{counts['crash']} crashes, {counts['timeout']} timeouts, "
          f"{counts['silent']} failures without a diagnostic")
    bad = counts["crash"] + counts["timeout"] + counts["silent"]
    if bad:
        print(f"failing inputs saved in {crash_dir}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

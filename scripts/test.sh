#!/usr/bin/env bash
# The test command: sets up the machine, builds mlc and runs every test.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" check-mlc

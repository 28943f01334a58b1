#!/usr/bin/env bash
set -euo pipefail
rm -rf build
mkdir -p build
for f in src/*.md; do
  pandoc "$f" -o "build/$(basename "$f" .md).html"
done
echo done

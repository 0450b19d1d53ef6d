"""Start and stop the real Neo4j of this Maven module, for tests and bench/neo4j_load.py.

::

    with running_server(workdir) as server:
        driver = neo4j.GraphDatabase.driver(server.uri, auth=server.auth)

``build()`` runs ``mvn -q package`` here when the launcher or its jars are
missing (install.sh builds them ahead, so tests need no network).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import neo4j

HERE = Path(__file__).resolve().parent
CLASSES = HERE / "target" / "classes"
LIB = HERE / "target" / "lib"
MAIN_CLASS = "org.paperkg.testserver.TestServer"
READY = "PAPERKG-NEO4J-READY"
USER = "neo4j"
PASSWORD = "paperkg-test-password"


@dataclass
class ServerInfo:
    """How to reach a running test server."""

    uri: str
    user: str
    password: str
    port: int
    home: Path
    #: the server's LOAD CSV root (``file:///x.csv`` reads ``import_dir / "x.csv"``)
    import_dir: Path
    #: process id of the server's JVM
    pid: int = 0

    def cpu_seconds(self) -> float:
        """CPU time the server's JVM has used so far (Linux)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    @property
    def auth(self) -> tuple[str, str]:
        return (self.user, self.password)


def is_built() -> bool:
    """True when target/ holds the launcher, compiled from the current source, and the jars."""
    compiled = CLASSES / "org/paperkg/testserver/TestServer.class"
    source = HERE / "src/main/java/org/paperkg/testserver/TestServer.java"
    return (
        compiled.exists()
        and compiled.stat().st_mtime >= source.stat().st_mtime
        and any(LIB.glob("neo4j-5.*.jar"))
    )


def build() -> None:
    """Compile the launcher and copy Neo4j's jars into target/lib (needs Maven Central once)."""
    if is_built():
        return
    mvn = shutil.which("mvn")
    if mvn is None:
        raise RuntimeError(
            "tests/neo4j_server is not built and Maven (mvn) is not installed: "
            "run ./install.sh, or apt-get install maven and retry"
        )
    subprocess.run(
        [mvn, "-q", "-B", "-Dstyle.color=never", "-f", str(HERE / "pom.xml"), "package"], check=True
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _java() -> str:
    java = shutil.which("java")
    if java is None:
        raise RuntimeError("java is not installed; the Neo4j test server needs Java 17")
    build()
    return java


def neo4j_admin(args: list[str], *, home: Path, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``neo4j-admin ARGS`` (Neo4j's own AdminTool, from the same jars) on ``home``."""
    conf = home / "conf"
    conf.mkdir(parents=True, exist_ok=True)
    (conf / "neo4j.conf").touch()
    cmd = [_java(), "-Xmx512m", "-cp", f"{CLASSES}:{LIB}/*", "org.neo4j.cli.AdminTool", *args]
    env = {**os.environ, "NEO4J_HOME": str(home), "NEO4J_CONF": str(conf)}
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)


@contextlib.contextmanager
def running_server(
    workdir: Path,
    *,
    home: Path | None = None,
    port: int | None = None,
    timeout: float = 120.0,
    heap: str = "1g",
    quick_start: bool = True,
    pagecache_mb: int = 128,
) -> Iterator[ServerInfo]:
    """Start Neo4j on a free loopback port, yield once Bolt answers, stop it afterwards.

    ``home`` (default ``workdir/neo4j-home``) may hold a database made by :func:`neo4j_admin`.
    ``quick_start`` trades peak speed for a faster start (C1 JIT only); benchmarks turn it off.
    """
    java = _java()
    port = port or free_port()
    home = home or workdir / "neo4j-home"
    import_dir = workdir / "neo4j-import"
    home.mkdir(parents=True, exist_ok=True)
    import_dir.mkdir(parents=True, exist_ok=True)
    log_path = workdir / "neo4j-server.log"
    # fmt: off
    cmd = [
        java, f"-Xmx{heap}",
        *(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"] if quick_start else []),
        "-cp", f"{CLASSES}:{LIB}/*", MAIN_CLASS,
        "--port", str(port), "--password", PASSWORD,
        "--home", str(home), "--import-dir", str(import_dir),
        "--pagecache-mb", str(pagecache_mb),
    ]
    # fmt: on
    info = ServerInfo(
        uri=f"bolt://127.0.0.1:{port}",
        user=USER,
        password=PASSWORD,
        port=port,
        home=home,
        import_dir=import_dir,
    )
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT)
    info.pid = proc.pid
    try:
        _wait_until_ready(proc, info, log_path, timeout)
        yield info
    finally:
        _stop(proc)


def _wait_until_ready(
    proc: subprocess.Popen, info: ServerInfo, log_path: Path, timeout: float
) -> None:
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log_path.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"Neo4j test server exited with {proc.returncode}:\n{tail}")
        if READY in log_path.read_text(errors="replace"):
            try:
                with neo4j.GraphDatabase.driver(info.uri, auth=info.auth) as driver:
                    driver.verify_connectivity()
                return
            except Exception as e:  # noqa: BLE001 - keep polling until the deadline
                last_error = e
        time.sleep(0.5)
    raise RuntimeError(
        f"Neo4j test server did not answer on {info.uri} within {timeout:.0f} s "
        f"(last error: {last_error}); see {log_path}"
    )


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.stdin.close()  # the launcher exits when its stdin closes
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

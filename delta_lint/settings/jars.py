"""Open-source Delta Lake's Spark jars: fetched once from Maven Central, then offline.

The `delta-spark` Python package is only the Python API; the engine lives in two
jars (`io.delta:delta-spark_2.13` and `io.delta:delta-storage`, same version as
the Python package). Spark's own `spark.jars.packages` would resolve them through
Ivy on every start, which needs the network each time; instead `install` copies
them once into a cache folder (verifying Maven Central's SHA-1 of each) and Spark
gets plain `spark.jars` paths afterwards. Their other dependencies (Scala, ANTLR)
ship with pyspark.

Nothing here starts a JVM: `delta-lint install-delta` works on a machine without
Java, and the default install never needs this module.

    python -m delta_lint.settings.jars     # same as `delta-lint install-delta`
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

MAVEN_CENTRAL = "https://repo1.maven.org/maven2"
SCALA = "2.13"  # pyspark 4 is built for Scala 2.13 only


class JarsUnavailable(Exception):
    """The jars are not installed (or could not be fetched); phrased for the user."""


@dataclass(frozen=True)
class Artifact:
    group: str
    name: str
    version: str

    @property
    def file_name(self) -> str:
        return f"{self.name}-{self.version}.jar"

    def url(self, repository: str) -> str:
        return f"{repository.rstrip('/')}/{self.group.replace('.', '/')}/{self.name}/{self.version}/{self.file_name}"

    def local_maven(self) -> Path:
        """Where `mvn dependency:get` would have put it already."""
        return (
            Path.home()
            / ".m2"
            / "repository"
            / Path(*self.group.split("."))
            / self.name
            / self.version
            / self.file_name
        )


def delta_version() -> str:
    """The installed delta-spark Python package's version: the jars must match it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("delta-spark")
    except PackageNotFoundError as err:
        raise JarsUnavailable("delta-spark is not installed: install `delta-lint[delta]`") from err


def artifacts(version: str) -> list[Artifact]:
    return [Artifact("io.delta", f"delta-spark_{SCALA}", version), Artifact("io.delta", "delta-storage", version)]


def cache_dir() -> Path:
    """`$DELTA_LINT_JARS`, else the user's cache folder (`$XDG_CACHE_HOME`, ~/.cache)."""
    if os.environ.get("DELTA_LINT_JARS"):
        return Path(os.environ["DELTA_LINT_JARS"]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "delta-lint" / "jars"


def _sha1(path: Path) -> str:
    digest = hashlib.sha1()  # noqa: S324 - Maven Central publishes SHA-1 checksums
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _checksum_file(jar: Path) -> Path:
    return jar.with_name(jar.name + ".sha1")


def _valid(jar: Path) -> bool:
    """A cached jar counts only with its recorded checksum matching: a half-written
    or damaged file is fetched again, never handed to Spark."""
    marker = _checksum_file(jar)
    return jar.is_file() and marker.is_file() and marker.read_text().split()[0:1] == [_sha1(jar)]


def installed_jars(version: str | None = None, folder: Path | None = None) -> list[Path] | None:
    """The cached jars for the installed delta-spark, or None when not (all) installed."""
    try:
        version = version or delta_version()
    except JarsUnavailable:
        return None
    folder = (folder or cache_dir()) / version
    jars = [folder / a.file_name for a in artifacts(version)]
    return jars if all(_valid(j) for j in jars) else None


def _fetch(url: str, timeout: float) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - https Maven repository
            return response.read()
    except (urllib.error.URLError, OSError) as err:
        raise JarsUnavailable(f"cannot download {url}: {getattr(err, 'reason', err)}") from err


def install(
    version: str | None = None,
    folder: Path | None = None,
    repository: str | None = None,
    timeout: float = 60.0,
    log=None,
) -> list[Path]:
    """Make sure the jars are in the cache; download only what is missing or damaged.

    Returns the jar paths. A second call with everything cached makes no network
    request at all."""
    version = version or delta_version()
    repository = repository or os.environ.get("DELTA_LINT_MAVEN_REPOSITORY") or MAVEN_CENTRAL
    target = (folder or cache_dir()) / version
    target.mkdir(parents=True, exist_ok=True)
    out = []
    for artifact in artifacts(version):
        jar = target / artifact.file_name
        out.append(jar)
        if _valid(jar):
            continue
        url = artifact.url(repository)
        expected = _fetch(url + ".sha1", timeout).decode("ascii", "replace").split()[0].lower()
        local = artifact.local_maven()
        if local.is_file() and _sha1(local) == expected:
            data = local.read_bytes()  # already in the local Maven repository
            source = str(local)
        else:
            data = _fetch(url, timeout)
            source = url
        if hashlib.sha1(data).hexdigest() != expected:  # noqa: S324
            raise JarsUnavailable(f"{url}: checksum mismatch (expected {expected})")
        # write beside, then rename: a reader never sees a partial jar
        with tempfile.NamedTemporaryFile(dir=target, delete=False, suffix=".part") as tmp:
            tmp.write(data)
        os.chmod(tmp.name, 0o644)  # a shared cache: readable like any downloaded library
        Path(tmp.name).replace(jar)
        _checksum_file(jar).write_text(expected + "\n")
        if log:
            log(f"fetched {artifact.file_name} from {source}")
    return out


def spark_configs(jars: list[Path]) -> dict[str, str]:
    """What a SparkSession (or a Spark Connect server) needs to run Delta."""
    # on the driver's class path rather than `spark.jars`: nothing is served over the
    # network to executors (local mode runs them in the driver's JVM)
    return {
        "spark.driver.extraClassPath": os.pathsep.join(str(j) for j in jars),
        "spark.sql.extensions": "io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.spark_catalog": "org.apache.spark.sql.delta.catalog.DeltaCatalog",
    }


def main(argv: list[str] | None = None) -> int:
    """Install the jars; print where they are. Exit 2 with one line when it cannot."""
    del argv
    try:
        jars = install(log=lambda line: print(line, file=sys.stderr))
    except JarsUnavailable as err:
        print(f"delta-lint: {err}", file=sys.stderr)
        return 2
    for jar in jars:
        print(jar)
    if shutil.which("java") is None:
        print("note: no `java` on PATH; --spark local and `reproduce` need a Java 17+ runtime", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

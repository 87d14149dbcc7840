"""The Delta jars install step: checksummed, cached, offline on the second run. A local
folder laid out as a Maven repository stands in for Maven Central (file:// URLs)."""

from __future__ import annotations

import hashlib

import pytest

from delta_lint.settings import jars


def maven(tmp_path, version="9.9.9", corrupt=False):
    repo = tmp_path / "repo"
    for artifact in jars.artifacts(version):
        folder = repo / artifact.group.replace(".", "/") / artifact.name / version
        folder.mkdir(parents=True)
        data = f"jar {artifact.name}".encode()
        (folder / artifact.file_name).write_bytes(data + (b"!" if corrupt else b""))
        (folder / (artifact.file_name + ".sha1")).write_text(hashlib.sha1(data).hexdigest() + "\n")
    return repo.as_uri()


def test_installs_once_then_offline_and_refetches_a_damaged_jar(tmp_path, monkeypatch):
    monkeypatch.setattr(jars.Path, "home", lambda: tmp_path / "home")  # no ~/.m2 to copy from
    repo, cache = maven(tmp_path), tmp_path / "cache"
    installed = jars.install("9.9.9", cache, repo)
    assert [p.name for p in installed] == ["delta-spark_2.13-9.9.9.jar", "delta-storage-9.9.9.jar"]
    assert jars.installed_jars("9.9.9", cache) == installed

    def offline(url, timeout):
        raise AssertionError(f"network used: {url}")

    monkeypatch.setattr(jars, "_fetch", offline)
    assert jars.install("9.9.9", cache, repo) == installed  # everything cached: no request
    installed[1].write_bytes(b"truncated")
    assert jars.installed_jars("9.9.9", cache) is None  # a damaged jar is never handed to Spark
    monkeypatch.undo()
    monkeypatch.setattr(jars.Path, "home", lambda: tmp_path / "home")
    jars.install("9.9.9", cache, repo)
    assert jars.installed_jars("9.9.9", cache) == installed


def test_a_checksum_mismatch_or_an_unreachable_repository_is_one_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(jars.Path, "home", lambda: tmp_path / "home")
    with pytest.raises(jars.JarsUnavailable, match="checksum mismatch"):
        jars.install("9.9.9", tmp_path / "cache", maven(tmp_path, corrupt=True))
    with pytest.raises(jars.JarsUnavailable, match="cannot download"):
        jars.install("9.9.9", tmp_path / "cache2", (tmp_path / "nowhere").as_uri())
    assert jars.installed_jars("9.9.9", tmp_path / "cache") is None


def test_spark_gets_the_jars_on_the_class_path_with_the_delta_catalog(tmp_path):
    conf = jars.spark_configs([tmp_path / "a.jar", tmp_path / "b.jar"])
    assert conf["spark.driver.extraClassPath"].split(":") == [str(tmp_path / "a.jar"), str(tmp_path / "b.jar")]
    assert conf["spark.sql.catalog.spark_catalog"] == "org.apache.spark.sql.delta.catalog.DeltaCatalog"

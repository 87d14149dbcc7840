"""The formats CI systems read, validated as those systems would: GitLab Code Quality
fields, JUnit XML against a JUnit schema, JSON Lines line by line, and SARIF URIs
through an RFC 3986 parser."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import jsonschema
import pytest
import xmlschema
from rfc3986_validator import validate_rfc3986

from tests.conftest import ROOT
from tests.test_integrations import CONFIG, DELETE_B, MERGE_A, SARIF_SCHEMA, cli, project

JUNIT_SCHEMA = xmlschema.XMLSchema(ROOT / "tests" / "schemas" / "junit.xsd")


@pytest.fixture(scope="module")
def conflict(tmp_path_factory):
    """Two files whose writes conflict, one of them with a space, a `#` and a `%` in its name."""
    # configured jobs: their overlap is the configuration's, so the certain conflict is an error
    jobs = 'jobs:\n  a: {paths: ["jobs/my job #1 100%.sql"]}\n  b: {paths: [jobs/b.sql]}\n'
    files = {"jobs/my job #1 100%.sql": MERGE_A, "jobs/b.sql": DELETE_B, "delta-lint.yaml": CONFIG + jobs}
    p = project(tmp_path_factory.mktemp("ci"), files)
    expected = json.loads(cli("check", ".", "--format", "json", cwd=p).stdout)["findings"]
    assert {f["rule"] for f in expected} >= {"DL101"}
    return p, expected


def test_gitlab_code_quality_has_every_field_gitlab_reads(conflict):
    p, expected = conflict
    proc = cli("check", ".", "--format", "gitlab", cwd=p)
    assert proc.returncode == 1, proc.stderr
    issues = json.loads(proc.stdout)
    assert isinstance(issues, list) and len(issues) == len(expected)
    for issue, finding in zip(issues, expected):
        assert issue["location"]["path"] == finding["location"]["path"]
        assert issue["location"]["lines"]["begin"] == finding["location"]["line"]
        assert issue["check_name"].startswith(finding["rule"] + " ")
        assert finding["message"] in issue["description"]
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(issue["fingerprint"], str) and len(issue["fingerprint"]) == 32
    assert len({i["fingerprint"] for i in issues}) == len(issues), "GitLab merges issues with one fingerprint"
    assert {i["severity"] for i in issues if i["check_name"].startswith("DL101")} == {"critical"}


def test_gitlab_fingerprints_stay_when_the_code_moves_down(conflict, tmp_path):
    p, _ = conflict
    first = [i["fingerprint"] for i in json.loads(cli("check", ".", "--format", "gitlab", cwd=p).stdout)]
    moved = project(tmp_path, {"jobs/my job #1 100%.sql": "\n\n" + MERGE_A, "jobs/b.sql": "-- moved\n" + DELETE_B})
    second = [i["fingerprint"] for i in json.loads(cli("check", ".", "--format", "gitlab", cwd=moved).stdout)]
    assert first == second


def test_gitlab_and_junit_without_findings(tmp_path):
    p = project(tmp_path, {"a.sql": "INSERT INTO s.orders VALUES (1, '2024-01-01');\n"})
    gitlab = cli("check", ".", "--format", "gitlab", cwd=p)
    assert gitlab.returncode == 0 and json.loads(gitlab.stdout) == []
    junit = cli("check", ".", "--format", "junit", cwd=p)
    assert junit.returncode == 0
    JUNIT_SCHEMA.validate(junit.stdout)
    root = ET.fromstring(junit.stdout)
    assert root.get("failures") == "0" and len(root.findall("./testsuite/testcase")) == 1
    assert root.find("./testsuite/testcase/failure") is None
    assert cli("check", ".", "--format", "json-lines", cwd=p).stdout == ""


def test_junit_is_valid_and_has_one_failing_case_per_finding(conflict):
    p, expected = conflict
    proc = cli("check", ".", "--format", "junit", cwd=p)
    assert proc.returncode == 1, proc.stderr
    JUNIT_SCHEMA.validate(proc.stdout)  # raises with the offending element
    root = ET.fromstring(proc.stdout)
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == len(expected) and root.get("failures") == str(len(expected))
    suites = {s.get("name") for s in root.findall("./testsuite")}
    assert suites == {f["location"]["path"] for f in expected}
    for case, finding in zip(cases, expected):
        failure = case.find("failure")
        assert failure is not None and failure.get("message") == finding["message"]
        assert case.get("classname") == finding["location"]["path"]
        assert case.get("name").startswith(finding["rule"])
        where = f"{finding['location']['path']}:{finding['location']['line']}:{finding['location']['column']}"
        assert failure.text.startswith(where)


def test_junit_escapes_markup_in_messages(tmp_path):
    """A table name is the user's text: `<`, `&` and quotes must not break the XML."""
    from delta_lint import formats_ci
    from delta_lint.model import Finding, Location

    hostile = Finding("DL101", "x", "error", None, "t", 'a <b> & "c" ]]>', Location("d&<e>.sql", 1, 1))
    text = formats_ci.junit([hostile])
    JUNIT_SCHEMA.validate(text)
    case = ET.fromstring(text).find("./testsuite/testcase")
    assert case.get("classname") == "d&<e>.sql" and case.find("failure").get("message") == 'a <b> & "c" ]]>'


def test_json_lines_is_one_finding_per_line(conflict):
    p, expected = conflict
    proc = cli("check", ".", "--format", "json-lines", cwd=p)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert [json.loads(line) for line in lines] == expected
    assert proc.stdout.endswith("\n")


def test_sarif_uris_are_percent_encoded_uri_references(conflict):
    p, _ = conflict
    doc = json.loads(cli("check", ".", "--format", "sarif", cwd=p).stdout)
    # the schema declares `uri` a uri-reference; with a format checker it is enforced
    jsonschema.Draft7Validator(SARIF_SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER).validate(doc)
    uris = [
        loc["physicalLocation"]["artifactLocation"]["uri"]
        for result in doc["runs"][0]["results"]
        for loc in [*result["locations"], *result.get("relatedLocations", [])]
    ]
    assert "jobs/my%20job%20%231%20100%25.sql" in uris and "jobs/b.sql" in uris
    for uri in uris:
        assert validate_rfc3986(uri, rule="URI_reference"), uri


def test_the_uri_reference_check_would_catch_a_raw_name():
    """The parser the test above relies on refuses what SARIF used to carry."""
    assert not validate_rfc3986("jobs/my job.sql", rule="URI_reference")
    checker = jsonschema.Draft7Validator.FORMAT_CHECKER
    assert not checker.conforms("jobs/my job.sql", "uri-reference")


def test_statistics_refuses_the_ci_formats(conflict):
    p, _ = conflict
    proc = cli("check", ".", "--statistics", "--format", "junit", cwd=p)
    assert proc.returncode == 2 and "--statistics" in proc.stderr

"""Output formats that CI systems read: GitLab Code Quality and JUnit XML (JSON Lines is
`report`'s, as it shares the JSON finding objects).

Each is one function over the findings list (already `clean`ed by the caller),
returning the whole text; none decides exit codes or filters findings.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from xml.etree import ElementTree as ET

from delta_lint.baseline import fingerprint
from delta_lint.model import Finding

# GitLab Code Quality severities are info, minor, major, critical, blocker.
_GITLAB_SEVERITY = {"error": "critical", "warning": "major", "info": "info"}


def gitlab(findings: list[Finding]) -> str:
    """GitLab Code Quality report (a JSON array; the `codequality` artifact of a job).
    GitLab tells findings apart by `fingerprint`, so it must be unique in a report and
    stable while code moves: the baseline's line-independent fingerprint, plus how
    many findings before this one share it (two identical writes in one file)."""
    seen: Counter[str] = Counter()
    issues = []
    for f in findings:
        base = fingerprint(f)
        occurrence = seen[base]
        seen[base] += 1
        description = f"{f.rule} {f.message}" + (f" [{f.exception}]" if f.exception else "")
        issues.append(
            {
                "description": description,
                "check_name": f"{f.rule} {f.name}",
                "fingerprint": hashlib.sha256(f"{base}\0{occurrence}".encode()).hexdigest()[:32],
                "severity": _GITLAB_SEVERITY.get(f.severity, "major"),
                "location": {"path": f.location.path, "lines": {"begin": f.location.line}},
            }
        )
    return json.dumps(issues, indent=2) + "\n"


def junit(findings: list[Finding]) -> str:
    """JUnit XML as CI servers read it (Jenkins, GitLab, Azure, CircleCI): one test
    suite per file with findings, one failing test case per finding. A run without
    findings is one passing test case, so that the CI shows a test that passed
    rather than "no tests found". Only the attributes the common JUnit schema
    allows (`name`, `classname`, `time` on a test case): the location is in the
    case's name and the failure's text."""
    by_file: dict[str, list[Finding]] = {}
    for f in findings:
        by_file.setdefault(f.location.path, []).append(f)
    root = ET.Element(
        "testsuites",
        {"name": "delta-lint", "tests": str(max(len(findings), 1)), "failures": str(len(findings)), "errors": "0"},
    )
    if not findings:
        suite = ET.SubElement(
            root, "testsuite", {"name": "delta-lint", "tests": "1", "failures": "0", "errors": "0", "skipped": "0"}
        )
        ET.SubElement(suite, "testcase", {"name": "no predicted write conflicts", "classname": "delta-lint"})
    for path, group in by_file.items():
        suite = ET.SubElement(
            root,
            "testsuite",
            {"name": path, "tests": str(len(group)), "failures": str(len(group)), "errors": "0", "skipped": "0"},
        )
        for f in group:
            case = ET.SubElement(
                suite,
                "testcase",
                {"name": f"{f.rule} {f.name} at {f.location.line}:{f.location.column}", "classname": path},
            )
            failure = ET.SubElement(
                case, "failure", {"message": f.message, "type": f"{f.rule} {f.exception or f.severity}"}
            )
            body = [f"{f.location}: {f.rule} {f.message} [{f.severity}]"]
            body += [f"related: {r}" for r in f.related]
            if f.related_more:
                body.append(f"related: and {f.related_more:,} more")
            if f.sites:
                body.append("written at " + ", ".join(f"{s.path}:{s.line}" for s in f.sites))
            body += [f"{label}: {value}" for label, value in (("overlap", f.overlap), ("fix", f.fix)) if value]
            failure.text = "\n".join(body)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"

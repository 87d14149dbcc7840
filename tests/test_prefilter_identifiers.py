"""The prefilter reads a file as Python reads its identifiers (NFKC, PEP 3131).

A file with any character outside ASCII (an accent or a check mark in a comment,
as notebooks often have) used to switch the prefilter off: every function was then
taken for a helper that may write, read again at each call, and past the cap of
calls each further call of a getter that writes nothing got a DL008 note. The
text is now normalised instead, so a fullwidth spelling of a write is still a write."""

from __future__ import annotations

GETTER = """# Job: résumé ✓
cfg = {"k": 1}

def safe_get(obj, attr, default=None):
    if isinstance(obj, dict):
        return obj.get(attr, default)
    return default

"""


def _rules(result) -> list[str]:
    return sorted(f.rule for f in result.findings)


def test_a_getter_called_often_in_a_non_ascii_file_is_no_helper(lint):
    calls = "".join(f"x{i} = safe_get(cfg, 'k{i}')\n" for i in range(100))
    result = lint({"a.py": GETTER + calls + 'spark.sql("DELETE FROM main.s.t WHERE d < 1")\n'})
    assert "DL008" not in _rules(result)
    assert [i.table.name for i in result.intents] == ["main.s.t"]


def test_a_write_helper_past_the_cap_is_still_said_in_a_non_ascii_file(lint):
    # near miss: a helper that does write keeps the cap's note at its later calls
    helper = GETTER + 'def purge(t):\n    spark.sql(f"DELETE FROM main.s.{t} WHERE d < 1")\n\n'
    calls = "".join(f"purge('t{i}')\n" for i in range(70))
    assert "DL008" in _rules(lint({"a.py": helper + calls}))


def test_a_fullwidth_spelling_of_a_write_is_a_write(lint):
    helper = '# ✓\ndef save(df, t):\n    df.write.mode("overwrite").\uff53\uff41\uff56\uff45\uff21\uff53\uff34\uff41\uff42\uff4c\uff45(t)\n\n'
    result = lint({"b.py": helper + 'save(spark.table("x"), "main.s.t")\n'})
    assert [(i.table.name, i.location.line) for i in result.intents] == [("main.s.t", 5)]

"""`d.update(other)` of a dict another name holds keeps what the update cannot
change: `other` set one way or another on paths that joined is read key by key,
so a key every path leaves alone (or sets alike) stays known, and a key the paths
set differently is one of their values. An update from a value not known at all
still forgets the dict."""

from __future__ import annotations

BASE = (
    'conf = {"schema": "hive_metastore.inter"}\n'
    'c = dbutils.widgets.get("c") == "1"\n'
    'extra = {"auth": "False", "client": ""}\n'
    "if c:\n"
    '    extra["auth"] = "True"\n'
)


def _tables(result) -> list[str]:
    return sorted(i.table.name for i in result.intents)


def test_an_update_from_a_joined_dict_keeps_the_keys_it_leaves_alone(lint):
    code = BASE + "conf.update(extra)\nspark.sql(f\"DELETE FROM {conf['schema']}.t WHERE 1=1\")\n"
    assert _tables(lint({"job.py": code})) == ["hive_metastore.inter.t"]


def test_a_key_the_paths_set_differently_or_an_unknown_update_is_not_known(lint):
    code = BASE + "conf.update(extra)\nspark.sql(f\"DELETE FROM main.s.t_{conf['auth']} WHERE 1=1\")\n"
    assert _tables(lint({"a.py": code})) == ["main.s.t_false", "main.s.t_true"]
    unknown = (
        'conf = {"schema": "hive_metastore.inter"}\n'
        'conf.update(json.loads(dbutils.widgets.get("j")))\n'
        "spark.sql(f\"DELETE FROM {conf['schema']}.t WHERE 1=1\")\n"
    )
    assert "hive_metastore.inter.t" not in _tables(lint({"b.py": unknown}))

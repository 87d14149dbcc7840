"""Values with a part only a run knows: the parts the code gives stay in the write's
table name wherever the value is held (a dict of settings, a function's return),
as they do when the value is bound to a plain name. A value with no known part
stays named by the expression that gives it."""

from __future__ import annotations

NOTEBOOK = "# Databricks notebook source\n"

# the user running the notebook, read from its context: only a run knows it
USER = "user = dbutils.notebook.entry_point.getDbutils().notebook().getContext().userName().get()\n"


def _tables(result, path: str) -> list[tuple[int, str | None]]:
    return sorted(
        (i.location.line, i.table.name if i.table else None) for i in result.intents if path in str(i.location)
    )


def test_a_settings_dict_keeps_the_known_parts_around_a_run_value(lint):
    """`config = {"out": "{}/pred".format(home)}` with `home` built around the
    user: `config["out"]` and a getter over the dict name the path's known parts,
    as a write to `home` itself does."""
    code = (
        USER + "home = '/FileStore/{}/claims'.format(user)\n"
        "config = {'pred': '{}/predictions'.format(home), 'tmp': '/tmp/claims'}\n"
        "def get_param(key):\n"
        "    return config[key]\n"
        "df.write.format('delta').mode('overwrite').save(config['pred'])\n"
        "df.write.format('delta').mode('overwrite').save(get_param('pred'))\n"
        "out = get_param('pred')\n"
        "df.write.format('delta').mode('overwrite').save(out)\n"
        "df.write.format('delta').mode('overwrite').save(home)\n"
    )
    result = lint({"job.py": NOTEBOOK + code}, {"spark": "none"})
    assert _tables(result, "job.py") == [
        (7, "delta:/FileStore/{user}/claims/predictions"),
        (8, "delta:/FileStore/{user}/claims/predictions"),
        (10, "delta:/FileStore/{user}/claims/predictions"),
        (11, "delta:/FileStore/{user}/claims"),
    ]


def test_a_settings_dict_member_with_no_known_part_stays_named_by_its_expression(lint):
    """The near miss: a member that is the run's value alone has no known part to
    keep; a write to it is named by the expression, unresolved, as before."""
    code = (
        USER + "config = {'pred': user, 'tmp': '/tmp/claims'}\n"
        "def get_param(key):\n"
        "    return config[key]\n"
        "df.write.format('delta').mode('overwrite').save(config['pred'])\n"
        "df.write.format('delta').mode('overwrite').save(get_param('pred'))\n"
        "df.write.format('delta').mode('overwrite').save(get_param('tmp'))\n"
    )
    result = lint({"job.py": NOTEBOOK + code}, {"spark": "none"})
    assert _tables(result, "job.py") == [
        (6, "delta:{config_pred}"),
        (7, "delta:{get_param_pred}"),
        (8, "delta:/tmp/claims"),
    ]
    assert {d.rule for d in result.diagnostics if d.location.line in (6, 7)} == {"DL001"}


def test_a_loop_over_a_dicts_values_holds_a_run_value_as_an_item_not_known(lint):
    """A loop over `config.values()` runs once per value: a member with a run's part
    in it is a turn whose item is not known (`{each_t}`, unresolved), never read as if
    that member were literal text."""
    code = (
        USER + "config = {'a': 'main.s.a', 'b': f'main.s.{user}_b'}\n"
        "for t in config.values():\n"
        "    df.write.mode('append').saveAsTable(t)\n"
    )
    result = lint({"job.py": NOTEBOOK + code}, {"spark": "none"})
    assert _tables(result, "job.py") == [(5, "main.s.a"), (5, "{each_t}")]


def test_a_statement_a_helper_builds_around_a_run_value_is_read(lint):
    """`spark.sql(delete_rows("main.s.events"))` where the helper's statement holds
    the user only a run knows: the statement is read with that part a parameter (a
    DELETE on main.s.events; a SELECT, no write), not reported as dynamic SQL. A
    helper that returns the run's value alone is still dynamic SQL."""
    code = (
        USER + "def rows(t):\n"
        "    return f\"SELECT * FROM {t} WHERE owner = '{user}'\"\n"
        "def delete_rows(t):\n"
        "    return f\"DELETE FROM {t} WHERE owner = '{user}'\"\n"
        "def statement(t):\n"
        "    return f'{user}'\n"
        "spark.sql(rows('main.s.events')).show()\n"
        "spark.sql(delete_rows('main.s.events'))\n"
        "spark.sql(statement('main.s.events'))\n"
    )
    result = lint({"job.py": NOTEBOOK + code}, {"spark": "none"})
    assert [(i.location.line, i.table.name, i.kind.value) for i in result.intents] == [(10, "main.s.events", "delete")]
    assert sorted((d.location.line, d.rule) for d in result.diagnostics if d.rule == "DL007") == [(11, "DL007")]

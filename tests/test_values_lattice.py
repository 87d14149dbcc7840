"""The value lattice (`frontend.values.lattice`) and the evaluator's joins at control
flow (`frontend.values.evaluator`): where the code goes one of several ways the
evaluator cannot decide, the value is every way's value, or unknown past
MAX_ALTERNATIVES (never one way picked); near misses stay unknown."""

from __future__ import annotations

import ast

import pytest

from delta_lint.frontend.values.evaluator import Evaluator, Module
from delta_lint.frontend.values.lattice import (
    MAX_ALTERNATIVES,
    UNKNOWN,
    OneOf,
    Template,
    Unknown,
    concat,
    join,
)


def test_join_keeps_one_value_where_the_ways_agree():
    assert join(["a", "a"]) == "a"
    assert join([("a", 1), ("a", 1)]) == ("a", 1)


def test_join_of_different_values_is_one_of_them_all():
    joined = join(["a.x", "b.x", "a.x"])
    assert isinstance(joined, OneOf) and joined.values == ("a.x", "b.x")
    nested = join([joined, "c.x"])  # a join of joins is flat
    assert isinstance(nested, OneOf) and nested.values == ("a.x", "b.x", "c.x")


def test_join_tells_values_apart_by_type():
    joined = join([1, True, 1.0])
    assert isinstance(joined, OneOf) and [type(v) for v in joined.values] == [int, bool, float]
    assert isinstance(join([[1], (1,)]), OneOf)


def test_join_is_unknown_with_an_unknown_way_or_past_the_cap():
    why = Unknown("the environment variable 'ENV'")
    assert join(["a", why]) is why
    many = join([f"t{i}" for i in range(MAX_ALTERNATIVES + 1)])
    assert isinstance(many, Unknown) and str(MAX_ALTERNATIVES) in many.reason
    assert isinstance(join([f"t{i}" for i in range(MAX_ALTERNATIVES)]), OneOf)  # the near miss: at the cap


def test_one_of_never_passes_for_one_of_its_values():
    joined = join(["a", "b"])
    for operation in (lambda: joined == "a", lambda: bool(joined), lambda: hash(joined), lambda: "a" in [joined]):
        with pytest.raises(TypeError):
            operation()


def test_templates_keep_known_text_and_named_inputs():
    template = concat(Template("{env}", ("env",)), ".ops.runs")
    assert (template.text, template.params) == ("{env}.ops.runs", ("env",))
    assert concat("main.", template) == Template("main.{env}.ops.runs", ("env",))
    assert isinstance(join([template, "main.ops.runs"]), OneOf)
    assert UNKNOWN == Unknown("another reason") and UNKNOWN != "a"


# -- joins in the evaluator --------------------------------------------------------

PROD_OR_DEV = "import os\n\ndef table():\n    env = os.getenv('ENV')\n"


def call(source: str, *args: object) -> object:
    return Evaluator(Module.of(ast.parse(source), "src/m.py"), {}).call("f", list(args), {})


def values_of(value: object) -> set | None:
    return set(value.values) if isinstance(value, OneOf) else None


def test_if_else_on_an_unknown_test_binds_both_values():
    source = "import os\n\ndef f():\n    if os.getenv('ENV') == 'prod':\n        t = 'a.x'\n    else:\n        t = 'b.x'\n    return t\n"
    assert values_of(call(source)) == {"a.x", "b.x"}
    # near miss: no `else`, so `t` may be unbound (Python raises): no value
    source = "import os\n\ndef f():\n    if os.getenv('ENV') == 'prod':\n        t = 'a.x'\n    return t\n"
    assert isinstance(call(source), Unknown)
    # near miss: a known test decides, as before
    source = "def f(env):\n    if env == 'prod':\n        t = 'a.x'\n    else:\n        t = 'b.x'\n    return t\n"
    assert call(source, "prod") == "a.x"


def test_a_second_undecided_if_joins_names_already_joined():
    body = (
        "import os\n\ndef f():\n    if os.getenv('A'):\n        db = 'a'\n    else:\n        db = 'b'\n"
        "    if os.getenv('B'):\n        t = db + '.x'\n    else:\n        t = db + '.y'\n        db = 'c'\n"
    )
    assert values_of(call(body + "    return t\n")) == {"a.x", "b.x", "a.y", "b.y"}
    assert values_of(call(body + "    return db\n")) == {"a", "b", "c"}


def test_a_return_on_one_way_joins_the_rest_of_the_function():
    source = (
        "import os\n\ndef f():\n    env = os.getenv('ENV')\n    if env == 'prod':\n        return 'main.sales.t'\n"
        "    name = 'dev'\n    return name + '.sales.t'\n"
    )
    assert values_of(call(source)) == {"main.sales.t", "dev.sales.t"}


def test_operations_on_one_of_several_values_are_done_per_value():
    source = (
        "import os\n\ndef f():\n    env = 'prod' if os.getenv('ENV') else 'dev'\n"
        "    return f'{env}_catalog.sales.' + env.upper()\n"
    )
    # each name's alternatives combine with the other's: the ways are not kept apart
    # (as astroid's inference), so two of these four are not a way the code goes
    assert values_of(call(source)) == {
        "prod_catalog.sales.PROD",
        "dev_catalog.sales.DEV",
        "prod_catalog.sales.DEV",
        "dev_catalog.sales.PROD",
    }
    source = "import os\n\ndef f():\n    env = 'prod' if os.getenv('ENV') else 'dev'\n    return env + '.t'\n"
    assert values_of(call(source)) == {"prod.t", "dev.t"}


def test_or_and_and_join_the_operands_that_may_decide():
    source = "import os\n\ndef f():\n    db = 'x' if os.getenv('A') else ''\n    return db or 'default'\n"
    assert values_of(call(source)) == {"x", "default"}
    source = "import os\n\ndef f():\n    db = os.getenv('A')\n    return db or 'default'\n"
    assert isinstance(call(source), Unknown)  # near miss: the operand itself is not known


def test_a_raise_on_one_way_makes_the_value_unknown():
    source = (
        "import os\n\ndef f():\n    if os.getenv('ENV') == 'prod':\n        raise ValueError('no')\n    return 'a'\n"
    )
    assert isinstance(call(source), Unknown)


def test_more_ways_than_the_cap_are_unknown():
    chain = "".join(f"    t = t + ('{i}' if os.getenv('V{i}') else '-')\n" for i in range(4))
    source = "import os\n\ndef f():\n    t = ''\n" + chain + "    return t\n"
    assert isinstance(call(source), Unknown)  # 16 values
    short = "".join(f"    t = t + ('{i}' if os.getenv('V{i}') else '-')\n" for i in range(3))
    assert len(values_of(call("import os\n\ndef f():\n    t = ''\n" + short + "    return t\n"))) == 8


def test_lists_built_on_each_way_are_not_joined():
    source = (
        "import os\n\ndef f():\n    if os.getenv('A'):\n        xs = ['a']\n    else:\n        xs = ['b']\n"
        "    ys = xs\n    ys.append('c')\n    return xs\n"
    )
    assert isinstance(call(source), Unknown)
    source = "import os\n\ndef f():\n    xs = ['a']\n    if os.getenv('A'):\n        n = 1\n    else:\n        n = 2\n    return xs\n"
    assert call(source) == ["a"]  # near miss: the same list on both ways stays known


# -- through the analyzer ----------------------------------------------------------


def test_a_value_function_that_goes_two_ways_writes_each_table(tmp_path):
    from delta_lint.model import Flag
    from tests.test_link import linked

    lib = (
        "import os\n\ndef table_name():\n    if os.getenv('ENV') == 'prod':\n        t = 'main.sales.orders'\n"
        "    else:\n        t = 'dev.sales.orders'\n    return t\n"
    )
    job = "from lib import table_name\nt = table_name()\ndf.write.mode('append').saveAsTable(t)\n"
    results = {r.path: r for r in linked(tmp_path, {"lib.py": lib, "job.py": job})}
    got = sorted((i.table.name, Flag.ONE_OF in i.flags) for i in results["job.py"].intents)
    assert got == [("dev.sales.orders", True), ("main.sales.orders", True)]


def test_a_value_function_that_may_give_none_names_no_table(tmp_path):
    from tests.test_link import linked

    lib = "import os\n\ndef table_name():\n    if os.getenv('ENV') == 'prod':\n        return 'main.sales.orders'\n"
    job = "from lib import table_name\ndf.write.mode('append').saveAsTable(table_name())\n"
    results = {r.path: r for r in linked(tmp_path, {"lib.py": lib, "job.py": job})}
    names = [i.table.name for i in results["job.py"].intents if i.table]
    assert "main.sales.orders" not in names and "None" not in names


def test_a_loop_that_may_not_run_joins_before_and_after_its_body():
    source = "def f(xs):\n    t = 'a.x'\n    for x in xs:\n        t = 'b.x'\n    return t\n"
    assert values_of(call(source, UNKNOWN)) == {"a.x", "b.x"}
    assert call(source, ["y"]) == "b.x"  # a known list is read turn by turn, as before
    source = "def f(xs):\n    found = False\n    for x in xs:\n        if x == 'p':\n            found = True\n    return found\n"
    assert values_of(call(source, UNKNOWN)) == {False, True}


def test_a_name_a_loop_changes_on_every_turn_is_unknown():
    source = "def f(xs):\n    n = 0\n    for x in xs:\n        n = n + 1\n    return n\n"
    assert isinstance(call(source, UNKNOWN), Unknown)
    source = "def f(xs):\n    name = 'main'\n    for x in xs:\n        name = name + '.' + x\n    return name\n"
    assert isinstance(call(source, UNKNOWN), Unknown)
    source = "def f(xs):\n    for x in xs:\n        return x\n    return 'none'\n"
    assert isinstance(call(source, UNKNOWN), Unknown)  # the item itself is not known


def test_a_try_that_catches_every_error_joins_the_body_and_the_handler():
    source = (
        "def f(d):\n    try:\n        t = d['table'] + lookup()\n    except Exception:\n        t = 'main.default.t'\n"
        "    return t\n"
    )
    # `lookup()` is not followed: it may raise, so the handler's value is one of them
    assert isinstance(call(source, {"table": "a"}), Unknown)  # the body's own value is not known
    source = "def f():\n    try:\n        t = 'a.t'\n        check(t)\n    except Exception:\n        t = 'b.t'\n    return t\n"
    assert values_of(call(source)) == {"a.t", "b.t"}
    source = "def f(env):\n    try:\n        t = env + int_of(env)\n    except:\n        t = 'dev'\n    return env\n"
    assert call(source, "prod") == "prod"  # a name the body does not bind keeps its value
    source = (
        "import os\n\ndef f():\n    try:\n        t = 'main.' + os.environ['ENV']\n    except Exception:\n"
        "        t = 'dev.t'\n    else:\n        t = t + '.t'\n    return t\n"
    )
    assert isinstance(call(source), Unknown)
    source = "def f(d):\n    try:\n        t = d['table']\n    except Exception:\n        t = 'main.default.t'\n    return t\n"
    assert call(source, {"table": "a.b.c"}) == "a.b.c"  # every part known: the body surely ends
    assert isinstance(call(source, {}), Unknown)  # it surely raises: not followed (as before)


def test_a_try_whose_body_binds_a_value_not_known_stays_unknown():
    source = "def f(d):\n    try:\n        t = g()\n    except KeyError:\n        t = 'x'\n    return t\n"
    assert isinstance(call(source, {}), Unknown)
    source = "def f(d):\n    try:\n        t = g()\n    except Exception:\n        t = 'x'\n    return 'y'\n"
    assert call(source, {}) == "y"


def test_a_value_function_reading_a_widget_names_its_input(tmp_path):
    from delta_lint.model import Flag
    from tests.test_link import linked

    def written(lib: str) -> list:
        job = "from lib import table\nt = table()\ndf.write.mode('append').saveAsTable(t)\n"
        results = {r.path: r for r in linked(tmp_path / str(len(lib)), {"lib.py": lib, "job.py": job})}
        return sorted((i.table.name, i.params, Flag.ONE_OF in i.flags) for i in results["job.py"].intents)

    assert written('def table():\n    return dbutils.widgets.get("env") + ".sales.t"\n') == [
        ("{env}.sales.t", ("env",), False)
    ]
    fallback = 'def table():\n    env = dbutils.widgets.get("env")\n    if not env:\n        env = "dev"\n    return f"{env}.sales.t"\n'
    assert written(fallback) == [("dev.sales.t", (), True), ("{env}.sales.t", ("env",), True)]
    # near misses: a secret is never known, nor a widget whose name is not
    for unknown in ('dbutils.secrets.get("s", "k")', "dbutils.widgets.get(NAMES[0])"):
        [(name, params, one_of)] = written(f"def table():\n    return {unknown} + '.sales.t'\n")
        assert name.startswith("{") and params and "env" not in params and not one_of


def test_one_of_several_values_given_to_a_value_function_gives_each_result(tmp_path):
    from delta_lint.model import Flag
    from tests.test_link import linked

    lib = "def table(env):\n    return {'prod': 'main', 'dev': 'dev_cat'}[env] + '.sales.t'\n"
    job = (
        "import os\nfrom lib import table\nenv = 'prod' if os.getenv('PROD') else 'dev'\n"
        "t = table(env)\ndf.write.mode('append').saveAsTable(t)\n"
    )
    results = {r.path: r for r in linked(tmp_path / "a", {"lib.py": lib, "job.py": job})}
    got = sorted((i.table.name, Flag.ONE_OF in i.flags) for i in results["job.py"].intents)
    assert got == [("dev_cat.sales.t", True), ("main.sales.t", True)]
    # near miss: a value the mapping lacks on one way raises there: no table is told
    job = job.replace("'dev'\n", "'test'\n")
    results = {r.path: r for r in linked(tmp_path / "b", {"lib.py": lib, "job.py": job})}
    assert [i.table.name for i in results["job.py"].intents if "main.sales.t" == i.table.name] == []


def test_a_value_function_called_in_the_write_itself_writes_each_table(tmp_path):
    from delta_lint.model import Flag
    from tests.test_link import linked

    lib = (
        "import os\n\ndef table_name():\n    if os.getenv('ENV') == 'prod':\n        return 'main.sales.orders'\n"
        "    return 'dev.sales.orders'\n"
    )
    for job in (
        "from lib import table_name\ndf.write.mode('append').saveAsTable(table_name())\n",
        "from lib import table_name\nspark.sql(f'DELETE FROM {table_name()} WHERE d = 1')\n",
    ):
        results = {r.path: r for r in linked(tmp_path / str(len(job)), {"lib.py": lib, "job.py": job})}
        got = sorted((i.table.name, Flag.ONE_OF in i.flags) for i in results["job.py"].intents)
        assert got == [("dev.sales.orders", True), ("main.sales.orders", True)], job
    # near miss: a function that gives one known table is one intent, unflagged
    job = "from lib import table_name\ndf.write.mode('append').saveAsTable(table_name())\n"
    one = "def table_name():\n    return 'main.sales.orders'\n"
    results = {r.path: r for r in linked(tmp_path / "one", {"lib.py": one, "job.py": job})}
    assert [(i.table.name, Flag.ONE_OF in i.flags) for i in results["job.py"].intents] == [("main.sales.orders", False)]


# -- comprehensions ------------------------------------------------------------------


def test_a_comprehension_over_a_known_sequence_gives_its_items():
    source = "def f(xs):\n    return [x.upper() for x in xs if x]\n"
    assert call(source, ["a", "", "b"]) == ["A", "B"]
    source = "def f(xs):\n    return {x: x + '_t' for x in xs}\n"
    assert call(source, ["a", "b"]) == {"a": "a_t", "b": "b_t"}
    source = "def f(xs):\n    return [a + b for a in xs for b in ['1', '2'] if b != a]\n"
    assert call(source, ["a", "1"]) == ["a1", "a2", "12"]
    source = "def f(cols):\n    return ', '.join(f'{c} STRING' for c in cols)\n"
    assert call(source, ["id", "name"]) == "id STRING, name STRING"
    # its loop name stays its own: the function's `x` keeps its value
    assert call("def f(xs):\n    x = 'k'\n    ys = [x for x in xs]\n    return x + ys[0]\n", ["a"]) == "ka"


def test_a_comprehension_the_evaluator_cannot_follow_is_unknown():
    source = "def f(xs):\n    return [x.upper() for x in xs]\n"
    assert isinstance(call(source, UNKNOWN), Unknown)  # items not known one by one
    source = "import os\n\ndef f(xs):\n    return [x for x in xs if os.getenv('A')]\n"
    assert isinstance(call(source, ["a"]), Unknown)  # a condition not known
    source = "def f(xs):\n    return [(y := x) for x in xs]\n"
    assert isinstance(call(source, ["a"]), Unknown)  # binds the function's `y` on some turns
    source = "def f(xs):\n    return len(x for x in xs)\n"
    assert isinstance(call(source, ["a"]), Unknown)  # a generator only `join` consumes is read
    assert isinstance(call("def f(xs):\n    return [x for x in xs]\n", 5), Unknown)  # Python raises


def test_a_value_function_building_a_name_in_a_comprehension_writes_it(tmp_path):
    from tests.test_link import linked

    lib = "def table_name(env):\n    return '.'.join(p.lower() for p in [env, 'Sales', 'Orders'])\n"
    job = "from lib import table_name\ndf.write.mode('append').saveAsTable(table_name('MAIN'))\n"
    results = {r.path: r for r in linked(tmp_path, {"lib.py": lib, "job.py": job})}
    assert [i.table.name for i in results["job.py"].intents] == ["main.sales.orders"]
    # near miss: a part a run gives, whose lower case is not known: no name is made up
    job = "from lib import table_name\ndf.write.saveAsTable(table_name(dbutils.widgets.get('env')))\n"
    results = {r.path: r for r in linked(tmp_path, {"lib.py": lib, "job.py": job})}
    assert [i.table.name for i in results["job.py"].intents if i.table.name.endswith(".sales.orders")] == []


# -- while -------------------------------------------------------------------------


def test_a_while_with_a_known_test_is_read_turn_by_turn():
    source = (
        "def f(levels):\n    n = 0\n    name = 'main'\n    while n < levels:\n"
        "        name = name + '.x'\n        n = n + 1\n    return name\n"
    )
    assert call(source, 2) == "main.x.x"
    assert call(source, 0) == "main"  # no turn
    assert call("def f():\n    while True:\n        return 'a.x'\n") == "a.x"


def test_a_while_whose_test_is_not_known_joins_before_and_after_its_body():
    source = "import os\n\ndef f():\n    t = 'a.x'\n    while os.getenv('A'):\n        t = 'b.x'\n    return t\n"
    assert values_of(call(source)) == {"a.x", "b.x"}
    # near misses: a name changed on every turn, a loop that never ends, a `break`
    source = "def f(n):\n    t = 'a'\n    while n > 0:\n        t = t + 'y'\n        n = n - 1\n    return t\n"
    assert isinstance(call(source, UNKNOWN), Unknown)
    assert isinstance(call("def f():\n    t = 'x'\n    while True:\n        t = 'y'\n    return t\n"), Unknown)
    source = "import os\n\ndef f():\n    t = 'a.x'\n    while os.getenv('A'):\n        t = 'b.x'\n        break\n    return t\n"
    assert isinstance(call(source), Unknown)


def test_a_value_function_with_a_while_writes_each_table_it_may_name(tmp_path):
    from delta_lint.model import Flag
    from tests.test_link import linked

    lib = (
        "import os\n\ndef table_name():\n    t = 'main.sales.orders'\n    while os.getenv('RETRY'):\n"
        "        t = 'main.sales.orders_retry'\n    return t\n"
    )
    job = "from lib import table_name\ndf.write.mode('append').saveAsTable(table_name())\n"
    results = {r.path: r for r in linked(tmp_path, {"lib.py": lib, "job.py": job})}
    got = sorted((i.table.name, Flag.ONE_OF in i.flags) for i in results["job.py"].intents)
    assert got == [("main.sales.orders", True), ("main.sales.orders_retry", True)]


# -- try of some errors, try with finally --------------------------------------------


def test_a_try_of_some_errors_joins_its_body_and_handlers():
    source = (
        "import os\n\ndef f():\n    try:\n        os.makedirs('/dbfs/x')\n        t = 'a.x'\n"
        "    except OSError:\n        t = 'b.x'\n    return t\n"
    )
    assert values_of(call(source)) == {"a.x", "b.x"}
    source = "def f(d):\n    try:\n        t = d['table']\n    except KeyError:\n        t = 'main.default.t'\n    return t\n"
    assert call(source, {"table": "a.b.c"}) == "a.b.c"  # a body known to end: no handler runs
    # near miss: a body that surely raises an error the handler may not catch: no value
    source = "def f(d):\n    try:\n        t = d['table']\n    except ValueError:\n        t = 'x'\n    return 'ok'\n"
    assert isinstance(call(source, {}), Unknown)


def test_a_finally_runs_after_the_try():
    source = "def f():\n    t = 'a'\n    try:\n        t = 'b'\n    finally:\n        t = t + '.x'\n    return t\n"
    assert call(source) == "b.x"
    # near misses: a `finally` that raises after a return, one that returns instead
    assert isinstance(call("def f():\n    try:\n        return 'a'\n    finally:\n        raise ValueError\n"), Unknown)
    assert isinstance(call("def f():\n    try:\n        return 'a'\n    finally:\n        return 'b'\n"), Unknown)


# -- match -------------------------------------------------------------------------


MATCH = (
    "def f(env):\n    match env:\n        case 'prod' | 'production':\n            t = 'main.sales.t'\n"
    "        case {'catalog': catalog}:\n            t = catalog + '.sales.t'\n"
    "        case [catalog, *_]:\n            t = catalog + '.sales.t'\n        case _:\n            t = 'dev.sales.t'\n"
    "    return t\n"
)


def test_a_match_on_a_known_subject_takes_the_case_python_takes():
    assert call(MATCH, "production") == "main.sales.t"
    assert call(MATCH, {"catalog": "qa"}) == "qa.sales.t"
    assert call(MATCH, ["stg", "x"]) == "stg.sales.t"
    assert call(MATCH, "test") == "dev.sales.t"
    source = (
        "def f(s):\n    t = 'a'\n    match s:\n        case [x] if x == 'b':\n            t = 'b'\n    return t + x\n"
    )
    assert call(source, ["c"]) == "ac"  # a failed guard leaves the capture bound, as in Python


def test_a_match_on_a_subject_not_known_joins_its_cases():
    assert values_of(call(MATCH, UNKNOWN)) is None and isinstance(call(MATCH, UNKNOWN), Unknown)  # a capture
    source = (
        "import os\n\ndef f():\n    match os.getenv('ENV'):\n        case 'prod':\n            t = 'main.x'\n"
        "        case _:\n            t = 'dev.x'\n    return t\n"
    )
    assert values_of(call(source)) == {"main.x", "dev.x"}
    # near misses: no case surely matches, so `t` may be unbound; a class pattern is not told
    assert isinstance(call(source.replace("case _:", "case 'qa':")), Unknown)
    source = "def f(s):\n    t = 'a'\n    match s:\n        case str():\n            t = 'b'\n    return t\n"
    assert values_of(call(source, "x")) == {"a", "b"}


def test_a_literal_list_given_to_a_value_function_is_built_by_the_evaluator():
    from delta_lint.frontend import analyze_source

    lib = "S = 'Sales'\n\ndef table_name(parts):\n    return '.'.join([p.lower() for p in parts])\n\n"

    def written(call: str, before: str = "") -> list[str]:
        code = lib + before + f"t = {call}\ndf.write.mode('append').saveAsTable(t)\n"
        return [i.table.name for i in analyze_source("job.py", ".py", code).intents]

    assert written("table_name(['MAIN', S, 'Orders'])") == ["main.sales.orders"]
    # near misses: a part a run gives; a list the code changes in place
    assert written("table_name(['MAIN', dbutils.widgets.get('s'), 'Orders'])") == ["{t}"]
    assert written("table_name([L[0], 'Sales', 'Orders'])", "L = ['X']\nL[0] = 'MAIN'\n") == ["{t}"]


def test_a_function_returning_on_one_way_names_no_table_of_its_last_return(tmp_path):
    from tests.test_link import linked

    lib = (
        "import os\n\ndef settings():\n    if os.getenv('ENV') == 'prod':\n        return {'table': 'main.sales.orders'}\n"
        "    return {'table': 'dev.sales.orders'}\n"
    )
    job = "from lib import settings\ncfg = settings()\ndf.write.mode('append').saveAsTable(cfg['table'])\n"
    results = {r.path: r for r in linked(tmp_path, {"lib.py": lib, "job.py": job})}
    assert "dev.sales.orders" not in [i.table.name for i in results["job.py"].intents]
    # near miss: an `if` with no `return` before the one return: still followed
    lib = (
        "import os\n\ndef settings():\n    schema = 'sales'\n    if os.getenv('ENV') == 'prod':\n        print('prod')\n"
        "    return {'table': 'dev.' + schema + '.orders'}\n"
    )
    results = {r.path: r for r in linked(tmp_path, {"lib.py": lib, "job.py": job})}
    assert [i.table.name for i in results["job.py"].intents] == ["dev.sales.orders"]

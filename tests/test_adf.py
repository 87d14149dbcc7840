"""Jobs defined as Azure Data Factory pipelines in the factory's git layout
(`pipeline/*.json`, `trigger/*.json`) or in its published ARM template, as Azure
teams that run Databricks notebooks from Data Factory write them."""

from __future__ import annotations

import json

from tests.test_link import NB, _conflicts

OVERWRITE = NB + 'spark.range(3).write.mode("overwrite").saveAsTable("main.sales.daily")\n'
MERGE = NB + (
    "from delta.tables import DeltaTable\n"
    'd = dbutils.widgets.get("p_date")\n'
    'src = spark.read.json(f"/mnt/raw/{d}/results.json")\n'
    'DeltaTable.forPath(spark, "/mnt/processed/results").alias("t")'
    '.merge(src.alias("s"), "t.id = s.id").whenMatchedUpdateAll().execute()\n'
)


def _notebook(name: str, path: str, after: tuple[str, ...] = (), params: dict | None = None) -> dict:
    activity: dict = {
        "name": name,
        "type": "DatabricksNotebook",
        "dependsOn": [{"activity": a, "dependencyConditions": ["Succeeded"]} for a in after],
        "typeProperties": {"notebookPath": path},
        "linkedServiceName": {"referenceName": "ls_databricks", "type": "LinkedServiceReference"},
    }
    if params is not None:
        activity["typeProperties"]["baseParameters"] = params
    return activity


def _pipeline(name: str, activities: list, **props) -> str:
    return json.dumps({"name": name, "properties": {"activities": activities, **props}}, indent=2)


def _trigger(name: str, pipeline: str, hour: int = 2, state: str = "Started", **recurrence) -> str:
    rec = {"frequency": "Day", "interval": 1, "startTime": f"2024-01-01T{hour:02d}:00:00Z", "timeZone": "UTC"}
    return json.dumps(
        {
            "name": name,
            "properties": {
                "type": "ScheduleTrigger",
                "runtimeState": state,
                "pipelines": [{"pipelineReference": {"referenceName": pipeline, "type": "PipelineReference"}}],
                "typeProperties": {"recurrence": {**rec, **recurrence}},
            },
        },
        indent=2,
    )


TWO_LOADS = {"nb/load_a.py": OVERWRITE, "nb/load_b.py": OVERWRITE}


def test_parallel_notebook_activities_of_a_triggered_pipeline_conflict_by_its_schedule(lint):
    before = lint(TWO_LOADS)
    assert [f.overlap_basis for f in before.findings if f.rule == "DL102"] == ["assumed"]
    pipeline = _pipeline(
        "pl_load",
        [_notebook("Load A", "/Repos/team/proj/nb/load_a"), _notebook("Load B", "/Repos/team/proj/nb/load_b")],
        concurrency=1,
    )
    result = lint({**TWO_LOADS, "pipeline/pl_load.json": pipeline, "trigger/tr_daily.json": _trigger("t", "pl_load")})
    found = [f for f in result.findings if f.rule == "DL102"]
    assert [(f.severity, f.overlap_basis) for f in found] == [("error", "schedule")]
    assert "`Load A` and `Load B` of job `pl_load` have no dependency" in found[0].overlap


def test_a_pipeline_without_concurrency_overlaps_its_own_runs(lint):
    pipeline = _pipeline(
        "pl_ingest",
        [
            _notebook(
                "Ingest",
                "/Users/someone@example.com/proj/nb/ingest",
                params={"p_date": {"value": "@pipeline().parameters.p_date", "type": "Expression"}},
            )
        ],
        parameters={"p_date": {"type": "string"}},
    )
    assert _conflicts(lint({"nb/ingest.py": MERGE})) == []  # no schedule: a file never meets itself
    result = lint({"nb/ingest.py": MERGE, "pipeline/pl_ingest.json": pipeline})
    found = [f for f in result.findings if f.rule == "DL102"]
    assert [(f.severity, f.overlap_basis) for f in found] == [("error", "schedule")]
    assert "job `pl_ingest` allows" in found[0].overlap
    assert any("pipeline `pl_ingest` sets no `concurrency`" in n for n in result.notes)


def test_a_pipeline_of_one_run_at_a_time_with_ordered_activities_stays_clean(lint):
    pipeline = _pipeline(
        "pl_load",
        [
            _notebook("Load A", "/Workspace/Shared/proj/nb/load_a"),
            _notebook("Load B", "/Workspace/Shared/proj/nb/load_b", after=("Load A",)),
        ],
        concurrency=1,
    )
    result = lint({**TWO_LOADS, "pipeline/pl_load.json": pipeline, "trigger/tr.json": _trigger("t", "pl_load")})
    assert _conflicts(result) == []
    ingest = _pipeline("pl_ingest", [_notebook("Ingest", "/Repos/team/proj/nb/ingest")], concurrency=1)
    assert _conflicts(lint({"nb/ingest.py": MERGE, "pipeline/pl_ingest.json": ingest})) == []


def test_literal_base_parameters_are_the_notebooks_widget_values(lint):
    writer = (
        NB + 't = dbutils.widgets.get("table")\nspark.range(1).write.mode("overwrite").saveAsTable(f"main.s.{t}")\n'
    )

    def pipeline(first: str, second: str) -> str:
        return _pipeline(
            "pl",
            [
                _notebook("A", "/Repos/u/r/nb/write", params={"table": first}),
                _notebook("B", "/Repos/u/r/nb/write", params={"table": second}),
            ],
            concurrency=1,
        )

    assert _conflicts(lint({"nb/write.py": writer, "pipeline/pl.json": pipeline("x", "y")})) == []
    assert _conflicts(lint({"nb/write.py": writer, "pipeline/pl.json": pipeline("x", "x")})) == ["DL102"]


def test_a_foreach_runs_its_iterations_at_once_unless_sequential(lint):
    def pipeline(sequential: bool) -> str:
        loop = {
            "name": "Each file",
            "type": "ForEach",
            "dependsOn": [],
            "typeProperties": {
                "items": {"value": "@pipeline().parameters.dates", "type": "Expression"},
                "isSequential": sequential,
                "batchCount": 4,
                "activities": [
                    _notebook(
                        "Ingest", "/Repos/u/r/nb/ingest", params={"p_date": {"value": "@item()", "type": "Expression"}}
                    )
                ],
            },
        }
        return _pipeline("pl_loop", [loop], concurrency=1)

    parallel = lint({"nb/ingest.py": MERGE, "pipeline/pl_loop.json": pipeline(False)})
    found = [f for f in parallel.findings if f.rule == "DL102"]
    assert len(found) == 1 and "4 concurrent runs of for_each task `Each file/Ingest`" in found[0].overlap
    assert _conflicts(lint({"nb/ingest.py": MERGE, "pipeline/pl_loop.json": pipeline(True)})) == []


def test_the_branches_of_a_condition_are_never_paired_within_a_run(lint):
    branch = {
        "name": "Full or not",
        "type": "IfCondition",
        "dependsOn": [],
        "typeProperties": {
            "expression": {"value": "@pipeline().parameters.full", "type": "Expression"},
            "ifTrueActivities": [_notebook("Full", "/Repos/u/r/nb/load_a")],
            "ifFalseActivities": [_notebook("Part", "/Repos/u/r/nb/load_b")],
        },
    }
    switch = {
        "name": "By kind",
        "type": "Switch",
        "dependsOn": [],
        "typeProperties": {
            "on": {"value": "@pipeline().parameters.kind", "type": "Expression"},
            "cases": [{"value": "a", "activities": [_notebook("Case A", "/Repos/u/r/nb/load_a")]}],
            "defaultActivities": [_notebook("Other", "/Repos/u/r/nb/load_b")],
        },
    }
    for container in (branch, switch):
        result = lint({**TWO_LOADS, "pipeline/pl.json": _pipeline("pl", [container], concurrency=1)})
        assert _conflicts(result) == [], container["type"]
    # beside another writer outside the container, the branch still meets it
    beside = _pipeline("pl", [branch, _notebook("Also", "/Repos/u/r/nb/load_a")], concurrency=1)
    assert "DL102" in _conflicts(lint({**TWO_LOADS, "pipeline/pl.json": beside}))


def test_an_executed_pipeline_runs_inside_its_parent_and_waits_only_when_told(lint):
    def parent(wait: bool | None) -> str:
        execute: dict = {
            "name": "Run child",
            "type": "ExecutePipeline",
            "dependsOn": [],
            "typeProperties": {"pipeline": {"referenceName": "pl_child", "type": "PipelineReference"}},
        }
        if wait is not None:
            execute["typeProperties"]["waitOnCompletion"] = wait
        return _pipeline(
            "pl_parent", [execute, _notebook("After", "/Repos/u/r/nb/load_b", after=("Run child",))], concurrency=1
        )

    child = _pipeline("pl_child", [_notebook("Child", "/Repos/u/r/nb/load_a")], concurrency=1)
    files = {**TWO_LOADS, "pipeline/pl_child.json": child, "trigger/t.json": _trigger("t", "pl_parent")}
    assert _conflicts(lint({**files, "pipeline/pl_parent.json": parent(True)})) == []
    # Data Factory's default: the activity ends when the child starts, so the next one runs beside it
    assert _conflicts(lint({**files, "pipeline/pl_parent.json": parent(None)})) == ["DL102"]


def test_schedule_triggers_are_compared_as_cron_schedules(lint):
    one = _pipeline("pl_a", [_notebook("A", "/Repos/u/r/nb/load_a")], concurrency=1)
    two = _pipeline("pl_b", [_notebook("B", "/Repos/u/r/nb/load_b")], concurrency=1)
    files = {**TWO_LOADS, "pipeline/pl_a.json": one, "pipeline/pl_b.json": two}
    apart = lint({**files, "trigger/ta.json": _trigger("ta", "pl_a", 2), "trigger/tb.json": _trigger("tb", "pl_b", 14)})
    assert _conflicts(apart) == []
    meet = lint({**files, "trigger/ta.json": _trigger("ta", "pl_a", 2), "trigger/tb.json": _trigger("tb", "pl_b", 2)})
    assert [(f.severity, f.overlap_basis) for f in meet.findings if f.rule == "DL102"] == [("error", "schedule")]
    # a stopped trigger starts nothing: the pipeline runs when someone starts it (assumed overlap)
    stopped = lint(
        {
            **files,
            "trigger/ta.json": _trigger("ta", "pl_a", 2),
            "trigger/tb.json": _trigger("tb", "pl_b", 14, "Stopped"),
        }
    )
    assert [f.overlap_basis for f in stopped.findings if f.rule == "DL102"] == ["assumed"]
    # a recurrence no cron expresses (every 2 days) is said to be unknown, not guessed
    odd = lint(
        {
            **files,
            "trigger/ta.json": _trigger("ta", "pl_a", 2, interval=2),
            "trigger/tb.json": _trigger("tb", "pl_b", 14),
        }
    )
    assert [f.overlap_basis for f in odd.findings if f.rule == "DL102"] == ["assumed"]


def test_an_arm_template_of_the_factory_is_read_like_its_git_folder(lint):
    def resource(kind: str, name: str, props: dict) -> dict:
        return {
            "name": f"[concat(parameters('factoryName'), '/{name}')]",
            "type": f"Microsoft.DataFactory/factories/{kind}",
            "apiVersion": "2018-06-01",
            "properties": props,
        }

    pipeline = json.loads(
        _pipeline("x", [_notebook("Load A", "/Repos/t/p/nb/load_a"), _notebook("Load B", "/Repos/t/p/nb/load_b")])
    )
    trigger = json.loads(_trigger("t", "pl_load"))
    template = {
        "$schema": "http://schema.management.azure.com/schemas/2015-01-01/deploymentTemplate.json#",
        "parameters": {"factoryName": {"type": "string"}},
        "resources": [
            resource("pipelines", "pl_load", {**pipeline["properties"], "concurrency": 1}),
            resource("triggers", "tr_daily", trigger["properties"]),
        ],
    }
    result = lint({**TWO_LOADS, "factory/ARMTemplateForFactory.json": json.dumps(template, indent=2)})
    found = [f for f in result.findings if f.rule == "DL102"]
    assert [(f.severity, f.overlap_basis) for f in found] == [("error", "schedule")]
    assert "of job `pl_load`" in found[0].overlap


def test_a_broken_pipeline_file_is_a_diagnostic_and_other_json_is_left_alone(lint):
    broken = '{\n  "name": "pl",\n  "properties": {\n    "activities": [\n      {"name": "A",,}\n    ]\n  }\n}\n'
    result = lint({**TWO_LOADS, "pipeline/pl.json": broken})
    problems = [f for f in result.findings if f.rule == "DL003"]
    assert [(f.location.path, f.location.line) for f in problems] == [("pipeline/pl.json", 5)]
    assert "invalid JSON" in problems[0].message and "Traceback" not in problems[0].message
    wrong = json.dumps({"name": "pl", "properties": {"activities": {"A": 1}}}, indent=2)
    shaped = [f for f in lint({**TWO_LOADS, "pipeline/pl.json": wrong}).findings if f.rule == "DL003"]
    assert len(shaped) == 1 and "must be a list" in shaped[0].message
    # a JSON file of another tool that says "activities" and does not parse is none of the factory's
    other = lint({**TWO_LOADS, "pipeline/pl.json": _pipeline("pl", []), "config/app.json": '{"activities": [1,,]}'})
    assert [f for f in other.findings if f.rule == "DL003"] == []


def test_a_databricks_job_activity_runs_the_job_another_reader_defines(lint):
    export = json.dumps(
        {
            "job_id": 123,
            "settings": {
                "name": "nightly",
                "tasks": [{"task_key": "load", "notebook_task": {"notebook_path": "/Repos/u/r/nb/load_a"}}],
            },
        }
    )

    def pipeline(job_id: str, ordered: bool) -> str:
        run = {"name": "Run job", "type": "DatabricksJob", "dependsOn": [], "typeProperties": {"jobId": job_id}}
        after = ("Run job",) if ordered else ()
        return _pipeline("pl", [run, _notebook("Load B", "/Repos/u/r/nb/load_b", after=after)], concurrency=1)

    files = {**TWO_LOADS, "jobs/nightly.json": export, "trigger/t.json": _trigger("t", "pl")}
    beside = lint({**files, "pipeline/pl.json": pipeline("123", ordered=False)})
    found = [f for f in beside.findings if f.rule == "DL102"]
    assert len(found) == 1 and "job `nightly` runs in task `Run job`" in found[0].overlap
    assert _conflicts(lint({**files, "pipeline/pl.json": pipeline("123", ordered=True)})) == []
    unknown = lint({**files, "pipeline/pl.json": pipeline("999", ordered=True)})
    assert any(f.rule == "DL006" and "starts job `999`" in f.message for f in unknown.findings)


def test_spark_python_activities_and_event_triggers(lint):
    script = 'import sys\nspark.range(1).write.mode("overwrite").saveAsTable(f"main.sales.{sys.argv[1]}")\n'
    run = {
        "name": "Script",
        "type": "DatabricksSparkPython",
        "dependsOn": [],
        "typeProperties": {"pythonFile": "dbfs:/FileStore/jobs/write.py", "parameters": ["daily"]},
    }
    pipeline = _pipeline("pl_py", [run], concurrency=1)
    other = _pipeline("pl_nb", [_notebook("Load", "/Repos/u/r/nb/load_a")], concurrency=1)
    event = json.dumps(
        {
            "name": "on_file",
            "properties": {
                "type": "BlobEventsTrigger",
                "runtimeState": "Started",
                "pipelines": [{"pipelineReference": {"referenceName": "pl_py", "type": "PipelineReference"}}],
                "typeProperties": {"events": ["Microsoft.Storage.BlobCreated"]},
            },
        }
    )
    files = {"jobs/write.py": script, "nb/load_a.py": OVERWRITE, "pipeline/pl_py.json": pipeline}
    files |= {"pipeline/pl_nb.json": other, "trigger/on_file.json": event, "trigger/daily.json": _trigger("d", "pl_nb")}
    found = [f for f in lint(files).findings if f.rule == "DL102"]
    # the event trigger starts pl_py at any time: it meets the daily pipeline by its definition
    assert [(f.severity, f.overlap_basis) for f in found] == [("error", "schedule")]
    assert "an event trigger `on_file`" in found[0].overlap
    assert _conflicts(lint({**files, "jobs/write.py": script.replace("main.sales.", "main.other.")})) == []


def test_a_notebook_path_given_by_an_expression_is_unknown_not_guessed(lint):
    dynamic = _notebook("Load", "/Repos/u/r/nb/load_a")
    dynamic["typeProperties"]["notebookPath"] = {"value": "@pipeline().parameters.notebook", "type": "Expression"}
    pipeline = _pipeline("pl", [dynamic, _notebook("Other", "/Repos/u/r/nb/load_b")], concurrency=1)
    result = lint({**TWO_LOADS, "pipeline/pl.json": pipeline})
    assert _conflicts(result) == []  # which notebook runs beside `Other` only a run knows
    unknown = [f for f in result.findings if f.rule == "DL006"]
    assert len(unknown) == 1 and "`@pipeline().parameters.notebook`, which only a run knows" in unknown[0].message


def test_hourly_weekly_and_windows_zone_recurrences_are_placed_in_time(lint):
    one = _pipeline("pl_a", [_notebook("A", "/Repos/u/r/nb/load_a")], concurrency=1)
    two = _pipeline("pl_b", [_notebook("B", "/Repos/u/r/nb/load_b")], concurrency=1)
    files = {**TWO_LOADS, "pipeline/pl_a.json": one, "pipeline/pl_b.json": two}
    every_4h = {"frequency": "Hour", "interval": 4, "startTime": "2024-01-01T01:00:00Z"}

    def meet(a: dict, b: dict) -> list[str]:
        found = lint(
            {**files, "trigger/ta.json": _trigger("ta", "pl_a", **a), "trigger/tb.json": _trigger("tb", "pl_b", **b)}
        )
        return [f"{f.severity}/{f.overlap_basis}" for f in found.findings if f.rule == "DL102"]

    # 01, 05, 09, ... never at 03 on the assumed 1 h runs; a 01:00 run of 2 h would meet it
    assert meet(every_4h, {"startTime": "2024-01-01T03:00:00Z"}) == ["info/longer-run"]
    assert meet(every_4h, {"startTime": "2024-01-01T04:30:00Z"}) == ["error/schedule"]
    assert meet(every_4h, {"startTime": "2024-01-01T05:30:00Z"}) == ["error/schedule"]
    monday = {"frequency": "Week", "schedule": {"hours": [6], "minutes": [0], "weekDays": ["Monday"]}}
    assert meet(monday, {"startTime": "2024-01-01T06:00:00Z"}) == ["error/schedule"]
    assert meet(monday, {"startTime": "2024-01-01T12:00:00Z"}) == []
    # 06:00 in Berlin is 05:00 UTC in winter: it meets a 05:00 UTC run, not a 12:00 UTC one
    berlin = {"startTime": "2024-01-01T06:00:00", "timeZone": "W. Europe Standard Time"}
    assert meet(berlin, {"startTime": "2024-01-01T05:00:00Z"}) == ["error/schedule"]
    assert meet(berlin, {"startTime": "2024-01-01T12:00:00Z"}) == []


def test_a_fabric_data_pipeline_item_is_read_as_a_pipeline_named_by_its_folder(lint):
    content = json.dumps(
        {"properties": {"activities": [_notebook("A", "/Repos/u/r/nb/load_a"), _notebook("B", "/Repos/u/r/nb/load_b")]}}
    )
    result = lint({**TWO_LOADS, "Load.DataPipeline/pipeline-content.json": content})
    found = [f for f in result.findings if f.rule == "DL102" and "have no dependency" in f.overlap]
    assert len(found) == 1 and "of job `Load`" in found[0].overlap


def test_a_parameter_a_trigger_passes_is_not_its_default(lint):
    writer = (
        NB + 't = dbutils.widgets.get("table")\nspark.range(1).write.mode("overwrite").saveAsTable(f"main.s.{t}")\n'
    )
    other = NB + 'spark.range(1).write.mode("overwrite").saveAsTable("main.s.x")\n'
    pipeline = _pipeline(
        "pl",
        [
            _notebook("A", "/Repos/u/r/nb/write", params={"table": "@pipeline().parameters.table"}),
            _notebook("B", "/Repos/u/r/nb/other"),
        ],
        concurrency=1,
        parameters={"table": {"type": "string", "defaultValue": "y"}},
    )
    files = {"nb/write.py": writer, "nb/other.py": other, "pipeline/pl.json": pipeline}

    def tables(result) -> list[str]:
        return sorted(str(i.table.name) for r in result.files if r.path == "nb/write.py" for i in r.intents)

    assert tables(lint({**files, "trigger/t.json": _trigger("t", "pl")})) == ["main.s.y"]  # the default
    passing = json.loads(_trigger("t", "pl"))
    passing["properties"]["pipelines"][0]["parameters"] = {"table": "@trigger().outputs.body.table"}
    assert "main.s.y" not in tables(lint({**files, "trigger/t.json": json.dumps(passing)}))


def test_containers_missing_their_branches_or_activities_are_read_without_failing(lint):
    shapes = [
        {"name": "If", "type": "IfCondition", "dependsOn": [], "typeProperties": {"ifTrueActivities": "x"}},
        {"name": "Sw", "type": "Switch", "dependsOn": [], "typeProperties": {"cases": [1, {"activities": None}]}},
        {"name": "Loop", "type": "ForEach", "dependsOn": [], "typeProperties": {"batchCount": True}},
        {"name": "Until", "type": "Until", "dependsOn": [{"activity": 3}]},
        {"type": "DatabricksNotebook"},
        "not an activity",
        {"name": "Job", "type": "DatabricksJob", "dependsOn": [], "typeProperties": {"jobId": {"x": 1}}},
        {"name": "Run", "type": "ExecutePipeline", "dependsOn": [], "typeProperties": {"pipeline": "pl"}},
        {"name": "Py", "type": "DatabricksSparkPython", "dependsOn": [], "typeProperties": {"parameters": 7}},
    ]
    odd_trigger = json.loads(_trigger("t", "pl"))
    odd_trigger["properties"]["typeProperties"]["recurrence"] = {"frequency": "Week", "interval": "1", "schedule": []}
    result = lint({**TWO_LOADS, "pipeline/pl.json": _pipeline("pl", shapes), "trigger/t.json": json.dumps(odd_trigger)})
    # read, not failed: the lone notebooks meet by assumption only, the odd activities are named
    assert {f.overlap_basis for f in result.findings if f.rule == "DL102"} <= {"assumed"}
    assert any(f.rule == "DL006" and "task `Py` of job `pl`" in f.message for f in result.findings)


def test_a_kept_run_sees_a_pipeline_or_trigger_change(tmp_path):
    from tests.conftest import run_cli

    def write(name: str, text: str) -> None:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    def outputs() -> tuple[str, str]:
        warm = run_cli("check", ".", "--format", "json", cwd=tmp_path).stdout
        return warm, run_cli("check", ".", "--format", "json", "--no-cache", cwd=tmp_path).stdout

    for name, text in TWO_LOADS.items():
        write(name, text)
    write("pipeline/pl_a.json", _pipeline("pl_a", [_notebook("A", "/Repos/u/r/nb/load_a")], concurrency=1))
    write("pipeline/pl_b.json", _pipeline("pl_b", [_notebook("B", "/Repos/u/r/nb/load_b")], concurrency=1))
    write("trigger/ta.json", _trigger("ta", "pl_a", 2))
    write("trigger/tb.json", _trigger("tb", "pl_b", 14))
    first, cold = outputs()
    assert first == cold and '"DL102"' not in first
    write("trigger/tb.json", _trigger("tb", "pl_b", 2))  # the same size: only its text moved
    warm, cold = outputs()
    assert warm == cold and '"DL102"' in warm
    write("trigger/tb.json", _trigger("tb", "pl_b", 14))
    write("trigger/tc.json", _trigger("tc", "pl_b", 2))  # a trigger added beside it
    warm, cold = outputs()
    assert warm == cold and '"DL102"' in warm

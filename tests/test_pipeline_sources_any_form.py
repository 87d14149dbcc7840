"""A file a bundle's pipeline includes is read as the pipeline's source whatever
form its dataset definitions take: `CREATE OR REPLACE MATERIALIZED VIEW`, a plain
`CREATE MATERIALIZED VIEW` and `CREATE STREAMING TABLE` (no `OR REFRESH`) are
datasets the pipeline's update writes. Outside a pipeline's libraries the same
text is Databricks SQL a job may run and is not taken for a pipeline's."""

from __future__ import annotations

BUNDLE = """
bundle: {name: shop}
resources:
  pipelines:
    gold:
      catalog: shop
      schema: gold
      libraries:
        - glob: {include: src/gold/**}
"""

REPLACE_VIEW = (
    "-- segments\nCREATE OR REPLACE MATERIALIZED VIEW segments\nSCHEDULE REFRESH EVERY 1 HOUR\nAS\n"
    "SELECT id, count(*) AS n FROM shop.silver.orders GROUP BY id;\n"
)
PLAIN_VIEW = "CREATE MATERIALIZED VIEW daily AS SELECT day, sum(x) AS x FROM shop.silver.orders GROUP BY day;\n"
PLAIN_STREAM = (
    "CREATE STREAMING TABLE events\nAS SELECT * FROM STREAM read_files('/Volumes/shop/raw/events', format => 'json');\n"
)


def _lakeflow(result) -> dict[str, tuple[str, int]]:
    return {
        i.table.name: (i.location.path, i.location.line)
        for r in result.files
        for i in r.intents
        if i.subkind == "lakeflow"
    }


def test_every_form_of_a_dataset_definition_in_a_pipeline_is_a_write(lint):
    result = lint(
        {
            "databricks.yml": BUNDLE,
            "src/gold/segments.sql": REPLACE_VIEW,
            "src/gold/daily.sql": PLAIN_VIEW,
            "src/gold/events.sql": PLAIN_STREAM,
        }
    )
    found = _lakeflow(result)
    assert set(found) == {"shop.gold.segments", "shop.gold.daily", "shop.gold.events"}
    assert found["shop.gold.segments"][1] == 2  # at its CREATE, not at the comment above it


def test_the_same_text_no_pipeline_includes_is_not_a_pipeline_source(lint):
    bundle = BUNDLE.replace("src/gold/**", "src/other/**")
    result = lint({"databricks.yml": bundle, "src/gold/segments.sql": REPLACE_VIEW, "src/gold/daily.sql": PLAIN_VIEW})
    assert _lakeflow(result) == {}
    assert all(r.skipped is None for r in result.files if r.path.startswith("src/gold/"))


def test_a_comment_naming_a_definition_is_no_sign(lint):
    text = (
        "-- CREATE MATERIALIZED VIEW old AS SELECT 1\nINSERT INTO shop.gold.audit SELECT * FROM shop.silver.orders;\n"
    )
    result = lint({"databricks.yml": BUNDLE, "src/gold/audit.sql": text})
    assert _lakeflow(result) == {}

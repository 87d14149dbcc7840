"""How a schedule is described: the words must say the shape the fire times have.

A stepped hour field (`*/4`) was described as "daily at 00:00" because the gap set
was emptied while it was read; a schedule of several runs a day is not daily once."""

from __future__ import annotations

import pytest

from delta_lint.cron import describe


@pytest.mark.parametrize(
    ("quartz", "tz", "text"),
    [
        ("0 0 */4 * * ?", None, "every 4 hours from 00:00 UTC"),
        ("0 0 0/4 * * ?", "UTC", "every 4 hours from 00:00 UTC"),
        ("0 15 1-23/2 * * ?", None, "every 2 hours from 01:15 UTC"),
        ("0 0 8,20 * * ?", None, "every 12 hours from 08:00 UTC"),
        ("0 0 */4 * * ?", "America/New_York", "every 4 hours from 00:00 America/New_York"),
        ("0 0 8,10 * * ?", None, "daily at 08:00, 10:00 UTC"),
    ],
)
def test_several_runs_a_day_are_not_daily(quartz: str, tz: str | None, text: str) -> None:
    assert describe(quartz, tz) == text


@pytest.mark.parametrize(
    ("quartz", "text"),
    [
        ("0 30 2 * * ?", "daily at 02:30 UTC"),  # one run a day stays daily
        ("0 0 * * * ?", "hourly at :00"),
        ("0 0 */5 * * ?", "on `0 0 */5 * * ?` (UTC)"),  # 20:00 -> 00:00 is 4 hours: no single step
        ("0 0 8 ? * MON-FRI", "on `0 0 8 ? * MON-FRI` (UTC)"),  # weekdays only: not daily
        ("0 0 3 1 * ?", "on `0 0 3 1 * ?` (UTC)"),
    ],
)
def test_other_shapes_are_not_called_stepped(quartz: str, text: str) -> None:
    assert describe(quartz, None) == text

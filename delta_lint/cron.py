"""Quartz cron schedules (as Databricks jobs use them) as run windows in time.

croniter evaluates the expressions (seconds first, `L`, `#`, year field, time
zones); this module translates Quartz's dialect to it — day-of-week numbers
1–7 from Sunday, `?`, `nL` for the last weekday of a month — and adds what
croniter lacks: `W` (nearest weekday), `LW` and `L-n` in the day-of-month field.

Windows are evaluated over a fixed horizon (a leap year from 2024-01-01 UTC,
plus the longest duration), so results never depend on the day delta-lint runs.
"""

from __future__ import annotations

import calendar
import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, timezone, tzinfo
from functools import lru_cache

HORIZON_START = datetime(2024, 1, 1, tzinfo=timezone.utc)
HORIZON = timedelta(days=366)
MAX_RUNS = 40_000  # more fire times than this in a year: treat as always running

_DURATION = re.compile(r"^\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*(?:(\d+)\s*s)?\s*$", re.IGNORECASE)
_DOW_NAMES = {"SUN": 1, "MON": 2, "TUE": 3, "WED": 4, "THU": 5, "FRI": 6, "SAT": 7}
_DAY_LABEL = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]


class CronError(ValueError):
    """An expression delta-lint cannot evaluate; phrased for the user."""


MAX_DURATION = timedelta(days=31)


def parse_duration(text: str | int | float) -> timedelta:
    """`50m`, `1h30m`, `2h`, `90s` or a number of minutes; between 1 s and 31 days."""
    if isinstance(text, bool):
        raise CronError(f"not a duration: {text!r}")
    try:
        if isinstance(text, (int, float)):
            value = timedelta(minutes=text)
        else:
            m = _DURATION.match(str(text))
            if not m or not any(m.groups()):
                raise CronError(f"not a duration like 50m, 1h30m or 2h: {text!r}")
            h, mi, s = (int(g) if g else 0 for g in m.groups())
            value = timedelta(hours=h, minutes=mi, seconds=s)
    except (OverflowError, ValueError) as err:  # huge or infinite numbers
        raise CronError(f"not a duration between 1 s and 31 days: {text!r}") from err
    if not timedelta(seconds=1) <= value <= MAX_DURATION:
        raise CronError(f"a duration must be between 1 s and 31 days, not {text!r}")
    return value


def format_duration(d: timedelta) -> str:
    minutes = int(d.total_seconds() // 60)
    if minutes < 60:
        return f"{minutes} min"
    h, m = divmod(minutes, 60)
    return f"{h} h {m} min" if m else f"{h} h"


@dataclass(frozen=True)
class Translated:
    expr: str  # croniter expression, seconds first
    dom_filter: str | None  # "W15", "LW", "L-3": a day-of-month rule applied after croniter


def translate(quartz: str) -> Translated:
    """Quartz (sec min hour dom month dow [year]) to croniter's dialect."""
    fields = quartz.split()
    if len(fields) not in (6, 7):
        raise CronError(f"Quartz cron needs 6 or 7 fields (seconds first), got {len(fields)}: {quartz!r}")
    sec, minute, hour, dom, month, dow, *year = fields
    dom_filter = None
    if re.search(r"W|L-", dom.upper()):
        if "," in dom:
            raise CronError(f"`W`/`L-n` inside a list is not supported: {dom!r}")
        dom_filter, dom = dom.upper(), "*"
    dom = "*" if dom == "?" else dom
    dow = "*" if dow == "?" else _translate_dow(dow.upper())
    return Translated(" ".join([sec, minute, hour, dom, month, dow, *year]), dom_filter)


def _translate_dow(field: str) -> str:
    """Quartz 1=SUN..7=SAT -> croniter 0=SUN..6=SAT; `6L` (last Friday) -> `L5`."""

    def number(token: str) -> int:
        value = _DOW_NAMES.get(token, None)
        if value is None:
            if not (token.isascii() and token.isdigit()) or not 1 <= int(token) <= 7:  # not `²`
                raise CronError(f"day of week must be 1-7 or SUN-SAT, not {token!r}")
            value = int(token)
        return value - 1

    out = []
    for part in field.split(","):
        if part == "*":
            out.append(part)
        elif m := re.fullmatch(r"(\w+)L", part):
            out.append(f"L{number(m.group(1))}")
        elif m := re.fullmatch(r"(\w+)#([1-5])", part):
            out.append(f"{number(m.group(1))}#{m.group(2)}")
        elif m := re.fullmatch(r"(\w+|\*)(?:-(\w+))?(?:/(\d+))?", part):
            start = m.group(1)
            text = "*" if start == "*" else str(number(start))
            if m.group(2):
                text += f"-{number(m.group(2))}"
            if m.group(3):
                text += f"/{m.group(3)}"
            out.append(text)
        else:
            raise CronError(f"cannot read day-of-week {part!r}")
    return ",".join(out)


def _dom_matches(rule: str, day: date) -> bool:
    last = calendar.monthrange(day.year, day.month)[1]
    if rule == "LW":
        target = date(day.year, day.month, last)
        while target.weekday() >= 5:
            target -= timedelta(days=1)
        return day == target
    if m := re.fullmatch(r"L-([0-9]{1,2})", rule):  # Quartz allows offsets up to 30
        return day.day == max(1, last - int(m.group(1)))
    if (m := re.fullmatch(r"([1-9][0-9]?)W", rule)) and int(m.group(1)) <= 31:
        n = min(int(m.group(1)), last)
        target = date(day.year, day.month, n)
        if target.weekday() == 5:  # Saturday: Friday before, unless that leaves the month
            target = target - timedelta(days=1) if n > 1 else target + timedelta(days=2)
        elif target.weekday() == 6:  # Sunday: Monday after, unless that leaves the month
            target = target + timedelta(days=1) if n < last else target - timedelta(days=2)
        return day == target
    raise CronError(f"cannot read day-of-month {rule!r}")


def zone(name: str | None) -> tzinfo:
    """The time zone a job definition names. The name is a path into the zone
    database: one that names a folder of it (`Europe`), is too long for a file name,
    or is no zone file is a CronError like an unknown one, never an OSError."""
    if not name or name.upper() == "UTC":
        return timezone.utc
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # here: most schedules are UTC

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError, UnicodeError) as err:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise CronError(f"unknown time zone {shown!r}") from err


@lru_cache(maxsize=512)
def fire_times(quartz: str, tz_name: str | None, start: datetime, end: datetime) -> tuple[datetime, ...] | None:
    """Start times (UTC) in [start, end); None when there are more than MAX_RUNS.

    Expressions come from job definitions in the repository: whatever croniter or
    the calendar makes of a malformed one (`0W`, `L-99999`, `²`) is a CronError."""
    try:
        return _fire_times(quartz, tz_name, start, end)
    except CronError:
        raise
    except (ValueError, OverflowError, KeyError, IndexError, TypeError, RecursionError) as err:
        raise CronError(f"cannot evaluate cron {quartz!r}: {err}") from err


def check(quartz: str, tz_name: str | None) -> None:
    """Raise CronError when an expression or time zone cannot be evaluated (tried on
    the first weeks of the horizon, where a malformed field shows)."""
    if not isinstance(quartz, str) or not quartz.isascii():
        raise CronError(f"a Quartz cron expression is ASCII text, not {quartz!r}")
    fire_times(quartz, tz_name, HORIZON_START, HORIZON_START + timedelta(days=62))


def _fire_times(quartz: str, tz_name: str | None, start: datetime, end: datetime) -> tuple[datetime, ...] | None:
    from croniter import croniter

    t = translate(quartz)
    tz = zone(tz_name)
    fields = t.expr.split()
    if len(fields) == 6 and fields[3:5] == ["*", "*"] and not t.dom_filter and not re.search(r"[L#]", fields[5]):
        return _weekly(quartz, t.expr, tz_name, tz, start, end)
    try:
        it = croniter(t.expr, start.astimezone(tz) - timedelta(seconds=1), second_at_beginning=True)
    except (ValueError, KeyError) as err:
        raise CronError(f"cannot evaluate cron {quartz!r}: {err}") from err
    out = []
    while True:
        try:
            moment = it.get_next(datetime)
        except (StopIteration, ValueError, KeyError):  # a year field that has run out, or no match at all
            break
        if moment >= end:
            break
        if t.dom_filter and not _dom_matches(t.dom_filter, moment.date()):
            continue
        out.append(moment.astimezone(timezone.utc))
        if len(out) > MAX_RUNS:
            return None
    return tuple(out)


def _weekly(
    quartz: str, expr: str, tz_name: str | None, tz: tzinfo, start: datetime, end: datetime
) -> tuple[datetime, ...] | None:
    """Schedules that only constrain the time and the weekday repeat every week in
    local time: take one week's times from croniter and lay them over the horizon
    (each local time converted with its own UTC offset, so DST is honoured)."""
    local_start = start.astimezone(tz)
    monday = datetime.combine(local_start.date() - timedelta(days=local_start.weekday()), datetime.min.time())
    # in UTC (no offset changes) every week has the same times: one week answers all
    week = _week(quartz, expr, tz_name, monday if tz is not timezone.utc else _A_MONDAY)
    if week is None:
        return None
    weeks = int((end - start) / timedelta(days=7)) + 2
    if len(week) * weeks > MAX_RUNS:
        return None
    out = []
    if tz is timezone.utc:  # no offsets to look up: the first week's times, shifted week by week
        first = sorted({datetime.combine(monday.date() + timedelta(days=day), clock, tzinfo=tz) for day, clock in week})
        # within one week, so shifted weeks follow each other in order and never repeat a time
        for w in range(weeks):
            shift = timedelta(days=7 * w)
            out += [moment for moment in (m + shift for m in first) if start <= moment < end]
        return tuple(out)
    for w in range(weeks):
        base = monday.date() + timedelta(days=7 * w)
        for day, clock in week:
            moment = datetime.combine(base + timedelta(days=day), clock, tzinfo=tz).astimezone(timezone.utc)
            if start <= moment < end:
                out.append(moment)
    return tuple(sorted(set(out)))


_A_MONDAY = datetime(2024, 1, 1)  # the week `_week` answers for every week of a UTC schedule


@lru_cache(maxsize=512)
def _week(quartz: str, expr: str, tz_name: str | None, monday: datetime) -> tuple[tuple[int, time], ...] | None:
    """(day from `monday`, local clock time) of each fire time of `expr` (`quartz`
    in croniter's dialect) in the week from `monday` (a naive local midnight); None
    past MAX_RUNS. Kept per week: checking a job's schedule, describing it and
    laying it over each horizon asked croniter for the same week, at a quarter of a
    millisecond a fire time."""
    from croniter import croniter

    tz = zone(tz_name)
    try:
        it = croniter(expr, monday.replace(tzinfo=tz) - timedelta(seconds=1), second_at_beginning=True)
    except (ValueError, KeyError) as err:
        raise CronError(f"cannot evaluate cron {quartz!r}: {err}") from err
    week: list[tuple[int, time]] = []
    while True:
        moment = it.get_next(datetime)
        naive = moment.replace(tzinfo=None)
        if naive >= monday + timedelta(days=7):
            break
        week.append(((naive.date() - monday.date()).days, naive.time()))
        if len(week) > MAX_RUNS:
            return None
    return tuple(week)


@lru_cache(maxsize=1024)
def describe(quartz: str, tz_name: str | None) -> str:
    """`hourly at :05`, `daily at 02:00 UTC`, `every 15 min`, `every 4 hours from 00:00 UTC`,
    `daily at 08:00, 10:00 UTC`, `weekly on Sun at 03:00 Europe/Amsterdam`; what the
    sampled fire times show, never a shape they do not have (`on `...``)."""
    tz_label = tz_name or "UTC"
    try:
        times = fire_times(quartz, tz_name, HORIZON_START, HORIZON_START + timedelta(days=60))
    except CronError:
        return f"on `{quartz}` ({tz_label})"
    if not times or len(times) < 3:
        return f"on `{quartz}` ({tz_label})"
    gaps = {b - a for a, b in zip(times, times[1:])}
    local = times[0].astimezone(zone(tz_name))
    hour = timedelta(hours=1)
    if len(gaps) == 1:
        (gap,) = gaps
        if gap < hour:
            return f"every {int(gap.total_seconds() // 60)} min"
        if gap == hour:
            return f"hourly at :{local.minute:02d}"
        if gap == timedelta(days=1):
            return f"daily at {local:%H:%M} {tz_label}"
        if gap == timedelta(days=7):
            return f"weekly on {_DAY_LABEL[(local.weekday() + 1) % 7]} at {local:%H:%M} {tz_label}"
    if gaps <= {timedelta(days=1), timedelta(days=1, hours=1), timedelta(days=1, hours=-1)}:
        return f"daily at {local:%H:%M} {tz_label}"  # a DST change in the sample
    clocks = _daily_clocks(times, tz_name)
    if clocks is None or len(clocks) > 24:
        return f"on `{quartz}` ({tz_label})"
    # a stepped hour field (`*/4`, `1-23/2`): the same clock times every day, one whole
    # number of hours apart all round the clock
    minutes = [c.hour * 60 + c.minute for c in clocks]
    apart = {(b - a) % 1440 for a, b in zip(minutes, minutes[1:] + minutes[:1])}
    if len(clocks) > 1 and len(apart) == 1 and not next(iter(apart)) % 60 and clocks[0].second == 0:
        return f"every {next(iter(apart)) // 60} hours from {clocks[0]:%H:%M} {tz_label}"
    if len(clocks) <= 4:
        return f"daily at {', '.join(f'{c:%H:%M}' for c in clocks)} {tz_label}"
    return f"on `{quartz}` ({tz_label})"


def _daily_clocks(times: tuple[datetime, ...], tz_name: str | None) -> list[time] | None:
    """The local clock times of a schedule that fires at the same times every day of
    the sample (`0 0 8,10 * * ?`); None when the days differ (weekdays, months)."""
    tz = zone(tz_name)
    days: dict[date, set[time]] = {}
    for t in times:
        local = t.astimezone(tz)
        days.setdefault(local.date(), set()).add(local.time())
    first, last = min(days), max(days)
    whole = [d for d in days if d not in (first, last)]  # the sample's ends may be cut
    if len(whole) < 2 or len(days) != (last - first).days + 1:
        return None
    clocks = {frozenset(days[d]) for d in whole}
    return sorted(next(iter(clocks))) if len(clocks) == 1 else None


@dataclass(frozen=True)
class Window:
    start: datetime
    end: datetime


_PERIODS: dict[int, tuple[tuple[datetime, ...], timedelta | None]] = {}


def _period(times: tuple[datetime, ...]) -> timedelta | None:
    """The constant gap between runs, when there is one (UTC schedules mostly);
    remembered per tuple of fire times (they come from the fire_times cache)."""
    known = _PERIODS.get(id(times))
    if known is not None and known[0] is times:
        return known[1]
    period = _compute_period(times)
    _PERIODS[id(times)] = (times, period)
    return period


def _compute_period(times: tuple[datetime, ...]) -> timedelta | None:
    if len(times) < 3:
        return None
    gap = times[1] - times[0]
    first, last = times[0], times[-1]
    if last - first != gap * (len(times) - 1):
        return None
    return gap if all(b - a == gap for a, b in zip(times, times[1:])) else None


def first_overlap(
    a: tuple[datetime, ...], da: timedelta, b: tuple[datetime, ...], db: timedelta
) -> tuple[Window, Window] | None:
    """The first pair of run windows [t, t + duration) that intersect (a sweep).

    Two strictly periodic schedules repeat their relative position every
    lcm(period a, period b): only that stretch is swept."""
    pa, pb = _period(a), _period(b)
    if pa and pb:
        step = math.lcm(int(pa.total_seconds()), int(pb.total_seconds()))
        stop = max(a[0], b[0]) + timedelta(seconds=step) + max(da, db)
        a, b = a[: bisect_right(a, stop)], b[: bisect_right(b, stop)]  # times are sorted
    i = j = 0
    na, nb = len(a), len(b)
    while i < na and j < nb:
        start_a, start_b = a[i], b[j]
        end_a, end_b = start_a + da, start_b + db
        if start_a < end_b and start_b < end_a:
            return Window(start_a, end_a), Window(start_b, end_b)
        if end_a <= end_b:
            i += 1
        else:
            j += 1
    return None


def shortest_reach(a: tuple[datetime, ...], b: tuple[datetime, ...]) -> tuple[datetime, timedelta] | None:
    """The run of `a` that comes closest to a later run of `b`, and how long it must
    last to meet it: (its start, the time to the next start of `b`). None when no
    run of `b` starts after one of `a`. Both tuples are sorted.

    Two strictly periodic schedules repeat their relative position every
    lcm(period a, period b): the runs of `a` in one such stretch (from its first)
    meet every gap there is, the earliest first, so only those are looked at."""
    pa, pb = _period(a), _period(b)
    if pa and pb:
        step = timedelta(seconds=math.lcm(int(pa.total_seconds()), int(pb.total_seconds())))
        a = a[: bisect_left(a, a[0] + step)]
        b = b[: bisect_right(b, a[-1] + pb)]
    best: tuple[datetime, timedelta] | None = None
    for t in a:
        k = bisect_left(b, t)
        if k < len(b):
            gap = b[k] - t
            if best is None or gap < best[1]:
                best = (t, gap)
    return best


def horizon(longest: timedelta) -> tuple[datetime, datetime]:
    """Runs that start up to `longest` before the horizon still occupy it."""
    return HORIZON_START - longest, HORIZON_START + HORIZON

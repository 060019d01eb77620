#!/usr/bin/env python3
"""Write the golden table that test/monitoring/checks/cron-golden.test.ts checks our cron
evaluator against: what cronsim (the library Healthchecks uses) says about a few hundred
expressions, in many zones, from many start times. See README.md next to this file.

Usage: python3 scripts/cronsim-golden/generate.py /path/to/cronsim-checkout [OUT]

Reproducible: a fixed seed, fixed lists, and no clock. The only outside input is the tzdata
Python's zoneinfo reads (the system's), recorded in the header line.
"""

from __future__ import annotations

import json
import random
import re
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

REPO = Path(__file__).resolve().parents[2]
UTC = timezone.utc
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
COUNT = 5
SEED = 12

if len(sys.argv) < 2:
    sys.exit(__doc__)
CRONSIM_DIR = Path(sys.argv[1]).resolve()
OUT = Path(sys.argv[2]) if len(sys.argv) > 2 else REPO / "test/monitoring/checks/cronsim-golden.jsonl"
sys.path.insert(0, str(CRONSIM_DIR))
from cronsim import CronSim, CronSimError  # noqa: E402

rng = random.Random(SEED)


# --- What Healthchecks does with a schedule ------------------------------------------------


def guess_kind(schedule: str) -> str:
    """hc/api/views.py guess_kind: one line of 5 fields is cron, anything else OnCalendar."""
    if "\n" not in schedule.strip() and len(schedule.split()) == 5:
        return "cron"
    return "oncalendar"


def hc_valid(expr: str) -> bool:
    """hc/api/views.py Spec.check_schedule for cron (OnCalendar is not supported by us)."""
    if guess_kind(expr) != "cron":
        return False
    try:
        it = CronSim(expr, datetime(2000, 1, 1))
        next(it)
    except (CronSimError, StopIteration):
        return False
    return True


class Hang(Exception):
    """cronsim's next() went round in a loop (it would never return)."""


# More outer-loop rounds in one next() than any schedule needs in 50 years; the TypeScript
# port uses the same cap.
MAX_ROUNDS = 10_000


class GuardedCronSim(CronSim):
    """cronsim, unchanged, except that a next() stuck in a loop raises Hang. advance() calls
    advance_month() once per round, so that is where the rounds are counted."""

    rounds = 0

    def __next__(self) -> datetime:
        self.rounds = 0
        return super().__next__()

    def advance_month(self) -> None:
        self.rounds += 1
        if self.rounds > MAX_ROUNDS:
            raise Hang()
        super().advance_month()


SCAN_MS = 6 * 3600 * 1000


def local(ms: int, tz: ZoneInfo) -> datetime:
    return (EPOCH + timedelta(milliseconds=ms)).astimezone(tz)


def scan(it: CronSim, tz: ZoneInfo, after_ms: int) -> int | None:
    """The first whole local minute after `after_ms`, in real time and within 6 hours, that the
    schedule matches, using cronsim's own field sets and day matching."""
    t = after_ms // 1000 * 1000 + 1000
    while t <= after_ms + SCAN_MS:
        dt = local(t, tz)
        if dt.second != 0:
            t += (60 - dt.second) * 1000
            continue
        if (dt.minute in it.minutes and dt.hour in it.hours and dt.month in it.months
                and it.match_day(dt.date())):
            return t
        t += 60_000
    return None


def hc_next(expr: str, zone: str, start_ms: int) -> tuple[list[int], list]:
    """hc/api/models.py get_grace_start: next(CronSim(schedule, last_ping.astimezone(tz))),
    iterated on for COUNT times, with our rule for cronsim's defects (docs/decisions.md):
    - a time at or before the previous one (the start, at first) is dropped;
    - if that happens in cronsim's real-time walk (minute or hour starting with "*"), or if
      next() hangs, cronsim is looping in a repeated hour: the next time is the first real
      minute that matches (within 6 hours), and cronsim restarts from there (or from 6 hours
      on, if none matched).
    Returns (times, defects) in epoch seconds; defects lists the dropped cronsim times and
    "hang" for each next() that never returned."""
    tz = ZoneInfo(zone)
    it = GuardedCronSim(expr, local(start_ms, tz))
    last = start_ms
    times: list[int] = []
    defects: list = []
    while len(times) < COUNT:
        assert len(defects) < 200, (expr, zone, start_ms)
        try:
            ms = round((next(it).astimezone(UTC) - EPOCH) / timedelta(milliseconds=1))
            assert ms % 1000 == 0
        except StopIteration:
            break
        except Hang:
            ms = None
            defects.append("hang")
        if ms is not None and ms > last:
            times.append(ms // 1000)
            last = ms
            continue
        if ms is not None:
            defects.append(ms // 1000)
            if it.fixup_tz is not None:
                continue  # the naive walk only goes back within a repeated hour: drop
        found = scan(it, tz, last)
        if found is not None:
            times.append(found // 1000)
            last = found
        it = GuardedCronSim(expr, local(found if found is not None else last + SCAN_MS, tz))
    return times, defects


# --- Zones ---------------------------------------------------------------------------------


def healthchecks_zones() -> list[str]:
    """The zone list src/monitoring/checks/timezones.ts copies from Healthchecks."""
    src = (REPO / "src/monitoring/checks/timezones.ts").read_text()
    block = src[src.index("const ZONES") : src.index("};", src.index("const ZONES"))]
    zones = []
    for area, names in re.findall(r"(\w+|'')\s*:\s*`([^`]*)`", block):
        for name in names.split():
            zones.append(name if area == "''" else f"{area}/{name}")
    assert len(zones) > 400, len(zones)
    return sorted(zones)


ALL_ZONES = healthchecks_zones()

# Zones with DST quirks: 30-minute shifts, midnight changes, 2-hour DST, negative DST, odd
# offsets, changes at odd UTC times, and the ones issue #12 names.
FOCUS = [
    "UTC",
    "America/New_York",
    "Europe/London",
    "Europe/Berlin",
    "Australia/Lord_Howe",
    "Asia/Kolkata",
    "Pacific/Chatham",
    "America/Sao_Paulo",
    "America/Santiago",
    "America/Havana",
    "Asia/Beirut",
    "Africa/Casablanca",
    "Antarctica/Troll",
    "Europe/Dublin",
    "America/St_Johns",
    "Australia/Adelaide",
    "Asia/Gaza",
    "America/Nuuk",
    "America/Scoresbysund",
    "Pacific/Auckland",
    "America/Los_Angeles",
    "Asia/Kathmandu",
    "Etc/GMT+12",
    "Pacific/Kiritimati",
]
for z in FOCUS:
    assert z in ALL_ZONES, z


def offset_at(zone: ZoneInfo, ms: int) -> timedelta:
    return (EPOCH + timedelta(milliseconds=ms)).astimezone(zone).utcoffset()  # type: ignore


_transitions: dict[str, list[int]] = {}


def transitions(name: str, years=(2026,)) -> list[int]:
    """Instants (ms) at which the zone's offset changes in the given years."""
    key = f"{name}{years}"
    if key in _transitions:
        return _transitions[key]
    zone = ZoneInfo(name)
    found = []
    for year in years:
        t = int((datetime(year, 1, 1, tzinfo=UTC) - EPOCH).total_seconds()) * 1000
        end = int((datetime(year + 1, 1, 1, tzinfo=UTC) - EPOCH).total_seconds()) * 1000
        step = 3 * 3600 * 1000
        prev = offset_at(zone, t)
        while t < end:
            nxt = offset_at(zone, t + step)
            if nxt != prev:
                lo, hi = t, t + step  # offset(lo) == prev, offset(hi) != prev
                while hi - lo > 1000:
                    mid = (lo + hi) // 2 // 1000 * 1000
                    if mid == lo:
                        break
                    if offset_at(zone, mid) == prev:
                        lo = mid
                    else:
                        hi = mid
                found.append(hi)
            prev = nxt
            t += step
    _transitions[key] = found
    return found


def ms_of(*args: int) -> int:
    return int((datetime(*args, tzinfo=UTC) - EPOCH).total_seconds()) * 1000


def random_start(lo_year=2000, hi_year=2045) -> int:
    """A random instant; some have milliseconds, which cronsim drops."""
    ms = rng.randrange(ms_of(lo_year, 1, 1), ms_of(hi_year, 1, 1))
    kind = rng.random()
    if kind < 0.4:
        return ms // 60000 * 60000  # a whole minute
    if kind < 0.7:
        return ms // 1000 * 1000
    return ms


def starts_near_changes(zone: str, n: int) -> list[int]:
    """Starts around the zone's 2026 offset changes: the day before, inside the repeated or
    skipped hour, and exactly at the change."""
    out = []
    changes = transitions(zone)
    for _ in range(n):
        if not changes:
            out.append(random_start(2025, 2028))
            continue
        t = rng.choice(changes)
        kind = rng.random()
        if kind < 0.45:
            out.append(t + rng.randrange(-26 * 3600, 3 * 3600) * 1000)
        elif kind < 0.8:
            out.append(t + rng.randrange(-2 * 3600, 2 * 3600) // 60 * 60 * 1000)
        else:
            out.append(t + rng.choice([-60_000, -1000, -1, 0, 1000, 59_000, 1_800_000, 3_599_000]))
    return out


# --- Expressions ---------------------------------------------------------------------------

HAND = r"""
0 0 LW * *|*,10 * * * *|0 0 l * *|0 0 L/2 * *|0 0 * * 1#1,FRI|0 0 * * 0,7|5-5/15 * * * *
0 0 */2 * 1#2|*/30 2 * * *|*/20 1 * * *|0 * * * *|* * * * *|*/5 * * * *|0 9 * * MON-FRI
0 9 * * mon-fri|30 2 * * *|30 1 * * *|50 1 * * *|0 2 * * *|0 3 * * *|0 0 * * *|0 1 * * *
15,45 1-3 * * *|0 */2 * * *|30 */3 * * *|* 2 * * *|*/15 1,2 * * *|0 0 1 * *|0 12 1 JAN *
0 12 1 jan *|0 0 1 dec *|0 0 L * *|0 0 lw * *|0 0 * * 5L|0 0 * * 7L|0 0 * * 0L|0 0 * * 5l
0 0 * * 1#5|0 0 29 2 *|0 0 LW 2 *|0 0 L 2 *|0 0 15 * 5|0 0 */15 * 5|0 0 1-7 * 1|0 0 *,15 * 1
0 0 15 * *,1|0 0 13 * FRI|0 0 * * sun|0 0 * * SUN-SAT|0 0 * * 0-7|0 0 * * 1-5/2|0 0 * * */2
0 0 * * 7|0 0 * * 0|0 0 * JAN-MAR/2 *|0 0 * */3 *|0 0 1/10 * *|0 0 LW/2 * *|0 0 1,L * *
0 0 1,LW * *|0 0 L,15 * 5|0 0 * * 5L,1#1|00 00 * * *|0 0 01 01 *|*/60 * * * *|*/61 * * * *
0-59/1000 * * * *|0 0 31 1-2 *|0 0 * 2 MON#5|0 0 * 2 SUN#5|0 0 */2 2 5#5|0 0 29 2 */7
0 0 */31 * 1#5|0 0 */30 2 1#5|0 0 * * MON#2|0 0 * * \u017fun|30 0 * * *|0 0,12 * * *|59 23 * * *
*/7 * * * *|1-59/7 * * * *|0,30 * * * *|15 * * * *|45 * * * *|30 * * * *|* 0 * * *|* 1 * * *
* 3 * * *|*/10 0-3 * * *|0 0-3 * * *|30 0-3 * * *|0 2,3 * * *|0 0 * * 6,0|0 23 * * *
0 22 * * *|0 4 * * *|5 0 * * *|0 0 1 1 *|0 0 1 * 1|0 0 L * 5|0 0 LW * 5|30 2 8 3 *|30 1 1 11 *
0 0 5 4 *|0 3 5 4 *|0 2 4 10 *|*/45 * * * *|0 */5 * * *|0 0 */5 * *|0 0 * */5 *|0 0 * * */3
0 0 * * 1/2|0 0 * * SUN/2|0 0 * * 7/1|0 0 * FEB/5 *|0 0 29 * *|0 0 30 * *|0 0 31 * *
0 0 31 */2 *|0 0 30,31 2,3 *|0 9-17 * * 1-5|*/30 9-17 * * MON-FRI|0 0 2-30/7 * *|0 0 1 2-12/3 *
0 0 \t * * *| 0 0 * * * |0 0 * * *\n|0\t0\t*\t*\t*|0 0 * * *\r|0 0\u00a0* * *|0 0\u3000* * *
0 0\u001c* * *|0 0\u0085* * *|0 0\ufeff* * *|0 0\u200b* * *
@daily|@hourly|@reboot|@weekly|* * * * * *|0 0 * * * 2026|0 * * * * *|0 0 ? * *|0 0 * * ?
60 * * * *|* 24 * * *|0 0 0 * *|0 0 32 * *|0 0 * 0 *|0 0 * 13 *|0 0 * * 8|0 0 31 2 *
0 0 30 2 *|0 0 31 4,6 *|0 0 15W * *|0 0 W * *|0 0 * * L|0 0 * * 1#6|0 0 * * 1#0
0 0 * * MONDAY|0 0 * JANUARY *|0 0 * * 5-1|*/0 * * * *|1-60 * * * *|-1 * * * *|1--2 * * * *
1,,2 * * * *|,1 * * * *|1, * * * *|* * * *||  |bad|0 0 1 1 1 1|0 0\n* * *|0 0 * * 7-0
MON * * * *|0 0 L-1 * *|0 0 * * 1#1-2|0 0 * * 5#L|0 0 * * L5|0 0 * * 5LL|0 0 * * 8L
0 0 * * 1#2/2|0 0 * * 1-3#2|+1 * * * *|1.5 * * * *|0x1 * * * *|\uff11 * * * *|0 0 * * \uff15L
99999999999999999999 * * * *|0 0 30 2 1|0 0 * * SUN#5L|0 0 * * 5L-6|0 0 * * 5L#1|0 0 * * 5L/2
1-1_0 * * * *|0 0 * * */0|0 0 */ * *|0 0 /5 * *|0 0 * * mon-|0 0 * * -mon|0 0 LW-5 * *
0 0 * JAN,FEB,mar *|0 0 * * MON,wed,FRI|0 0 1-L * *|0 0 ** * *|0 0 * * 1#|0 0 * * #1
0 0 l/3 * *|0 0 lw/0 * *|0 0 L/0 * *|0 0 * * 5L,|0 0 * * ,5L|0 0 1 JAN-MAR/0 *|0 0 * * 0#1
45 */3 * * *|* 3 * * *|0 0 * * 7#5|0 0 * * 7#5,1#5|0 0 * 2 7#5|0 0 L 2 7L|0 0 */31 2 1#5|0 0 */29 * *|*/30 */2 * * *
"""


def hand_expressions() -> list[str]:
    # Escapes (\t, \n, \u3000) are decoded per expression, after splitting the lines.
    exprs = []
    for line in HAND.strip("\n").split("\n"):
        exprs.extend(e.encode("ascii").decode("unicode_escape") for e in line.split("|"))
    return exprs


# cronsim's own test: every bad value in every position must be refused.
BAD_VALUES = ["-1", "61", "ABC", "2/", "/2", "2#", "#2", "1##1", "1//2", "\u00b9", "LL", "LWX"]
BAD_PATTERNS = ["%s * * * *", "* %s * * *", "* * %s * *", "* * * %s * ", "* * * * %s", "1-%s * * * *",
                "%s-60 * * * *", "* * 1-%s * *", "* * 1,%s * *", "* * %s/1 * *", "* * * %s-DEC *",
                "* * * JAN-%s *", "* * * * %s-SUN", "* * * * MON-%s"]

FIELD_SPECS = [  # (low, high, names)
    (0, 59, None),
    (0, 23, None),
    (1, 31, None),
    (1, 12, ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]),
    (0, 7, ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"]),
]


def rand_value(field: int) -> str:
    lo, hi, names = FIELD_SPECS[field]
    if field == 1 and rng.random() < 0.6:
        return str(rng.choice([0, 1, 2, 3, 23]))  # DST changes happen at these hours
    if names and rng.random() < 0.3:
        name = rng.choice(names)
        return name.lower() if rng.random() < 0.3 else name
    return str(rng.randint(lo, hi))


def rand_term(field: int) -> str:
    lo, hi, _ = FIELD_SPECS[field]
    r = rng.random()
    if r < 0.25:
        return rand_value(field)
    if r < 0.4:
        a, b = sorted([rng.randint(lo, hi), rng.randint(lo, hi)])
        return f"{a}-{b}"
    if r < 0.5:
        return f"*/{rng.choice([2, 3, 5, 7, 10, 15, 20, 30, 45])}"
    if r < 0.58:
        a, b = sorted([rng.randint(lo, hi), rng.randint(lo, hi)])
        return f"{a}-{b}/{rng.randint(1, 10)}"
    if r < 0.65:
        return f"{rand_value(field)}/{rng.randint(1, 20)}"
    if field == 2 and r < 0.8:
        return rng.choice(["L", "LW", "l", "lw", "L/2", "LW/3"])
    if field == 4 and r < 0.75:
        return f"{rng.randint(0, 7)}L"
    if field == 4 and r < 0.85:
        return f"{rand_value(4)}#{rng.randint(1, 5)}"
    return "*"


INVALID_TERMS = ["?", "", "L", "W", "#", "/", "-", "99", "-1", "1-", "*/0", "1/0", "5W", "X", "L#1",
                 "8", "0#1", "32", "24", "60", "13", "1#6", "*/", "1 /2"]


def rand_field(field: int) -> str:
    n = 1 if rng.random() < 0.7 else rng.randint(2, 3)
    terms = [rand_term(field) for _ in range(n)]
    if rng.random() < 0.04:
        terms[rng.randrange(n)] = rng.choice(INVALID_TERMS)
    if rng.random() < 0.1:
        terms.insert(0, "*")  # "*,10" style: starts with a star (AND)
    return ",".join(terms)


def random_expression() -> str:
    fields = ["*"] * 5
    # Mostly fixed minute and hour (cronsim's naive walk) or starred ones (real-time walk).
    fields[0] = rand_field(0) if rng.random() < 0.8 else "*"
    fields[1] = rand_field(1) if rng.random() < 0.8 else "*"
    for f in (2, 3, 4):
        if rng.random() < 0.35:
            fields[f] = rand_field(f)
    return " ".join(fields)


# Every zone Healthchecks accepts, a few DST-sensitive schedules around its 2026 changes.
SWEEP = ["0 * * * *", "30 * * * *", "*/15 * * * *", "30 2 * * *", "0 1 * * *", "0 0 * * *",
         "*/20 1 * * *", "30 1 * * *", "0 3 * * *", "0,30 0-3 * * *", "45 23 * * *", "* 2 * * *"]


def expressions() -> list[str]:
    exprs = hand_expressions() + SWEEP
    exprs += [p % v for p in BAD_PATTERNS for v in BAD_VALUES]
    exprs += [random_expression() for _ in range(450)]
    seen: set[str] = set()
    return [e for e in exprs if not (e in seen or seen.add(e))]  # type: ignore


# --- Cases ---------------------------------------------------------------------------------

# Explicit cases for the examples of issue #12, so they are in the table whatever the seed.
EXPLICIT = [
    ("*/30 2 * * *", "America/New_York", ms_of(2026, 3, 8, 5, 0)),
    ("*/20 1 * * *", "America/New_York", ms_of(2026, 11, 1, 4, 0)),
    ("50 1 * * *", "America/New_York", ms_of(2026, 11, 1, 6, 40)),  # cronsim's defect
    ("30 1 * * *", "America/New_York", ms_of(2026, 11, 1, 6, 0)),  # cronsim's defect
    ("0 * * * *", "Australia/Lord_Howe", ms_of(2026, 4, 4, 13, 0)),
    ("0 * * * *", "Australia/Lord_Howe", ms_of(2026, 10, 3, 14, 0)),
    ("0 0 */2 * 1#2", "UTC", ms_of(2026, 1, 1)),
    ("5-5/15 * * * *", "UTC", ms_of(2026, 1, 1)),
    ("30 2 * * *", "America/New_York", ms_of(2026, 3, 7, 12)),
    ("30 2 * * *", "Europe/Berlin", ms_of(2026, 3, 28, 12)),
    ("30 2 * * *", "Europe/Berlin", ms_of(2026, 10, 25, 0, 45)),  # cronsim's defect
    ("* 3 * * *", "Pacific/Chatham", ms_of(2026, 4, 4, 13, 59, 59)),  # cronsim loops
    ("45 */3 * * *", "Pacific/Chatham", ms_of(2026, 4, 4, 12, 0)),  # cronsim hangs
]


def is_dst_sensitive(expr: str) -> bool:
    parts = expr.upper().split()
    return len(parts) == 5 and not (parts[0] == "0" and parts[1] == "0" and parts[2] != "*")


def cases_for(expr: str) -> list[tuple[str, int]]:
    out = [(zone, start) for e, zone, start in EXPLICIT if e == expr]
    sensitive = is_dst_sensitive(expr)
    zones = ["UTC", "America/New_York"] + rng.sample(FOCUS[1:], 5 if sensitive else 2)
    zones += rng.sample(ALL_ZONES, 2)
    for zone in dict.fromkeys(zones):
        n_near = 4 if sensitive else 1
        out += [(zone, s) for s in starts_near_changes(zone, n_near)]
        out += [(zone, random_start()) for _ in range(1 if sensitive else 2)]
    return out


def main() -> None:
    rows: dict[str, dict] = {}
    for expr in expressions():
        valid = hc_valid(expr)
        rows[expr] = {"expr": expr, "valid": valid, "cases": {}}
        if valid:
            for zone, start in cases_for(expr):
                rows[expr]["cases"].setdefault(zone, []).append(start)
    for zone in ALL_ZONES:
        for expr in rng.sample(SWEEP, 2):
            starts = starts_near_changes(zone, 2)
            rows[expr]["cases"].setdefault(zone, []).extend(starts)

    n_cases = n_defects = 0
    lines = []
    for row in rows.values():
        cases = {}
        for zone, starts in sorted(row["cases"].items()):
            out = []
            for start in sorted(set(starts)):
                times, defects = hc_next(row["expr"], zone, start)
                out.append([start, times, defects] if defects else [start, times])
                n_cases += 1
                n_defects += bool(defects)
            cases[zone] = out
        lines.append(json.dumps({"expr": row["expr"], "valid": row["valid"], "cases": cases},
                                ensure_ascii=True, separators=(",", ":")))

    tzdata = Path("/usr/share/zoneinfo/tzdata.zi")
    header = {
        "generator": "scripts/cronsim-golden/generate.py",
        "cronsim": cronsim_version(),
        "tzdata": tzdata.read_text().split("\n", 1)[0].split()[-1] if tzdata.exists() else "unknown",
        "seed": SEED,
        "expressions": len(rows),
        "valid": sum(r["valid"] for r in rows.values()),
        "cases": n_cases,
        "defects": n_defects,
        "format": "one JSON object per expression after this line: {expr, valid, cases: {zone: "
                  "[[start epoch ms, [next times epoch s], [defects: dropped cronsim times in epoch s, \"hang\"]?]]}}",
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join([json.dumps(header, separators=(",", ":"))] + lines) + "\n")
    print(json.dumps(header, indent=1), file=sys.stderr)


def cronsim_version() -> str:
    try:
        text = (CRONSIM_DIR / "pyproject.toml").read_text()
        return re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)  # type: ignore
    except (OSError, AttributeError):
        return "unknown"


main()

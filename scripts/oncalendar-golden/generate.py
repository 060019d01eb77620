#!/usr/bin/env python3
"""Write the golden table that test/monitoring/checks/oncalendar-golden.test.ts checks our
OnCalendar evaluator against: what the `oncalendar` library (the one Healthchecks uses) says
about a few hundred expressions, in many zones, from many start times. See README.md next to
this file.

Usage: python3 scripts/oncalendar-golden/generate.py /path/to/oncalendar-checkout [OUT]

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
SEED = 26

if len(sys.argv) < 2:
    sys.exit(__doc__)
LIB_DIR = Path(sys.argv[1]).resolve()
OUT = Path(sys.argv[2]) if len(sys.argv) > 2 else REPO / "test/monitoring/checks/oncalendar-golden.jsonl"
sys.path.insert(0, str(LIB_DIR))
from oncalendar import OnCalendar, OnCalendarError, parse_tz  # noqa: E402

rng = random.Random(SEED)


# --- Zones ---------------------------------------------------------------------------------


def timezones_ts() -> tuple[list[str], dict[str, str]]:
    """The zone list and legacy aliases src/monitoring/checks/timezones.ts copies from
    Healthchecks (hc/lib/tz.py)."""
    src = (REPO / "src/monitoring/checks/timezones.ts").read_text()
    block = src[src.index("const ZONES") : src.index("};", src.index("const ZONES"))]
    zones = []
    for area, names in re.findall(r"(\w+|'')\s*:\s*`([^`]*)`", block):
        for name in names.split():
            zones.append(name if area == "''" else f"{area}/{name}")
    legacy_block = src[src.index("const LEGACY") :]
    legacy_block = legacy_block[legacy_block.index("`") + 1 :]
    legacy_block = legacy_block[: legacy_block.index("`")]
    legacy = dict(pair.split("=") for pair in legacy_block.split())
    assert len(zones) > 400 and len(legacy) > 100, (len(zones), len(legacy))
    return sorted(zones), legacy


ALL_ZONES, LEGACY = timezones_ts()
# A zone named inside an expression: the library asks zoneinfo, i.e. the server's tzdata files.
# We accept Healthchecks' names and legacy aliases (docs/decisions.md); every one of them must
# be one this machine's zoneinfo accepts too, or the table would not be the library's answer.
for _z in ALL_ZONES + list(LEGACY):
    ZoneInfo(_z)

FOCUS = [
    "UTC",
    "America/New_York",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Riga",
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
for _z in FOCUS:
    assert _z in ALL_ZONES, _z


def offset_at(zone: ZoneInfo, ms: int) -> timedelta:
    return (EPOCH + timedelta(milliseconds=ms)).astimezone(zone).utcoffset()  # type: ignore


_transitions: dict[str, list[int]] = {}


def transitions(name: str, year: int = 2026) -> list[int]:
    """Instants (ms) at which the zone's offset changes in the given year."""
    if name in _transitions:
        return _transitions[name]
    zone = ZoneInfo(name)
    found = []
    t = ms_of(year, 1, 1)
    end = ms_of(year + 1, 1, 1)
    step = 3 * 3600 * 1000
    prev = offset_at(zone, t)
    while t < end:
        nxt = offset_at(zone, t + step)
        if nxt != prev:
            lo, hi = t, t + step
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
    _transitions[name] = found
    return found


def ms_of(*args: int) -> int:
    return int((datetime(*args, tzinfo=UTC) - EPOCH).total_seconds()) * 1000


def random_start(lo_year: int = 2000, hi_year: int = 2045) -> int:
    """A random instant; some carry milliseconds, which the library drops."""
    ms = rng.randrange(ms_of(lo_year, 1, 1), ms_of(hi_year, 1, 1))
    kind = rng.random()
    if kind < 0.4:
        return ms // 60000 * 60000
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
        if kind < 0.4:
            out.append(t + rng.randrange(-26 * 3600, 3 * 3600) * 1000)
        elif kind < 0.8:
            out.append(t + rng.randrange(-2 * 3600, 2 * 3600) // 60 * 60 * 1000)
        else:
            out.append(t + rng.choice([-60_000, -1000, -1, 0, 1000, 59_000, 1_800_000, 3_599_000]))
    return out


# --- What Healthchecks does with a schedule ------------------------------------------------


def guess_kind(schedule: str) -> str:
    """hc/api/views.py guess_kind: one line of 5 fields is cron, anything else OnCalendar."""
    if "\n" not in schedule.strip() and len(schedule.split()) == 5:
        return "cron"
    return "oncalendar"


def host_dependent_zone(expr: str) -> str | None:
    """A zone named in the expression that this machine's zoneinfo accepts and we do not
    ("Factory", "posix/Europe/Riga", tzdata newer than Healthchecks' list): what the library
    says about it depends on the server's tzdata files, so it is not a golden answer."""
    for line in expr.strip().split("\n"):
        line = line.strip()
        if " " in line:
            name = line.rsplit(maxsplit=1)[1]
            if parse_tz(name) is not None and name not in ALL_ZONES and name not in LEGACY:
                return name
    return None


def hc_valid(expr: str) -> bool:
    """hc/api/views.py Spec.check_schedule, as OnCalendar: guess_kind must say OnCalendar, and
    the library must parse it and find a next time after 2000-01-01 UTC. Any other exception would be a 500 in Healthchecks: none may occur."""
    if guess_kind(expr) != "oncalendar":
        return False
    try:
        next(OnCalendar(expr, datetime(2000, 1, 1, tzinfo=UTC)))
    except (OnCalendarError, StopIteration):
        return False
    return True


# Bound on the library's times looked at per call; the TypeScript port uses the same.
MAX_STEPS = 200_000


def local(ms: int, tz: ZoneInfo) -> datetime:
    return (EPOCH + timedelta(milliseconds=ms)).astimezone(tz)


def hc_next(expr: str, zone: str, start_ms: int) -> tuple[list[int], list[int]]:
    """hc/api/models.py get_grace_start: next(OnCalendar(schedule, last_ping.astimezone(tz))),
    iterated on for COUNT times, with our rule (docs/decisions.md): a time at or before the
    previous one (the start, at first) is dropped and the walk goes on.
    Returns (times, dropped) in epoch seconds."""
    it = OnCalendar(expr, local(start_ms, ZoneInfo(zone)))
    last = start_ms
    times: list[int] = []
    dropped: list[int] = []
    for _ in range(MAX_STEPS):
        if len(times) == COUNT:
            break
        try:
            dt = next(it)
        except StopIteration:
            break
        ms = round((dt.astimezone(UTC) - EPOCH) / timedelta(milliseconds=1))
        assert ms % 1000 == 0
        if ms > last:
            times.append(ms // 1000)
            last = ms
        else:
            dropped.append(ms // 1000)
    else:
        raise AssertionError(("step bound reached", expr, zone, start_ms))
    return times, dropped


# --- Expressions ---------------------------------------------------------------------------

# Hand-picked: the library's own tests, Healthchecks' docs and tests, systemd.time(7), and
# corners of the parser. Separated by "|"; escapes (\n, \t, \u3000) are decoded per expression.
HAND = r"""
12:34|00:00|*:*|*:*:*|*:0/15|*:5/15|*:*:0/5|*:0..10/2|*:1,2,3|*:1..3|*:1..3,7..9:*|11:22|11:22:33|1:1
*-*~1 12:00|*-*~1|*-*~1,8|*-*~1..2,4..5|*-*~1..3|*-*~1..5/2|*-*~3/2|Sun *~7/1|*~1|~1|1~29|*-02~03
2020-01-01 8..9:0:0|2019-01-01|2023-11-30|69-*-*|70-*-*|*-*-5..1|Mon 2-29|Mon, 12:34|Mon,Tue|Mon-Tue
Mon..Tue|Mon|MON|Monday|MONDAY|mon|Mon/1|* 1-1|*,1|*/1|1..*|1-32|1000|-1|ABC|H|1-1|11-30
minutely|MINUTELY|MiNuTeLY|Minutely|hourly|daily|DAILY|monthly|weekly|yearly|annually|quarterly
semiannually|daily Europe/Riga|weekly UTC|secondly|*:*:* surprise|Mon *-*-* *:*:* surprise
12:34 Europe/Riga|12:34 Europe/surprise|12:34 Europe/|Surprise 12:34|12:34\nsurprise|Europe/Riga
 Europe/Riga|Europe/Riga |12:34 europe/riga|12:34 UTC|12:34 Etc/UTC|12:34 US/Eastern|12:34 EST
12:34 GMT|12:34 GMT+0|12:34 Europe/Kyiv|12:34 Asia/Kolkata|12:34 Asia/Calcutta
12:34\tEurope/Riga|12:34  Europe/Riga|Mon..Fri 09:00|Mon..Fri 09:00 America/New_York|Sat,Sun 10:00
Mon-Fri 8..17:00|Mon..Fri *-*-* 8..17:0/30|Fri *-*-13|*-*-13 Fri|Sat *-*-1..7 18:00|*-*-1..7 18:00
00:00\n12:34|2020-01-02\n12:34|2018-01-01\n2019-01-01|00:00 Europe/Riga\n00:00 UTC|daily\nweekly
01:30\n*:0/30 UTC|01:45\n*:0/30 UTC|Mon 01:30\nTue 02:30\nWed 03:30|*:0/20\n*:10/20 Europe/London
02:30|01:30|03:30|00:30|2:30|2:0/15|1:0/15|1..3:0/20|*-*-* 02:30:00|*-*-29 3:30|*-*-25 3:30
*-*-* *:*:30|*:*:59|*-*-* 23:59:59|*-*-31|*-02-29|*-02-30|*-02-29 Mon|Mon *-02-29|2199-12-31
2199-12-31 23:59:59|2200-01-01|1969-01-01|1970-01-01|99-12-31|2024-02-29|24-02-29|2100-02-29
2026-03-08 02:30|2026-11-01 01:30|2026-03-29 03:30 Europe/Riga|*-1/3-1|*-*-1/7|*-*-1..31/10
*-1..12/5-~1|*-*-~28|*-*-~29|*-*-~0|*-*-~1..28|*-*-~~1|*-*-1,~1|*-*-~1,1|*-*-~3..1|*-*-~1..3/2
2020/2-*-*|2020..2030/3-1-1|*-*-* 0/7:0|*-*-* 0..23/7:0|*-*-* 5..5/7:0|*:59/2|*:0/1|*:*/0|*:*/2
*:1,*|*:1..*|*:**|**:*|*:*:*:*|*|*-*|*-*-*-*|2020-1|1-1-1-1|:|1:|:1|12:|*:*:|Mon,|Mon,,|Mon,,Tue
Mon..Fri,|Mon-Wed,Fri|Mon-Tue-Wed|Fri..Mon|Sun..Mon|Mon..Sun|\u017fun|SUNDAY,mon|Tues|Thur|mo
1_0:00|+1:00|01:00|001:00|0x1:00|\uff11:00|1.5:00|12:34:56.5|12:34:60|24:00|12:60|-1:00|1e1:00
Mon *-*-* 12:00:00 Europe/Riga|Mon *-*-* 12:00:00 Europe/Riga x|Mon 12:00 x|x Mon 12:00
\u00a012:34|12:34\u3000|12:34\u3000Europe/Riga|12:34\r|12:34\r\n13:00|\n12:34\n|12:34\n\n13:00
12:34\u2028|12:34\x1c|12:34\u0085Europe/Riga|\u200b12:34|12:34\ufeff|12:\u0663\u0664
00:00 America/New_York\n00:00 Asia/Tokyo\n00:00 Europe/London|*:00 Asia/Kathmandu
*:0/30 Australia/Lord_Howe|*:15,45 Pacific/Chatham|02:00 Antarctica/Troll|*:0/10 Antarctica/Troll
*-*-* *:*:00 America/St_Johns|Mon..Fri 02:30 Europe/Berlin|Sun 01:00..03:00|0 0 * * *|0 0 * *
0 0 * * * *|* * * * *\n12:00|12:00\n0 0 * * *|Mon 1 2 3|Mon 2026-01-01 12:00 UTC|a b c d e
"""


def hand_expressions() -> list[str]:
    exprs = []
    for line in HAND.strip("\n").split("\n"):
        exprs.extend(e.encode("ascii").decode("unicode_escape") for e in line.split("|"))
    return exprs


DAY_NAMES = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
DAY_LONG = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def rand_weekday() -> str:
    def one() -> str:
        i = rng.randrange(7)
        name = rng.choice([DAY_NAMES[i], DAY_LONG[i], DAY_NAMES[i].lower(), DAY_NAMES[i].upper()])
        return name

    r = rng.random()
    if r < 0.4:
        out = one()
    elif r < 0.7:
        a, b = sorted(rng.sample(range(7), 2))
        out = f"{DAY_NAMES[a]}{rng.choice(['..', '-'])}{DAY_NAMES[b]}"
    else:
        out = ",".join(DAY_NAMES[i] for i in sorted(rng.sample(range(7), rng.randint(2, 3))))
    if rng.random() < 0.05:
        out += ","
    return out


def rand_num_field(lo: int, hi: int, hot: list[int] | None = None, width: int = 2) -> str:
    def value() -> str:
        if hot and rng.random() < 0.5:
            v = rng.choice(hot)
        else:
            v = rng.randint(lo, hi)
        return str(v).zfill(width) if rng.random() < 0.5 else str(v)

    r = rng.random()
    if r < 0.25:
        return "*"
    if r < 0.55:
        return value()
    if r < 0.67:
        a, b = sorted([rng.randint(lo, hi), rng.randint(lo, hi)])
        return f"{a}..{b}"
    if r < 0.8:
        return f"{value()}/{rng.choice([1, 2, 3, 5, 7, 10, 15, 20, 30])}"
    if r < 0.87:
        a, b = sorted([rng.randint(lo, hi), rng.randint(lo, hi)])
        return f"{a}..{b}/{rng.randint(1, 6)}"
    return ",".join(value() for _ in range(rng.randint(2, 3)))


def rand_day() -> str:
    r = rng.random()
    if r < 0.7:
        return rand_num_field(1, 31, [1, 15, 28, 29, 30, 31])
    if r < 0.85:
        return "~" + rng.choice([str(rng.randint(1, 7)), f"{rng.randint(1, 3)}..{rng.randint(4, 7)}",
                                 f"{rng.randint(1, 9)}/{rng.randint(1, 4)}"])
    return f"{rng.randint(1, 28)},~{rng.randint(1, 5)}"


def rand_date() -> str:
    year = rng.choice(["*", "*", "*", "2026", "26", "2027..2030", "2024/2", "2026,2028"])
    month = rand_num_field(1, 12, [2, 3, 10, 11])
    day = rand_day()
    if day.startswith("~"):
        return f"{month}{day}" if rng.random() < 0.5 else f"{year}-{month}{day}"
    return f"{month}-{day}" if rng.random() < 0.4 else f"{year}-{month}-{day}"


def rand_time() -> str:
    hour = rand_num_field(0, 23, [0, 1, 2, 3, 23])
    minute = rand_num_field(0, 59, [0, 15, 30, 45, 59])
    if rng.random() < 0.35:
        second = rand_num_field(0, 59, [0, 30, 59])
        return f"{hour}:{minute}:{second}"
    return f"{hour}:{minute}"


ZONE_WORDS = FOCUS + ["US/Eastern", "Europe/Kiev", "GB", "EST5EDT", "Asia/Tokyo"]


def random_line() -> str:
    if rng.random() < 0.05:
        return rng.choice(["daily", "hourly", "weekly", "monthly", "minutely", "quarterly"])
    parts = []
    if rng.random() < 0.3:
        parts.append(rand_weekday())
    if rng.random() < 0.45:
        parts.append(rand_date())
    if rng.random() < 0.85 or not parts:
        parts.append(rand_time())
    if rng.random() < 0.15:
        parts.append(rng.choice(ZONE_WORDS))
    return " ".join(parts)


def random_expression() -> str:
    n = 1 if rng.random() < 0.85 else rng.randint(2, 3)
    return "\n".join(random_line() for _ in range(n))


# Every zone Healthchecks accepts: a few DST-sensitive schedules around its 2026 changes.
SWEEP = ["*:00", "*:30", "*:0/15", "02:30", "01:00", "00:00", "1:0/20", "01:30", "03:00",
         "0..3:0,30", "23:45", "2:*"]


def expressions() -> list[str]:
    exprs = [""] + hand_expressions() + SWEEP
    exprs += [random_expression() for _ in range(420)]
    seen: set[str] = set()
    return [e for e in exprs if not (e in seen or seen.add(e))]  # type: ignore


# --- Cases ---------------------------------------------------------------------------------

# Explicit cases, whatever the seed: the library's DST tests, and repeated hours where it goes
# back in time (a start in the second reading; the merge of lines by local clock).
EXPLICIT = [
    ("*-*-29 3:30", "Europe/Riga", ms_of(2019, 12, 31, 22)),
    ("*-*-25 3:30", "Europe/Riga", ms_of(2020, 9, 30, 21)),
    ("00:00", "UTC", ms_of(2000, 1, 1)),
    ("2019-01-01", "UTC", ms_of(2020, 1, 1)),
    ("12:34 Europe/Riga", "Europe/Berlin", ms_of(2019, 12, 31, 23)),
    ("*:0/15", "America/New_York", ms_of(2026, 11, 1, 6, 30)),  # second reading of 01:30
    ("01:30", "America/New_York", ms_of(2026, 11, 1, 6, 10)),
    ("01:45\n*:0/30 UTC", "America/New_York", ms_of(2026, 11, 1, 4, 50)),  # merge by clock
    ("01:30\n*:0/30 UTC", "America/New_York", ms_of(2026, 11, 1, 4, 50)),
    ("02:30", "America/New_York", ms_of(2026, 3, 7, 12)),  # skipped: the next day
    ("2:0/15", "Europe/Berlin", ms_of(2026, 3, 28, 12)),
    ("*:0/10 Antarctica/Troll", "Antarctica/Troll", ms_of(2026, 10, 25, 1, 30)),
    ("*:0/30 Australia/Lord_Howe", "Australia/Lord_Howe", ms_of(2026, 4, 4, 15, 10)),
    ("*:15,45 Pacific/Chatham", "Pacific/Chatham", ms_of(2026, 4, 4, 14, 20)),
    ("*:*:*", "America/New_York", ms_of(2026, 11, 1, 6, 0, 30)),  # drops a whole hour
    ("Mon..Fri 09:00", "Europe/London", ms_of(2026, 3, 27, 10)),
    ("*-*~1 12:00", "UTC", ms_of(2026, 1, 31, 12)),
]


def is_dst_sensitive(expr: str) -> bool:
    return not re.fullmatch(r"[\d\-\s]+", expr)


def cases_for(expr: str) -> list[tuple[str, int]]:
    out = [(zone, start) for e, zone, start in EXPLICIT if e == expr]
    sensitive = is_dst_sensitive(expr)
    zones = ["UTC", "America/New_York"] + rng.sample(FOCUS[1:], 4 if sensitive else 1)
    zones += rng.sample(ALL_ZONES, 1)
    for zone in dict.fromkeys(zones):
        n_near = 3 if sensitive else 1
        out += [(zone, s) for s in starts_near_changes(zone, n_near)]
        out += [(zone, random_start()) for _ in range(1 if sensitive else 2)]
    return out


def main() -> None:
    rows: dict[str, dict] = {}
    for expr in expressions():
        assert host_dependent_zone(expr) is None, (expr, host_dependent_zone(expr))
        valid = hc_valid(expr)
        rows[expr] = {"expr": expr, "valid": valid, "cases": {}}
        if valid:
            for zone, start in cases_for(expr):
                rows[expr]["cases"].setdefault(zone, []).append(start)
    for e, _, _ in EXPLICIT:
        assert rows[e]["valid"], e
    for zone in ALL_ZONES:
        for expr in rng.sample(SWEEP, 2):
            rows[expr]["cases"].setdefault(zone, []).extend(starts_near_changes(zone, 2))

    n_cases = n_defects = 0
    lines = []
    for row in rows.values():
        cases = {}
        for zone, starts in sorted(row["cases"].items()):
            out = []
            for start in sorted(set(starts)):
                times, dropped = hc_next(row["expr"], zone, start)
                out.append([start, times, dropped] if dropped else [start, times])
                n_cases += 1
                n_defects += bool(dropped)
            cases[zone] = out
        lines.append(json.dumps({"expr": row["expr"], "valid": row["valid"], "cases": cases},
                                ensure_ascii=True, separators=(",", ":")))

    tzdata = Path("/usr/share/zoneinfo/tzdata.zi")
    header = {
        "generator": "scripts/oncalendar-golden/generate.py",
        "oncalendar": library_version(),
        "tzdata": tzdata.read_text().split("\n", 1)[0].split()[-1] if tzdata.exists() else "unknown",
        "seed": SEED,
        "expressions": len(rows),
        "valid": sum(r["valid"] for r in rows.values()),
        "cases": n_cases,
        "defects": n_defects,
        "format": "one JSON object per expression after this line: {expr, valid, cases: {zone: "
                  "[[start epoch ms, [next times epoch s], [dropped: the library's times at or "
                  "before the previous one, epoch s]?]]}}",
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join([json.dumps(header, separators=(",", ":"))] + lines) + "\n")
    print(json.dumps(header, indent=1), file=sys.stderr)


def library_version() -> str:
    try:
        text = (LIB_DIR / "setup.py").read_text()
        return re.search(r'version="([^"]+)"', text).group(1)  # type: ignore
    except (OSError, AttributeError):
        return "unknown"


main()

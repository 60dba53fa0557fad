"""Hostile and careless input at the command line: odd digits, huge numbers, resource bombs,
corrupt or hostile record files, usage errors, failed and interrupted simulations, workers whose
parent is killed, temporaries left by a killed save. Every refusal is one line ``error: …``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text

from apokalypse.cli.session import Session
from apokalypse.engine.record import GameRecord
from apokalypse.engine.registry import get_game
from tests import commands
from tests.helpers import cli, one_line_error

CLI = commands.CLI
CLI_TIMEOUT = 120.0  # seconds a command may run (a hang guard: cli's own default)


@pytest.fixture(scope="module")
def record_json() -> dict[str, Any]:
    from apokalypse.sim.runner import Task, run_game

    outcome = run_game(Task(0, 21, 3, ("random", "random", "random"), (), True))
    assert outcome.record is not None and outcome.error is None
    return outcome.record.to_json()


def write(tmp_path: Path, data: Any, name: str = "game.json") -> Path:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


# --- 1. digits: ASCII only, bounded ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("play", "--humans", "²"), "--humans"),
        (("play", "--humans", "1,٣"), "--humans"),  # Arabic-Indic three: int() would take it
        (("play", "--humans", "9" * 5000), "--humans"),
        (("simulate", "--players", "2-²"), "--players"),
        (("simulate", "--players", "²"), "--players"),
        (("simulate", "--players", "4" * 5000), "--players"),
    ],
)
def test_unicode_digits_and_huge_numbers_are_one_line_errors(tmp_path, args, words):
    assert words in one_line_error(cli(*args, cwd=tmp_path))


def new_session(tmp_path: Path, players: int = 3, seed: int = 7) -> tuple[Session, io.StringIO]:
    game = get_game("apokalypse")
    config = game.config_from_options(players, [], None)
    out = io.StringIO()
    session = Session(
        console=Console(file=out, width=120, color_system=None),
        lang="en",
        state=game.new_game(config, seed),
        record=GameRecord("apokalypse", game.version, config.to_json(), seed),
        path=tmp_path / "game.json",
        humans=frozenset({0}),
        bots={},
    )
    return session, out


def answer(session: Session, line: str) -> bool:
    seat = session.state.to_act
    view = session.seat_view(seat)  # what the prompt shows
    return session.try_line(seat, line, view, list(session.state.legal_actions()))


@pytest.mark.parametrize(
    "line", ["²", "1²", "٣", "9" * 5000, "1" + "0" * 9, "0", "\x1b[2J", "⁹", "１"]
)
def test_the_prompt_refuses_odd_digits_and_huge_numbers(tmp_path, line):
    session, out = new_session(tmp_path)
    before = session.state.observation(None)
    assert answer(session, line) is False
    assert session.record.actions == [] and session.state.observation(None) == before
    assert "\x1b" not in out.getvalue()  # the refusal quotes the input escaped
    assert answer(session, "1") is True  # and the game goes on


# --- 2. resource bombs --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("simulate", "--games", "10000000"), "--games"),
        (("simulate", "--games", "0"), "--games"),
        (("simulate", "--jobs", "0"), "--jobs"),
        (("simulate", "--jobs", "65"), "--jobs"),
        (("bench", "--seconds", "inf"), "--seconds"),
        (("bench", "--seconds", "nan"), "--seconds"),
        (("bench", "--seconds", "1e9"), "--seconds"),
        (("bench", "--seconds", "-1"), "--seconds"),
    ],
)
def test_runs_that_would_never_end_are_refused_at_once(args, words, tmp_path):
    """Refused before any work: the one line of the refusal, nothing else said or written (a run
    begun would print or keep its figures; one that never ends would meet ``cli``'s timeout)."""
    run = cli(*args, cwd=tmp_path)
    assert words in one_line_error(run)
    assert run.stdout == "" and not any(tmp_path.iterdir()), (run.stdout, list(tmp_path.iterdir()))


def test_a_huge_record_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as fh:  # sparse: 33 MiB that take no disk space
        fh.truncate(33 << 20)
    for args in (("replay", str(path)), ("play", "--resume", str(path))):
        assert "MiB" in one_line_error(cli(*args, cwd=tmp_path))
    assert "MiB" in one_line_error(cli("replay", "/dev/zero"))  # endless, never read whole


# --- 3. one line, never a traceback --------------------------------------------------------------


def broken(record: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**json.loads(json.dumps(record)), **fields}


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"\xff\xfe{}", "UTF-8"),
        ("[" * 100_000, "nested"),
        ('{"a": ' * 50_000 + "1" + "}" * 50_000, "nested"),
        ('{"format": 1, "seed": ' + "9" * 5000 + "}", "digits"),
        ('{"format": true}', "format"),
    ],
)
def test_unreadable_files_are_one_line_errors(tmp_path, content, words):
    path = write(tmp_path, content)
    for args in (("replay", str(path)), ("replay", str(path), "--verify")):
        assert words in one_line_error(cli(*args))
    assert words in one_line_error(cli("play", "--resume", str(path), cwd=tmp_path))


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"events_sha256": 5}, "events_sha256"),
        ({"events_sha256": "abc"}, "events_sha256"),
        ({"events_sha256": ["0" * 64]}, "events_sha256"),
        ({"result": "x"}, "result"),
        ({"result": [1]}, "result"),
        ({"seed": True}, "seed"),
        ({"version": "1\x1b[31m"}, "version"),
        ({"meta": [1]}, "meta"),
    ],
)
def test_records_with_wrong_field_types_are_one_line_errors(tmp_path, record_json, fields, words):
    path = write(tmp_path, broken(record_json, **fields))
    for args in (("replay", str(path)), ("replay", str(path), "--verify")):
        line = one_line_error(cli(*args))
        assert words in line and "\x1b" not in line
    assert words in one_line_error(cli("play", "--resume", str(path), cwd=tmp_path))


@pytest.mark.parametrize(
    "meta",
    [
        {"error": {"nested": [1, 2]}},
        {"error": 5, "humans": 7, "bots": [1], "lang": None},
        {"humans": "²", "bots": "random"},
        {"lang": {"x": 1}},
    ],
)
def test_odd_meta_values_never_crash(tmp_path, record_json, meta):
    path = write(tmp_path, broken(record_json, meta=meta))
    run = cli("replay", str(path))
    assert run.returncode == 0, run.stderr
    verify = cli("replay", str(path), "--verify")
    assert verify.returncode == 0, verify.stderr
    resume = cli("play", "--resume", str(path), "--humans", "1", cwd=tmp_path)
    assert "Traceback" not in resume.stderr
    assert resume.returncode in (0, 2), resume.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("simulate", "--games", "abc"), "--games"),
        (("play", "--seed", "abc"), "--seed"),
        (("simulate", "--seed", "abc"), "--seed"),
        (("bench", "--seconds", "abc"), "--seconds"),
        (("frobnicate",), "frobnicate"),
        (("replay",), "file"),
        (("simulate", "--gmes", "3"), "--gmes"),
        (("replay", "x.json", "--seat"), "--seat"),
    ],
)
def test_usage_errors_are_one_line(args, words):
    line = one_line_error(cli(*args))
    assert words in line
    assert not any(box in line for box in "╭│╰")


def test_help_is_unchanged():
    run = cli("--help")
    assert run.returncode == 0 and run.stderr == ""
    assert "Usage: apokalypse" in run.stdout and "simulate" in run.stdout
    sub = cli("simulate", "--help")
    assert sub.returncode == 0 and "--games" in sub.stdout


# --- 4. hostile text is escaped ----------------------------------------------------------------


def test_rich_text_passes_escape_sequences_through():
    """Why :func:`~apokalypse.cli.safe.printable` runs before Rich: Rich keeps ESC."""
    out = io.StringIO()
    Console(file=out, color_system=None).print(Text("a\x1b[31mb"))
    assert "\x1b[31m" in out.getvalue()


def test_printable_escapes_controls_and_keeps_text():
    from apokalypse.cli.safe import printable

    assert printable("p1 spielt Würfel ² ✓") == "p1 spielt Würfel ² ✓"
    assert printable("a\x1b[31mb\x00\x7f\x9b") == "a\\x1b[31mb\\x00\\x7f\\x9b"
    assert printable("rtl\u202eevil\u2028") == "rtl\\u202eevil\\u2028"
    assert printable("one\ntwo") == "one\\x0atwo"
    assert printable("one\ntwo", keep_newlines=True) == "one\ntwo"


def test_replay_escapes_what_the_record_says(tmp_path, record_json):
    hostile = "\x1b[2J\x1b[31mgotcha\x07"
    path = write(tmp_path, broken(record_json, meta={"error": hostile}), "game\x1b[31m.json")
    run = cli("replay", str(path))
    assert run.returncode == 0, run.stderr
    assert "\x1b" not in run.stdout and "\\x1b[2J\\x1b[31mgotcha\\x07" in run.stdout
    bad = write(tmp_path, broken(record_json, actions=["pass", "to p\x1b[31m"]))
    for args in (("replay", str(bad)), ("replay", str(bad), "--verify")):
        run = cli(*args)
        assert run.returncode in (1, 2) and "\x1b" not in run.stderr + run.stdout
        assert run.stderr.count("\n") == 1
    verify = cli("replay", str(path), "--verify")
    assert verify.returncode == 0 and "\x1b" not in verify.stdout


def test_the_terminal_game_escapes_what_it_says(tmp_path):
    session, out = new_session(tmp_path)
    session.say("\x1b[2Jcleared?")
    session.warn("\x1b]0;title\x07")
    assert "\x1b" not in out.getvalue() and "\\x1b[2Jcleared?" in out.getvalue()


# --- 5. simulate's exit status -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--seed", "-1"), "--seed"),
        (("--seed", str(2**64 - 1), "--games", "2"), "--seed"),
        (("--seed", str(2**64), "--games", "1"), "--seed"),
    ],
)
def test_seeds_that_are_no_seeds_are_refused_before_the_first_game(tmp_path, args, words):
    records = tmp_path / "records"
    assert words in one_line_error(cli("simulate", *args, "--records", str(records)))
    assert not records.exists()


def test_the_last_possible_seed_is_still_a_seed():
    run = cli("simulate", "--seed", str(2**64 - 1), "--games", "1", "--players", "2")
    assert run.returncode == 0, run.stderr


# A computer player that answers nonsense on its third decision, put in place for one run of the
# real command (worker processes are forked, so they have it too).
WITH_BROKEN_BOT = """
import sys
from apokalypse.bots.apokalypse import BOTS
class Broken:
    name = "broken"
    blind = False
    def __init__(self, seed):
        self.calls = 0
    def choose(self, observation, legal):
        self.calls += 1
        return "nonsense" if self.calls == 3 else legal[0]
BOTS["broken"] = Broken
from apokalypse.cli.main import app
app()
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_failed_games_give_exit_status_1_after_the_summary(jobs):
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            WITH_BROKEN_BOT,
            "simulate",
            *("-n", "3", "--players", "2"),
            *("--bots", "broken,random", "--jobs", jobs),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert run.stdout.startswith("3 games, 3 errors") and "error game 0" in run.stdout


# --- 6. interrupted and killed runs ------------------------------------------------------------


def start_run(
    tmp_path: Path, jobs: int, runs: list[subprocess.Popen[str]]
) -> tuple[subprocess.Popen[str], Path]:
    records = tmp_path / "records"
    run = subprocess.Popen(
        [
            *CLI,
            "simulate",
            *("--jobs", str(jobs), "--games", "200000", "--players", "2"),
            *("--records", str(records)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "120", "NO_COLOR": "1"},
        start_new_session=True,  # its own process group: whatever is left is killed after
    )
    runs.append(run)  # killed after the test whatever happens
    deadline = time.monotonic() + 120  # a hang guard: a game takes a second, on a busy machine
    while len(list(records.glob("*.json"))) < 3:  # under way, with games finished
        assert run.poll() is None, run.communicate()
        assert time.monotonic() < deadline, "no game finished within two minutes"
        time.sleep(0.05)
    return run, records


@pytest.fixture
def runs() -> Iterator[list[subprocess.Popen[str]]]:
    """Runs started by a test; their process groups are killed afterwards, pass or fail."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for run in started:
        with contextlib.suppress(OSError):
            os.killpg(run.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            run.communicate(timeout=10)


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(p) for p in (task / "children").read_text().split()}
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    """Running: not gone and not a zombie (a dead process its new parent has not reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def outliving(pids: set[int], seconds: float = 30) -> list[int]:
    """Those of ``pids`` still running once all have ended or ``seconds`` have passed: polled,
    so a slow machine waits longer and a fast one not at all."""
    deadline = time.monotonic() + seconds
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_workers_die_with_their_killed_parent(tmp_path, runs):
    run, _ = start_run(tmp_path, 2, runs)
    deadline = time.monotonic() + 30
    while len(workers := children(run.pid)) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    run.kill()  # SIGKILL: no handler runs, no cleanup
    run.communicate()
    left = outliving(workers)
    for pid in left:  # do not leave them behind for the next test
        os.kill(pid, signal.SIGKILL)
    assert not left, "worker processes outlived their parent"


@pytest.mark.parametrize(
    ("jobs", "sig"), [(2, signal.SIGINT), (2, signal.SIGTERM), (1, signal.SIGINT)]
)
def test_an_interrupted_run_keeps_what_finished(tmp_path, runs, jobs, sig):
    run, records = start_run(tmp_path, jobs, runs)
    workers = children(run.pid)
    run.send_signal(sig)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 128 + sig, (out[-500:], err[-2000:])  # 130 Ctrl-C, 143 SIGTERM
    assert "Traceback" not in err
    finished = int(out.split(" games,", 1)[0])
    assert f"interrupted after {finished} of 200000 games" in err
    assert len(list(records.glob("game-*.json"))) == finished > 0
    assert not list(records.glob(".*.tmp"))
    assert not outliving(workers), "worker processes outlived the interrupted run"


# --- 7. temporaries a killed save left behind --------------------------------------------------


def stale_temporary(folder: Path, name: str, age: float = 3600, token: str = "ab_cd123") -> Path:
    path = folder / f".{name}.{token}.tmp"  # as tempfile.mkstemp names them in save()
    path.write_bytes(b"")
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_play_removes_its_save_s_stale_temporaries(tmp_path):
    stale = stale_temporary(tmp_path, "game.json")
    other = stale_temporary(tmp_path, "other.json")  # another save's: not this game's business
    # A save under way: touched as late as the command can look at it (its time set ahead by
    # the command's whole timeout, so that a busy machine's slow start does not age it).
    fresh = stale_temporary(tmp_path, "game.json", age=-CLI_TIMEOUT, token="zz_zz999")
    run = cli("play", "-p", "2", "--bots", "random", "--seed", "3", "--save", "game.json",
              cwd=tmp_path, stdin="1\n", timeout=CLI_TIMEOUT)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "game.json").exists()
    assert not stale.exists() and other.exists() and fresh.exists()


def test_simulate_removes_stale_temporaries_in_its_records_folder(tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    stale = stale_temporary(records, "game-000000-seed-0.json")
    run = cli("simulate", "-n", "1", "--players", "2", "--records", str(records))
    assert run.returncode == 0, run.stderr
    assert not stale.exists() and len(list(records.glob("*.json"))) == 1


def test_remove_stale_temporaries_leaves_other_files(tmp_path):
    from apokalypse.engine.record import remove_stale_temporaries

    save = tmp_path / "game.json"
    save.write_text("{}")
    keep = [tmp_path / ".game.json.tmp", tmp_path / "game.json.ab_cd123.tmp", save]
    for path in keep[:2]:
        path.write_text("")
    stale = stale_temporary(tmp_path, "game.json")
    assert remove_stale_temporaries(save) == 1
    assert not stale.exists() and all(p.exists() for p in keep)
    assert remove_stale_temporaries(tmp_path / "missing" / "x.json") == 0

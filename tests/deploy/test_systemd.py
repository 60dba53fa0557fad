"""The systemd units of ``deploy/systemd/`` (``docs/hosting.md``, "Running it as a service"), as
far as a machine whose first process is not systemd can check them:

- ``systemd-analyze verify`` finds nothing to say of ``apokalypse@.service`` (and does speak up
  when the file is wrong, so its silence means something);
- ``systemd-analyze security --offline`` rates its hardening at most 2.0 ("OK"), with the
  settings the guide promises: its own user, a read-only system but for its state directory,
  no new privileges, restarted on failure only;
- the command line it starts, run as the unit spells it (its port from the instance name, the
  options from the environment file), serves, and stops on the unit's ``KillSignal`` within its
  ``TimeoutStopSec`` with status 0, so that ``Restart=on-failure`` leaves a stopped server
  stopped;
- every option the example environment file names is one ``apokalypse serve`` has.

Starting the unit under systemd itself (its user, its sandbox) needs a machine booted with
systemd, which the test machines are not.
"""

from __future__ import annotations

import re
import shlex
import shutil
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from apokalypse.server.serving import GRACEFUL_SECONDS
from tests.helpers import cli, create
from tests.server.served import APOKALYPSE, START, Server, free_port
from tests.services import missing

SYSTEMD = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
UNIT = SYSTEMD / "apokalypse@.service"
PROGRAM = "/opt/apokalypse/.venv/bin/apokalypse"  # where the guide installs it


def settings() -> dict[str, list[str]]:
    """The unit's settings, each key's values in order (a key may be given more than once)."""
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


def one(key: str) -> str:
    values = settings()[key]
    assert len(values) == 1, (key, values)
    return values[0]


def seconds(value: str) -> float:
    number = re.fullmatch(r"(\d+)(s?)", value)
    assert number is not None, value
    return float(number[1])


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    if shutil.which("systemd-analyze") is None:
        missing("systemd-analyze is missing: apt-get install systemd")
    return subprocess.run(
        ["systemd-analyze", *args], capture_output=True, text=True, timeout=60, check=False
    )


def installed(folder: Path, text: str | None = None) -> Path:
    """The unit (or ``text`` in its place) as installed here, the program being this checkout's
    (``verify`` checks that it exists); the path of its instance for port 8001."""
    folder.mkdir(parents=True, exist_ok=True)
    unit = (UNIT.read_text() if text is None else text).replace(PROGRAM, str(APOKALYPSE))
    (folder / UNIT.name).write_text(unit)
    return folder / "apokalypse@8001.service"


def test_systemd_verifies_the_unit_without_a_word(tmp_path: Path) -> None:
    checked = analyze("verify", str(installed(tmp_path / "good")))
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")
    # It reads the file: a mistake in it is named …
    wrong = UNIT.read_text().replace("Restart=on-failure", "Restart=sometimes")
    complained = analyze("verify", str(installed(tmp_path / "wrong", wrong)))
    assert "restart specifier" in complained.stderr, complained.stderr
    # … and so is a program that is not where the unit starts it.
    absent = UNIT.read_text().replace(PROGRAM, "/nonexistent/apokalypse")
    failed = analyze("verify", str(installed(tmp_path / "absent", absent)))
    assert failed.returncode != 0 and "/nonexistent/apokalypse" in failed.stderr


def test_the_unit_is_hardened_as_the_guide_says(tmp_path: Path) -> None:
    # --threshold counts in tenths of the level shown: 20 is 2.0.
    rated = analyze(
        "security", "--offline=true", "--threshold=20", "--no-pager", str(installed(tmp_path))
    )
    assert rated.returncode == 0, rated.stdout[-3000:] + rated.stderr
    assert "Overall exposure level for apokalypse@8001.service" in rated.stdout
    assert one("User") == one("Group") == "apokalypse"
    assert one("NoNewPrivileges") == "yes" and one("ProtectSystem") == "strict"
    state = f"/var/lib/{one('StateDirectory')}"
    assert one("ReadWritePaths") == one("WorkingDirectory") == state
    assert one("Restart") == "on-failure" and one("KillSignal") == "SIGTERM"
    # The graceful stop (at most GRACEFUL_SECONDS for the requests under way) fits in the time
    # systemd gives before it kills.
    assert seconds(one("TimeoutStopSec")) >= 2 * GRACEFUL_SECONDS
    assert one("ExecStart").startswith(f"{PROGRAM} serve --host 127.0.0.1 --port %i ")


@pytest.mark.long(22)
def test_the_command_it_starts_serves_and_stops_on_its_kill_signal(tmp_path: Path) -> None:
    port = free_port()
    options = f"--database-url sqlite:///{tmp_path / 'apokalypse.sqlite3'}"
    line = (
        one("ExecStart")
        .replace(PROGRAM, str(APOKALYPSE))
        .replace("%i", str(port))
        .replace("$APOKALYPSE_OPTIONS", options)
    )
    log = tmp_path / "stderr.log"
    process = subprocess.Popen(
        shlex.split(line), cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=log.open("wb")
    )
    try:
        served = Server(tmp_path / "apokalypse.sqlite3")
        served.port = port
        deadline = time.monotonic() + START
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"{served.http}/api/games/none", timeout=1).status_code == 404:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"the server did not answer within {START} s"
            time.sleep(0.1)
        create(served)
        process.send_signal(getattr(signal, one("KillSignal")))
        status = process.wait(timeout=seconds(one("TimeoutStopSec")))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert status == 0, f"a stop asked for must not count as a failure: {log.read_text()}"


def test_the_example_options_are_serve_options() -> None:
    example = (SYSTEMD / "serve.env.example").read_text()
    lines = re.findall(r"^#?APOKALYPSE_OPTIONS=(.*)$", example, re.MULTILINE)
    assert len(lines) == 2, example
    named = {word for options in lines for word in options.split() if word.startswith("--")}
    assert {"--database-url", "--redis-url", "--public-url", "--forwarded-allow-ips"} <= named
    helped = cli("serve", "--help")
    assert helped.returncode == 0, helped.stderr
    for option in named:
        assert option in helped.stdout, option
    # and the unit reads the file that the example is for
    assert one("EnvironmentFile") == "-/etc/apokalypse/serve.env"

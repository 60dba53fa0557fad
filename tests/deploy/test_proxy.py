""":mod:`apokalypse.bench.proxy` on this machine's loopback: the repository's nginx site file
rendered for any number of server processes and accepted by nginx, values that would break its
syntax refused, and a real nginx with a certificate from :func:`proxy.self_signed` that a Python
client trusts, skipping a dead upstream and logging no query string. (The whole deployment, with
a browser on another host, is ``test_deployment.py``.)"""

from __future__ import annotations

import http.server
import re
import shutil
import ssl
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from apokalypse.bench import proxy
from tests.server.served import free_port
from tests.services import missing

TIMEOUT = 10.0
SECRET = "s3cr3t-seat-token"


@pytest.fixture
def nginx_program() -> str:
    """nginx, and the openssl command that :func:`proxy.self_signed` runs."""
    if shutil.which("openssl") is None:
        missing("the openssl command is missing: apt-get install openssl (.ci/run does)")
    try:
        return proxy.nginx_program()
    except proxy.ProxyError as exc:
        missing(f"{exc} (.ci/run installs it)")
        raise


def rendered(tmp_path: Path, **changes: object) -> str:
    """The repository's site file rendered with example values, ``changes`` applied."""
    values: dict[str, object] = {
        "upstreams": ["127.0.0.1:8001"],
        "listen": "127.0.0.1",
        "https_port": 8443,
        "http_port": 8080,
        "cert": tmp_path / "cert.pem",
        "key": tmp_path / "key.pem",
        "server_name": "games.example.org",
        "log_dir": tmp_path,
        **changes,
    }
    return proxy.render(proxy.TEMPLATE.read_text(), **values)  # type: ignore[arg-type]


def test_the_site_file_renders_for_any_number_of_processes(
    tmp_path: Path, nginx_program: str
) -> None:
    upstreams = ["127.0.0.1:8001", "127.0.0.1:8002", "127.0.0.1:8003"]
    site = rendered(tmp_path, upstreams=upstreams)
    lines = [line for line in site.splitlines() if not line.lstrip().startswith("#")]
    servers = [line.split()[1] for line in lines if line.strip().startswith("server 127.")]
    assert servers == upstreams
    assert not any(re.search(r"@[A-Z_]+@", line) for line in lines), site
    # The comments stay as written: the operator's instructions, placeholders and all.
    assert "s/@SERVER_NAME@/games.example.org/g" in site
    assert "return 301 https://games.example.org:8443$request_uri;" in site

    # nginx itself accepts it, with a certificate in place (it reads the files to test).
    cert, key = proxy.self_signed(tmp_path, "games.example.org")
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    site = rendered(tmp_path, upstreams=upstreams, cert=cert, key=key, log_dir=prefix / "logs")
    config = proxy.layout(prefix, site)
    checked = subprocess.run(
        [nginx_program, "-t", *proxy.arguments(prefix, config)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    "changes",
    [
        {"upstreams": []},
        {"upstreams": ["127.0.0.1:8001; evil"]},
        {"server_name": "a.example.org b.example.org"},
        {"server_name": "$host"},
        {"cert": Path("/etc/my certs/cert.pem")},
        {"log_dir": Path('/var/log/"nginx')},
        {"listen": "127.0.0.1;"},
    ],
)
def test_values_that_would_change_the_configuration_are_refused(
    tmp_path: Path, changes: dict[str, object]
) -> None:
    with pytest.raises(proxy.ProxyError):
        rendered(tmp_path, **changes)


def test_a_placeholder_left_over_is_refused(tmp_path: Path) -> None:
    template = "server {\n    listen @LISTEN@:@HTTPS_PORT@ ssl;\n    root @WEB_ROOT@;\n}\n"
    with pytest.raises(proxy.ProxyError, match="@WEB_ROOT@"):
        proxy.render(
            template,
            upstreams=["127.0.0.1:1"],
            listen="127.0.0.1",
            https_port=1,
            http_port=2,
            cert=tmp_path,
            key=tmp_path,
            server_name="x",
            log_dir=tmp_path,
        )


class Answer(http.server.BaseHTTPRequestHandler):
    """A server process stand-in: answers every GET with the path it was sent."""

    def do_GET(self) -> None:
        body = self.path.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # the test reads nginx's log, not this one


@pytest.fixture
def upstream() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=TIMEOUT)


def test_nginx_skips_a_dead_process_and_logs_no_query_string(
    tmp_path: Path, nginx_program: str, upstream: str
) -> None:
    cert, key = proxy.self_signed(tmp_path, "127.0.0.1")
    trust = ssl.create_default_context(cafile=str(cert))  # the certificate itself, nothing else
    dead = f"127.0.0.1:{free_port()}"  # nothing listens there
    logs = tmp_path / "logs"
    https_port, http_port = free_port(), free_port()
    with proxy.nginx(
        [dead, upstream], "127.0.0.1", https_port, http_port, cert, key, keep_logs=logs
    ) as served:
        assert served.url == f"https://127.0.0.1:{https_port}"
        with httpx.Client(verify=trust, timeout=TIMEOUT) as client:
            for n in range(4):  # round robin: the dead one's turns go to the live one
                answer = client.get(f"{served.url}/games/g{n}?token={SECRET}")
                assert answer.status_code == 200, answer.text
                assert answer.text == f"/games/g{n}?token={SECRET}"  # the query reaches it
                assert answer.headers["referrer-policy"] == "no-referrer"
                assert answer.headers["strict-transport-security"].startswith("max-age=")
            plain = client.get(f"{served.http_url}/games/g?token={SECRET}")
            assert plain.status_code == 301
            assert plain.headers["location"] == f"{served.url}/games/g?token={SECRET}"
            assert client.get(f"{served.url}/metrics").status_code == 403
        process = served.process
    assert process.returncode is not None  # stopped, and its prefix is gone
    assert not served.prefix.exists()

    for path in logs.iterdir():  # no token, nor any query string
        assert SECRET not in path.read_text() and "?" not in path.read_text(), path.name
    access = (logs / "apokalypse.access.log").read_text()
    assert f"upstream={dead}, {upstream} status=502, 200" in access, access  # skipped once
    assert '"GET /games/g3 HTTP/1.1" 200 ' in access, access

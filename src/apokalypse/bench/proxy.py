"""A real nginx in front of server processes, configured by the site file operators deploy.

:func:`nginx` renders ``deploy/nginx/apokalypse.conf`` (the repository's nginx site for
Apokalypse: TLS, the HTTP→HTTPS redirect, WebSockets, several ``apokalypse serve`` processes, the
logs without query strings) for given upstreams, addresses and certificate, and runs nginx on it
in a temporary prefix of its own (configuration, pid file, logs, temp folders), in the
foreground, until the ``with`` block ends. Used by the deployment test (``tests/deploy``) and
meant for the load benchmark's runs behind a proxy. The file rendered is the file deployed: the
only difference is the few ``@NAME@`` placeholders (:func:`render`).

The certificate is the caller's (``cert``: the chain, leaf first; ``key``: its private key): a
deployment has its own, a test makes one with its CA (``trustme``, a dev dependency) so that
the client trusts exactly that chain, and :func:`self_signed` makes one with the ``openssl``
command for a quick local run, with no Python dependency the package does not already ship.

The site file lives in the repository (``deploy/``), where the hosting guide points operators;
this module finds it from its own place in a source checkout (an editable install, as
``make`` makes). An installed wheel holds no ``deploy/``: pass ``template`` then.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parents[3] / "deploy" / "nginx" / "apokalypse.conf"
START_SECONDS = 10.0  # nginx answers within milliseconds; slower means something is wrong
STOP_SECONDS = 10.0
PLACEHOLDER = re.compile(r"@[A-Z][A-Z_]*@")
# What no value written into the configuration may hold: in a path, a name or an address, one of
# these would end a directive or a block, start a comment or a variable ($), or need quoting.
UNSAFE = re.compile(r'[\s"\'$;{}\\#]')


class ProxyError(Exception):
    """nginx is missing, refused its configuration, or did not come up; the message says why."""


@dataclass(frozen=True)
class Proxy:
    """A running nginx: its addresses and files."""

    url: str  # https://SERVER_NAME:HTTPS_PORT, the address people open
    http_url: str  # http://SERVER_NAME:HTTP_PORT, which only redirects to ``url``
    prefix: Path  # nginx's prefix: conf/, logs/, temp/, nginx.pid
    access_log: Path
    error_log: Path  # the site's (crit and worse: no request lines, see the site file)
    main_log: Path  # nginx's own (start, stop, configuration warnings)
    process: subprocess.Popen[bytes]


def nginx_program() -> str:
    """The nginx executable: on PATH, else Debian's /usr/sbin/nginx (not on a user's PATH)."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if found is None:
        raise ProxyError("nginx is not installed (Debian: apt-get install nginx-light or nginx)")
    return found


def _safe(name: str, value: str) -> str:
    if not value or UNSAFE.search(value):
        raise ProxyError(f"{name} {value!r} is empty or holds a character nginx would misread")
    return value


def _host(address: str) -> str:
    """An address as a URL's host: IPv6 in brackets."""
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def render(
    template: str,
    *,
    upstreams: Sequence[str],
    listen: str,
    https_port: int,
    http_port: int,
    cert: Path,
    key: Path,
    server_name: str,
    log_dir: Path,
) -> str:
    """The site file ``template`` with its placeholders filled in.

    A line holding ``@UPSTREAM@`` is repeated once per upstream (``host:port``); comment lines
    are left as they are (they hold examples of placeholders, not configuration). Raises
    :class:`ProxyError` when a placeholder is left over or a value could break the syntax."""
    if not upstreams:
        raise ProxyError("no upstream: nginx needs at least one server process")
    values = {
        "@SERVER_NAME@": _safe("server name", server_name),
        "@LISTEN@": _safe("listen address", _host(listen)),
        "@HTTPS_PORT@": str(int(https_port)),
        "@HTTP_PORT@": str(int(http_port)),
        "@CERTIFICATE@": _safe("certificate", str(cert)),
        "@CERTIFICATE_KEY@": _safe("certificate key", str(key)),
        "@LOG_DIR@": _safe("log folder", str(log_dir)),
    }
    lines: list[str] = []
    for line in template.splitlines():
        if line.lstrip().startswith("#"):
            lines.append(line)
            continue
        copies = (
            [line.replace("@UPSTREAM@", _safe("upstream", upstream)) for upstream in upstreams]
            if "@UPSTREAM@" in line
            else [line]
        )
        for copy in copies:
            for placeholder, value in values.items():
                copy = copy.replace(placeholder, value)
            left = PLACEHOLDER.search(copy)
            if left is not None:
                raise ProxyError(f"the site file has a placeholder {left.group()} not filled in")
            lines.append(copy)
    return "\n".join(lines) + "\n"


def _worker_user() -> str:
    """nginx's ``user`` directive for this instance.

    Started by root, nginx runs its workers as another user (by default ``nobody`` with the
    group ``nobody``, which Debian does not have): ``nobody`` with its own group here, as an
    operator's www-data. Started by anyone else, the workers stay that user and the directive
    would only be warned about."""
    if os.geteuid() != 0:
        return ""
    try:
        nobody = pwd.getpwnam("nobody")
        group = grp.getgrgid(nobody.pw_gid).gr_name
    except KeyError:  # no such user: root, in the temporary prefix only it can write to
        return "user root;\n"
    return f"user nobody {group};\n"


def main_config(prefix: Path, site: Path) -> str:
    """nginx.conf of one instance: everything in ``prefix``, the site file included."""
    _safe("prefix", str(prefix))  # written unquoted below, as are the paths under it
    temp = prefix / "temp"
    paths = {kind: temp / kind for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    return (
        "# One nginx instance of apokalypse.bench.proxy: its files in its own prefix.\n"
        + _worker_user()
        + "worker_processes 1;\n"
        # Every player is two connections through nginx (theirs and the one to a server): the
        # load benchmark's 800 players need more than nginx's default 1,024 (Debian's: 768).
        + "worker_rlimit_nofile 16384;\n"
        + f"pid {prefix / 'nginx.pid'};\n"
        + f"error_log {prefix / 'logs' / 'nginx.log'} warn;\n"
        + "events {\n    worker_connections 8192;\n}\n"
        + "http {\n"
        + "    default_type application/octet-stream;\n"
        # nginx's compiled-in temp folders are the system's (/var/lib/nginx): ours instead.
        + "".join(f"    {kind}_temp_path {path};\n" for kind, path in paths.items())
        + f"    include {site};\n"
        + "}\n"
    )


def layout(prefix: Path, site: str) -> Path:
    """Lay out an instance in the empty folder ``prefix``: conf/ (the rendered ``site`` and the
    nginx.conf including it), logs/ and temp/. The nginx.conf's path."""
    for folder in ("conf", "logs", "temp"):
        (prefix / folder).mkdir()
    (prefix / "conf" / "apokalypse.conf").write_text(site)
    config = prefix / "conf" / "nginx.conf"
    config.write_text(main_config(prefix, prefix / "conf" / "apokalypse.conf"))
    return config


def arguments(prefix: Path, config: Path) -> list[str]:
    """nginx's arguments for the instance in ``prefix`` (add ``-t`` to only check it). -e: its
    own log from the very start, before the configuration names one (Debian's nginx would
    otherwise write to stderr, another build to a system path)."""
    return ["-p", f"{prefix}/", "-c", str(config), "-e", str(prefix / "logs" / "nginx.log")]


def _answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=0.5).close()
    except OSError:
        return False
    return True


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Fast shutdown (SIGTERM: open WebSockets would hold a graceful one for an hour), then the
    whole process group (master and workers) killed if it lingers."""
    if process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=STOP_SECONDS)
    # The workers leave with their master; one left behind by a killed master is in the group
    # of its own that this instance was started in.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.wait(timeout=STOP_SECONDS)


@contextlib.contextmanager
def nginx(
    upstreams: Sequence[str],
    listen: str,
    https_port: int,
    http_port: int,
    cert: Path,
    key: Path,
    server_name: str | None = None,
    template: Path = TEMPLATE,
    keep_logs: Path | None = None,
) -> Iterator[Proxy]:
    """nginx on ``listen`` (HTTPS on ``https_port``, redirecting HTTP on ``http_port``) in front
    of ``upstreams`` (``host:port`` of ``apokalypse serve`` processes), with the certificate
    ``cert``/``key`` for ``server_name`` (default: ``listen``), until the block ends.

    ``keep_logs``: a folder the logs are copied into after nginx stopped (every line written by
    then), to look at afterwards; the prefix itself is removed."""
    if not template.is_file():
        raise ProxyError(
            f"no nginx site file at {template}: it is in the repository's deploy/nginx/"
            " (pass template=PATH when running from an installed package)"
        )
    name = server_name if server_name is not None else listen
    program = nginx_program()
    # Not pytest's tmp_path nor the caller's: the workers (user nobody when started by root)
    # must reach the temp folders, so every folder above them must let others through.
    prefix = Path(tempfile.mkdtemp(prefix="apokalypse-nginx-"))
    try:
        prefix.chmod(0o755)
        logs = prefix / "logs"
        site = render(
            template.read_text(),
            upstreams=upstreams,
            listen=listen,
            https_port=https_port,
            http_port=http_port,
            cert=cert,
            key=key,
            server_name=name,
            log_dir=logs,
        )
        main_log = logs / "nginx.log"
        command = [program, *arguments(prefix, layout(prefix, site))]
        # stderr into a file, never an unread pipe; its own process group, so that a worker
        # left behind can be found and killed with it (see _stop).
        with (logs / "stderr.log").open("wb") as stderr:
            process = subprocess.Popen(
                [*command, "-g", "daemon off;"],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        try:
            # Where to see it listen: the address itself (an IPv6 one without its brackets),
            # or loopback for "every address".
            host = listen.strip("[]") if listen not in ("*", "0.0.0.0", "[::]") else "127.0.0.1"
            deadline = time.monotonic() + START_SECONDS
            while not (_answers(host, https_port) and _answers(host, http_port)):
                if process.poll() is not None:
                    said = [
                        path.read_text(errors="replace")
                        for path in (logs / "stderr.log", main_log)
                        if path.exists()
                    ]
                    raise ProxyError(f"nginx ended at its start: {' '.join(said).strip()}")
                if time.monotonic() > deadline:
                    raise ProxyError(f"nginx did not listen within {START_SECONDS} s")
                time.sleep(0.05)
            yield Proxy(
                url=f"https://{_host(name)}:{https_port}",
                http_url=f"http://{_host(name)}:{http_port}",
                prefix=prefix,
                access_log=logs / "apokalypse.access.log",
                error_log=logs / "apokalypse.error.log",
                main_log=main_log,
                process=process,
            )
        finally:
            _stop(process)
            if keep_logs is not None:
                shutil.copytree(logs, keep_logs, dirs_exist_ok=True)
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def self_signed(folder: Path, name: str, days: int = 7) -> tuple[Path, Path]:
    """A self-signed certificate for ``name`` (a host name or an IP address) and its key, made
    with the ``openssl`` command into ``folder``: (certificate, key). A client trusts it by
    taking the certificate itself as its CA file (``ssl.create_default_context(cafile=…)``)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise ProxyError("the openssl command is not installed (Debian: apt-get install openssl)")
    try:
        import ipaddress

        ipaddress.ip_address(name)
        alt = f"IP:{name}"
    except ValueError:
        alt = f"DNS:{_safe('name', name)}"
    cert, key = folder / "proxy-cert.pem", folder / "proxy-key.pem"
    made = subprocess.run(
        [
            openssl,
            *("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"),
            *("-nodes", "-days", str(days), "-subj", "/CN=apokalypse test proxy"),
            *("-addext", f"subjectAltName={alt}"),
            *("-keyout", str(key), "-out", str(cert)),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        raise ProxyError(f"openssl could not make a certificate: {made.stderr.strip()}")
    key.chmod(0o600)
    return cert, key

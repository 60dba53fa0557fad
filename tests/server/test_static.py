"""The built pages' files from the real ``apokalypse serve`` process (server/precompressed.py):
compressed at build time and sent in the coding the client accepts (brotli before gzip, the plain
file to a client that accepts neither), each variant's bytes the plain file's once unpacked; the
hashed assets cached for good and the pages never; HEAD and conditional requests as for GET."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from apokalypse.server import pages, precompressed

from .served import TIMEOUT, Server, started

IMMUTABLE = "public, max-age=31536000, immutable"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with started(Server(tmp_path_factory.mktemp("static") / "db.sqlite3")) as running:
        yield running
    assert "Traceback" not in running.errors(), running.errors()


@dataclass
class Answer:
    status: int
    headers: httpx.Headers
    body: bytes  # as sent: never unpacked


def raw(url: str, accept_encoding: str | None, method: str = "GET", **more: str) -> Answer:
    """The answer to ``url``; ``accept_encoding`` None sends no Accept-Encoding header at all;
    ``more``: further request headers (if_none_match=…)."""
    with httpx.Client(timeout=TIMEOUT) as client:
        request = client.build_request(method, url)
        del request.headers["accept-encoding"]  # httpx's own default
        if accept_encoding is not None:
            request.headers["accept-encoding"] = accept_encoding
        for name, value in more.items():
            request.headers[name.replace("_", "-")] = value
        response = client.send(request, stream=True)
        try:
            body = b"".join(response.iter_raw())
        finally:
            response.close()
        return Answer(response.status_code, response.headers, body)


def unbrotli(data: bytes) -> bytes:
    """Brotli's decompression by Node's zlib (the build's own compressor; Python has none)."""
    node = shutil.which("node")
    assert node is not None, "node builds the pages and unpacks brotli here"
    script = (
        "const z=require('zlib');const c=[];process.stdin.on('data',d=>c.push(d));"
        "process.stdin.on('end',()=>process.stdout.write(z.brotliDecompressSync(Buffer.concat(c))))"
    )
    done = subprocess.run([node, "-e", script], input=data, capture_output=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def assets(served: Server) -> list[str]:
    """The lobby's script and style sheet, as the page names them."""
    lobby = httpx.get(f"{served.http}/", timeout=TIMEOUT).text
    found = re.findall(r'(?:src|href)="(/static/assets/[^"]+\.(?:js|css))"', lobby)
    assert {path.rsplit(".", 1)[1] for path in found} == {"js", "css"}, lobby
    return found


def test_each_coding_is_the_plain_file_once_unpacked(served: Server) -> None:
    for path in [*assets(served), "/"]:
        url = f"{served.http}{path}"
        plain = raw(url, None)
        assert plain.status == 200, (path, plain.status)
        assert "content-encoding" not in plain.headers, path
        assert plain.headers["vary"] == "Accept-Encoding", path
        for asked, coding, unpack in (
            ("gzip, deflate, br, zstd", "br", unbrotli),  # what Chromium asks
            ("br;q=1.0, gzip;q=0.8, *;q=0.1", "br", unbrotli),
            ("gzip", "gzip", gzip.decompress),
            ("gzip, br;q=0", "gzip", gzip.decompress),
            ("*", "br", unbrotli),
        ):
            packed = raw(url, asked)
            assert packed.status == 200, (path, asked)
            assert packed.headers["content-encoding"] == coding, (path, asked)
            assert packed.headers["vary"] == "Accept-Encoding", (path, asked)
            assert packed.headers["content-type"] == plain.headers["content-type"], (path, asked)
            assert int(packed.headers["content-length"]) == len(packed.body) < len(plain.body)
            assert packed.headers["etag"] != plain.headers["etag"], (path, asked)
            assert unpack(packed.body) == plain.body, (path, asked)
        for asked in ("identity", "deflate", "gzip;q=0, br;q=0", "compress", ""):
            same = raw(url, asked)
            assert "content-encoding" not in same.headers, (path, asked)
            assert same.body == plain.body, (path, asked)


def test_hashed_assets_are_immutable_and_pages_never_stored(served: Server) -> None:
    for path in assets(served):
        for asked in (None, "gzip", "br"):
            response = raw(f"{served.http}{path}", asked)
            assert response.headers["cache-control"] == IMMUTABLE, (path, asked)
    for path in ("/", "/games/some-game", "/games/some-game/replay", "/replay"):
        for asked in (None, "br"):
            response = raw(f"{served.http}{path}", asked)
            assert response.headers["cache-control"] == "no-store", (path, asked)
    # A file under /static that is not named by its content is revalidated, never kept blind.
    response = raw(f"{served.http}/static/lobby.html", "br")
    assert response.status == 200 and response.headers["cache-control"] == "no-cache"
    assert not precompressed.HASHED.fullmatch("lobby.html")
    assert not precompressed.HASHED.fullmatch("assets/lobby.js")


def test_head_and_conditional_requests_answer_as_get(served: Server) -> None:
    path = assets(served)[0]
    url = f"{served.http}{path}"
    for asked in (None, "gzip", "br"):
        got = raw(url, asked)
        head = raw(url, asked, method="HEAD")
        assert head.status == 200 and head.body == b"", asked
        for name in ("content-type", "content-length", "etag", "cache-control", "vary"):
            assert head.headers[name] == got.headers[name], (asked, name)
        assert head.headers.get("content-encoding") == got.headers.get("content-encoding")
        # The ETag is the variant's: a cache that kept this one gets a 304 for it.
        again = raw(url, asked, if_none_match=got.headers["etag"])
        assert again.status == 304 and again.body == b"", asked
    missing = raw(f"{served.http}/static/assets/nothing-AAAAAAAA.js", "br")
    assert missing.status == 404


def test_the_build_wrote_both_variants_beside_each_asset() -> None:
    built = [
        path
        for path in (pages.DIST / "assets").iterdir()
        if path.suffix in (".js", ".css") and path.stat().st_size >= 1024
    ]
    assert built, pages.DIST
    for path in built:
        for suffix in (".gz", ".br"):
            assert path.with_name(path.name + suffix).is_file(), (path, suffix)
    assert gzip.decompress(Path(f"{built[0]}.gz").read_bytes()) == built[0].read_bytes()

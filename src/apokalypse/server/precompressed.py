"""The built pages' files as the browser takes them: compressed at build time, cached for good where
their names change with their content.

The build (``web/vite.config.ts``) writes each compressible file beside itself gzipped (``.gz``)
and brotli-compressed (``.br``). A request whose ``Accept-Encoding`` allows brotli (preferred) or
gzip is answered with that variant's bytes, ``Content-Encoding`` naming it; any other gets the
plain file. Every answer for a file that has variants says ``Vary: Accept-Encoding``, so that a
cache between keeps them apart. Nothing is compressed while serving: no brotli library is needed,
and no request costs more than reading a file.

The hashed assets (``/static/assets/name-HASH.js``: Vite names each by its content) never change
under their name: cached for a year, ``immutable``. Anything else under ``/static`` is revalidated
(``no-cache``: its ETag answers 304 when unchanged); the pages themselves keep their own headers
(``pages.py``: never stored).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from mimetypes import guess_type
from pathlib import Path

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

# The codings the build writes, best first, and the suffix of each one's file.
VARIANTS = (("br", ".br"), ("gzip", ".gz"))
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# A Vite asset's name: assets/<name>-<8 characters of its content's hash>.<ext>
HASHED = re.compile(r"assets/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+")


def qualities(accept_encoding: str | None) -> dict[str, float]:
    """The codings an ``Accept-Encoding`` header names, each with its quality (1 unless it says
    ``;q=``); a quality that is not a number counts as 0 (not acceptable)."""
    found: dict[str, float] = {}
    for part in (accept_encoding or "").split(","):
        coding, _, params = part.partition(";")
        name = coding.strip().lower()
        if not name:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value.strip())
                except ValueError:
                    quality = 0.0
        found[name] = quality
    return found


def accepts(accept_encoding: str | None, coding: str) -> bool:
    """Whether ``coding`` is acceptable to a client that sent ``accept_encoding`` (a ``*``
    stands for every coding it does not name)."""
    named = qualities(accept_encoding)
    quality = named.get(coding, named.get("*", 0.0))
    return quality > 0


def variant(path: Path, accept_encoding: str | None) -> tuple[Path, str | None, bool]:
    """The file to send for ``path``: the best variant the client accepts, or ``path`` itself;
    the coding sent (None: the plain file); and whether ``path`` has variants at all (then the
    answer varies by ``Accept-Encoding``)."""
    found = [(coding, path.with_name(path.name + suffix)) for coding, suffix in VARIANTS]
    present = [(coding, file) for coding, file in found if file.is_file()]
    for coding, file in present:
        if accepts(accept_encoding, coding):
            return file, coding, True
    return path, None, bool(present)


class Assets(StaticFiles):
    """``/static``: Starlette's static files (paths kept inside the folder, GET and HEAD, ranges,
    ETags), each sent precompressed where the client accepts it, the hashed ones immutable; and
    the pages' own files, sent the same way (:meth:`answer`)."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        path = Path(full_path)
        root = Path(str(self.directory)).resolve()
        relative = path.resolve().relative_to(root).as_posix()
        cache = IMMUTABLE if HASHED.fullmatch(relative) else REVALIDATE
        return self.answer(path, Headers(scope=scope), {"Cache-Control": cache}, status_code)

    def answer(
        self,
        path: Path,
        request_headers: Headers,
        headers: Mapping[str, str],
        status_code: int = 200,
    ) -> Response:
        """``path`` answered as :func:`variant` chooses, with ``headers`` (a 304 where the
        request's validators match the file sent: each variant has an ETag of its own)."""
        sent, coding, varies = variant(path, request_headers.get("accept-encoding"))
        extra = dict(headers)
        if varies:
            extra["Vary"] = "Accept-Encoding"
        if coding is not None:
            extra["Content-Encoding"] = coding
        # The type is the plain file's: a .br or .gz file's own would be "application/…".
        media_type = guess_type(path.name)[0] or "text/plain"
        # With its stat the response has its ETag and Last-Modified now, for the 304 below.
        response = FileResponse(sent, status_code, extra, media_type, stat_result=sent.stat())
        if status_code == 200 and self.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response

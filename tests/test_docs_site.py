"""The documentation: the README is a front door a newcomer reads in minutes, with the two
commands, and every link in it leads somewhere; the site under ``docs/`` builds with MkDocs in
strict mode, where a broken link, a link to a heading that does not exist, a page missing from
the navigation or a navigation entry without its page fails the build (``mkdocs.yml``,
``validation``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MKDOCS = Path(sys.executable).with_name("mkdocs")
FRONT_DOOR_LINES = 250  # what a newcomer reads in five minutes


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    built = subprocess.run(
        [str(MKDOCS), "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
        timeout=120,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-4000:]
    assert (tmp_path / "site" / "index.html").is_file()
    assert (tmp_path / "site" / "rules" / "apokalypse.html").is_file()


def test_every_page_is_in_the_navigation_and_every_entry_has_its_page() -> None:
    """What strict mode checks, read from the files themselves: the navigation and the pages
    under docs/ are the same set."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def pages(entries: object) -> set[str]:
        if isinstance(entries, str):
            return {entries}
        if isinstance(entries, list):
            return set().union(*(pages(entry) for entry in entries))
        if isinstance(entries, dict):
            return set().union(*(pages(value) for value in entries.values()))
        return set()

    docs = ROOT / config["docs_dir"]
    on_disk = {path.relative_to(docs).as_posix() for path in docs.rglob("*.md")}
    assert pages(config["nav"]) == on_disk


def test_the_readme_is_a_front_door() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= FRONT_DOOR_LINES, "the rest belongs on a page under docs/"
    for command in ("make run", "make test", "make docs", "make play"):
        assert command in text, command
    assert "docs/hosting.md" in text, "playing with friends links the hosting guide"
    assert re.search(r"!\[[^\]]+\]\(docs/screens/[\w-]+\.png\)", text), "a screenshot of a game"


def test_every_link_of_the_readme_leads_to_a_file_and_heading_that_exist() -> None:
    text = README.read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert len(links) > 10, links
    for link in links:
        if re.match(r"[a-z]+://", link):
            continue
        path, _, anchor = link.partition("#")
        target = ROOT / path
        assert target.exists(), link
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.M)
            assert anchor in {slug(heading) for heading in headings}, link


def slug(heading: str) -> str:
    """A heading's anchor as MkDocs and GitHub make it: lower case, words joined by hyphens."""
    kept = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return re.sub(r"\s+", "-", kept)

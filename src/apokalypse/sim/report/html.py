"""A report as one self-contained HTML page: inline CSS, the plots as PNG data URIs, no script
and nothing fetched from elsewhere. Every text is escaped (bot names, card codes, error messages
and folder names come from the data)."""

from __future__ import annotations

import base64
from html import escape

from .model import Plot, Report, Section, Table

CSS = """
body { font: 15px/1.5 system-ui, sans-serif; color: #222; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; margin-top: 2.2em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
nav ol { columns: 2; }
figure { margin: 1.2em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #555; }
table { border-collapse: collapse; margin: 1em 0 1.6em; font-size: 0.88em; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.3em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right;
         white-space: nowrap; }
th { background: #f3f3f3; }
td:first-child, th:first-child { text-align: left; }
td.wrap { white-space: normal; text-align: left; }
"""


def render(report: Report) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(report.title)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{escape(report.title)}</h1>",
        "<nav><ol>",
        *(f'<li><a href="#{escape(s.anchor)}">{escape(s.title)}</a></li>' for s in report.sections),
        "</ol></nav>",
        *(_section(s) for s in report.sections),
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _section(section: Section) -> str:
    return "\n".join(
        [
            f'<section id="{escape(section.anchor)}"><h2>{escape(section.title)}</h2>',
            *(f"<p>{escape(text)}</p>" for text in section.text),
            *(_figure(plot) for plot in section.plots),
            *(_table(table) for table in section.tables),
            "</section>",
        ]
    )


def _figure(plot: Plot) -> str:
    data = base64.b64encode(plot.png).decode("ascii")
    return (
        f'<figure><img src="data:image/png;base64,{data}" alt="{escape(plot.caption)}">'
        f"<figcaption>{escape(plot.caption)} ({escape(plot.name)}.png)</figcaption></figure>"
    )


def _table(table: Table) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in table.head)
    rows = "\n".join(
        "<tr>"
        + "".join(
            # a long text (an error message) may wrap; figures stay on one line
            f'<td class="wrap">{escape(cell)}</td>'
            if len(cell) > 60
            else f"<td>{escape(cell)}</td>"
            for cell in row
        )
        + "</tr>"
        for row in table.rows
    )
    note = f"<p>{escape(table.note)}</p>" if table.note else ""
    return (
        f"{note}<table><caption>{escape(table.caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>\n{rows}\n</tbody></table>"
    )

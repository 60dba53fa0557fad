"""``apokalypse loadtest --scenario``: each scenario run (:mod:`.scenarios`, :mod:`.coach_load`)
and its report printed (:func:`render`) and written as JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .coach_load import run_coach
from .load import LoadOptions
from .scenarios import ScenarioOptions, run_computers, run_idle, run_race

RUNS: dict[str, Callable[[LoadOptions, ScenarioOptions], dict[str, Any]]] = {
    "idle": run_idle,
    "computers": run_computers,
    "race": run_race,
    "coach": run_coach,
}


def run_scenario(options: LoadOptions, more: ScenarioOptions) -> dict[str, Any]:
    return RUNS[options.scenario](options, more)


# --------------------------------------------------------------------------- output


def shown(figures: dict[str, Any]) -> str:
    if not figures.get("count"):
        return "–"
    return (
        f"{figures['p50_ms']} / {figures['p99_ms']} / {figures['max_ms']} ms ({figures['count']})"
    )


def render(report: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    scenario, figures = report["scenario"], report["figures"]
    table = Table(title=f"apokalypse loadtest --scenario {scenario}", show_header=True)
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows: list[tuple[str, str]] = []
    if scenario == "idle":
        rows += [
            ("games created, looked at, never opened", str(figures["games"])),
            ("created in", f"{figures['created_in_s']} s"),
            ("create p50 / p99 / max", shown(figures["create"])),
            ("GET p50 / p99 / max", shown(figures["get"])),
            (
                "RSS start → warmed up → peak → after",
                f"{figures['rss_start_mb']} → {figures['rss_before_mb']} →"
                f" {figures['rss_peak_mb']} → {figures['rss_after_mb']} MB",
            ),
            (
                "idle release",
                f"{figures['idle_seconds']} s"
                + (" (given)" if figures["idle_seconds_given"] else " (the server's default)")
                + f", waited {figures['waited_s']} s,"
                + (" settled" if figures["settled"] else " NOT settled"),
            ),
            (
                "games in memory: peak → after",
                f"{figures['games_in_memory_peak']} → {figures['games_in_memory_after']}"
                if figures["games_in_memory_after"] is not None
                else "– (the server offers no metrics)",
            ),
            ("kept", f"{figures['kept_mb']} MB ({figures['kept_kb_per_game']} KiB a game)"),
        ]
    elif scenario == "computers":
        creations = figures["creations_s"]
        rows += [
            ("person's game", figures["person_game"]),
            (
                "computer games created at once",
                f"{figures['computer_games']} (every seat {figures['computer']})",
            ),
            ("window", f"{figures['window_s']} s"),
            ("answer before the window p50 / p99 / max", shown(figures["answer_before_window"])),
            ("answer in the window p50 / p99 / max", shown(figures["answer"])),
            ("answers still awaited at the end", str(figures["answer_unanswered_at_end"])),
            (
                "creations took",
                ", ".join(f"{s:.2f}" for s in sorted(creations)) + " s" if creations else "–",
            ),
            ("creations unanswered", str(figures["creations_unanswered"])),
            ("GET of a game left p50 / p99 / max", shown(figures["get"])),
            (
                "computer games after (move, over)",
                ", ".join(
                    f"{g['move']}{' ✓' if g['over'] else ''}"
                    for g in figures["computer_games_after"]
                )
                or "–",
            ),
        ]
    elif scenario == "coach":
        rows += [
            (
                "coached games",
                f"{figures['coached_games']}, each in {figures['tabs']} tabs asking the coach",
            ),
            ("coach's answers p50 / p99 / max", shown(figures["advice"])),
            (
                "coach's refusals (busy, pace)",
                ", ".join(f"{k}: {v}" for k, v in figures["coach_refusals"].items()) or "–",
            ),
            ("questions that crossed an automatic answer", str(figures["questions_crossed"])),
            (
                f"elsewhere: next decision (pace {figures['pace_s']} s)",
                shown(figures["next_decision"]),
            ),
            ("elsewhere: beyond the pacing p50 / p99 / max", shown(figures["beyond_pace"])),
            ("a tab opened: first message p50 / p99 / max", shown(figures["first_message"])),
            ("decisions taken elsewhere", str(figures["decisions"])),
            (
                "waits still going at the end (counted so far)",
                f"{figures['unfinished']['elsewhere']} elsewhere,"
                f" {figures['unfinished']['tabs']} tabs opened",
            ),
        ]
    else:
        rows += [
            ("games raced (A acts, B rebuilds)", f"{figures['raced']} of {figures['games']}"),
            ("B behind A at its first view (window hit)", str(figures["behind_at_first"])),
            ("B caught up p50 / p99 / max", shown(figures["caught_up"])),
            (
                "stalled (B not shown A's state in time)",
                f"{figures['stalled']} (after {figures['stall_after_s']} s)",
            ),
        ]
        for order, counts in figures["by_order"].items():
            rows.append(
                (
                    f"  {order}",
                    f"{counts['stalled']} stalled of {counts['games']},"
                    f" {counts['behind_at_first']} behind at first",
                )
            )
    rows.append(("errors", str(report["errors_total"])))
    rows += [(f"  {problem}", str(count)) for problem, count in report["errors"].items()]
    head = report["headline"]
    rows.append(
        (
            head["figure"],
            f"{head['value']} {head['unit']} (target {head['target_text']}; before"
            f" {head['before_text']}): {'met' if head['met'] else 'NOT MET'}",
        )
    )
    options = report["options"]
    rows.append(
        (
            "servers",
            f"{len(report['servers'])}"
            + (" behind nginx with TLS" if options["proxy"] else "")
            + (f", from {options['server_src']}" if options["server_src"] else "")
            + f", options: {' '.join(report['servers'][0]['flags']) or 'none'}",
        )
    )
    conditions = report["conditions"]
    rows.append(
        (
            "machine",
            f"{conditions['cores']} cores, {conditions.get('machine_cpu_cores')} busy on average,"
            f" load {conditions['loadavg_before'][0]} → {conditions['loadavg_after'][0]},"
            f" commit {conditions['commit']}",
        )
    )
    for name, value in rows:
        table.add_row(name, value)
    Console().print(table)


def run_scenario_to(options: LoadOptions, more: ScenarioOptions, out: Path | None) -> None:
    """Run the scenario, print its report and write it as JSON to ``out``."""
    report = run_scenario(options, more)
    render(report)
    if out is not None:
        out.write_text(json.dumps(report, indent=1) + "\n")

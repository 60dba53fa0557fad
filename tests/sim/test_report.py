"""``apokalypse report``: a results folder written from planted rows (the tables' own writer, the
spec's columns) turned into one HTML page with PNGs, its figures, ``--compare``, and bad folders
refused in one line with nothing written."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from apokalypse.cli.report import run_report
from apokalypse.engine.errors import ConfigError
from apokalypse.sim.plots import Rate
from apokalypse.sim.report import build, load, write_report
from apokalypse.sim.report.model import Report, Section, rate_cell
from apokalypse.sim.tables import Writer

Row = dict[str, Any]
ROLES = ("protection", "metal", "dual", "icon", "saint", "fiend", "church", "violence")
APOKALYPSE_PLOTS = {
    "good_evil",
    "seat_ethos",
    "totals",
    "rounds",
    "horsemen",
    "deaths",
    "seats",
    "cards_played",
    "cards_roles",
    "cards_codes",
}


# --- planted results ----------------------------------------------------------------------------


def apokalypse_rows(
    games: int,
    *,
    good_share: float,
    seed: int = 0,
    counts: Sequence[int] = (2, 3, 4),
    bots: Sequence[str] = ("medium",),
    failed: dict[int, str] | None = None,
) -> list[tuple[Row, list[Row]]]:
    """Games whose outcome is planted: of the games with both ethos at a player count, exactly
    ``good_share`` (in tenths) are won by the good side (R-END-4); a seat plays a saint exactly
    when it wins (a planted association); the rest is random but seeded."""
    rng = random.Random(seed)
    failed = failed or {}
    seen: dict[int, int] = {}
    out = []
    for g in range(games):
        n = counts[g % len(counts)]
        lineup = [bots[q % len(bots)] for q in range(n)]
        common = {"game": g, "seed": seed + g, "players": n, "variants": ""}
        game: Row = {**common, "deck": "default", "lineup": ",".join(lineup), "decisions": 50}
        seats: list[Row] = [{**common, "seat": q, "bot": lineup[q]} for q in range(n)]
        if g in failed:
            out.append(({**game, "error": failed[g], "winners": 0}, seats))
            continue
        ethos = [rng.choice(("good", "evil")) for _ in range(n)]
        if n >= 4:
            ethos[:2] = ["good", "evil"]
        startup = rng.randrange(n)
        if "good" in ethos and "evil" in ethos:
            k = seen[n] = seen.get(n, 0) + 1
            case = "good" if (k - 1) % 10 < round(10 * good_share) else "evil"
            if case == "evil" and k % 9 == 0:
                case = "nobody"
        else:
            case = "shared-ethos" if rng.random() < 0.8 else "nobody"
        winners = {
            "good": [q for q in range(n) if ethos[q] == "good"],
            "evil": [ethos.index("evil")] if "evil" in ethos else [],
            "shared-ethos": [startup],
            "nobody": [],
        }[case]
        first = rng.randint(2, 4)
        arrivals = [first, first + 2, first + 4, first + 5]
        game.update(
            error=None,
            winners=len(winners),
            case=case,
            good_seats=ethos.count("good"),
            evil_seats=ethos.count("evil"),
            good_seats_dealt=ethos.count("good"),
            good_populaces=rng.randint(0, 12),
            evil_populaces=rng.randint(0, 12),
            rounds=arrivals[-1],
            startup=startup,
            **{f"horseman{k}_round": arrivals[k - 1] for k in (1, 2, 3, 4)},
            **{f"deaths{k}": rng.randint(0, 4) for k in (1, 2, 3, 4)},
        )
        for q, seat in enumerate(seats):
            won = q in winners
            played = {f"played_{role}": rng.randint(0, 3) for role in ROLES}
            played["played_saint"] = int(won)
            seat.update(
                won=won,
                startup=q == startup,
                ethos_dealt=ethos[q],
                ethos=ethos[q],
                total=rng.randint(-10, 40),
                **played,
                played=[("saint", int(won)), ("m/hp", played["played_protection"])],
            )
        out.append((game, seats))
    return out


def write_folder(
    folder: Path,
    rows: list[tuple[Row, list[Row]]],
    *,
    game: str = "apokalypse",
    counts: Sequence[int] = (2, 3, 4),
    bots: Sequence[str] = ("medium",),
    variants: Sequence[str] = (),
) -> Path:
    """A results folder as ``simulate --out`` writes it (the same writer)."""
    manifest = {
        "game": game,
        "game_version": "test",
        "players": list(counts),
        "lineup": list(bots),
        "seed": 0,
        "variants": list(variants),
        "deck": "default",
        "games": len(rows),
    }
    writer = Writer.open(folder, manifest)
    writer.start()
    for game_row, player_rows in rows:
        run = writer.manifest["run"]
        writer.add(({**game_row, "run": run}, [{**p, "run": run} for p in player_rows]))
    writer.flush()
    return folder


def section(report: Report, anchor: str) -> Section:
    return next(s for s in report.sections if s.anchor == anchor)


def row_of(section: Section, caption: str, *first: str) -> list[str]:
    table = next(t for t in section.tables if t.caption.startswith(caption))
    return next(list(r) for r in table.rows if tuple(r[: len(first)]) == first)


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[Row, list[Row]]]]:
    rows = apokalypse_rows(
        90,
        good_share=0.5,
        bots=("medium", "<b>bold</b>"),
        failed={7: "RuntimeError: <img src=x onerror=alert(1)>"},
    )
    folder = tmp_path_factory.mktemp("planted") / "run"
    return write_folder(folder, rows, bots=("medium", "<b>bold</b>")), rows


@pytest.fixture(scope="module")
def planted_report(planted: tuple[Path, list[tuple[Row, list[Row]]]]) -> Report:
    return build(load(planted[0]))


# --- the report ---------------------------------------------------------------------------------


def test_the_report_writes_one_page_and_its_plots(planted, tmp_path):
    folder, _ = planted
    page = write_report(folder, out=tmp_path / "report.html")
    assert page == tmp_path / "report.html"
    text = page.read_text("utf-8")
    written = {p.stem for p in (tmp_path / "report").glob("*.png")}
    assert written == APOKALYPSE_PLOTS
    # self-contained: every image is inline, nothing is fetched
    images = re.findall(r'<img src="([^"]*)"', text)
    assert len(images) == len(APOKALYPSE_PLOTS)
    assert all(src.startswith("data:image/png;base64,") for src in images)
    assert "http://" not in text and "https://" not in text and "<script" not in text
    for png in (tmp_path / "report").glob("*.png"):
        assert png.read_bytes().startswith(b"\x89PNG")


def test_the_page_holds_the_planted_good_win_rate(planted, planted_report, tmp_path):
    """R-END-4: the 4-player games all hold both ethos; half of them are planted as good wins."""
    folder, rows = planted
    four = [g for g, _ in rows if g["players"] == 4 and g.get("error") is None]
    good = sum(g["case"] == "good" for g in four)
    assert (good, len(four)) == (15, 30)
    expected = rate_cell(Rate(15, 30))
    assert expected.startswith("50.0 % (")
    text = write_report(folder, out=tmp_path / "r.html").read_text("utf-8")
    assert f"<td>{expected}</td>" in text
    assert (
        row_of(section(planted_report, "good-evil"), "Games won by each side", "4")[3] == expected
    )


def test_the_ethos_split_table_counts_each_split_of_the_planted_games(planted, planted_report):
    """The games of both ethos split by how many seats each side has: every split's games add
    up to the player count's, and each row's rates are those of its own games."""
    _, rows = planted
    good_evil = section(planted_report, "good-evil")
    for n in (3, 4):
        both = [
            g for g, _ in rows
            if g["players"] == n and g.get("error") is None and g["good_seats"] and g["evil_seats"]
        ]  # fmt: skip
        splits = sorted({g["good_seats"] for g in both})
        for good in splits:
            split = [g for g in both if g["good_seats"] == good]
            wins = sum(g["case"] == "good" for g in split)
            row = row_of(good_evil, "Games won by each side, by the ethos split", str(n),
                         f"{good} good / {n - good} evil")  # fmt: skip
            assert row[2] == str(len(split))
            assert row[3] == rate_cell(Rate(wins, len(split)))


def test_the_report_counts_only_finished_games_and_names_the_failed(planted, planted_report):
    folder, _ = planted
    run = load(folder)
    assert (run.played, len(run.games), run.errors) == (
        90,
        89,
        [(7, "RuntimeError: <img src=x onerror=alert(1)>")],
    )
    failed = row_of(section(planted_report, "run"), "Failed games", "7")
    assert failed == ["7", "RuntimeError: <img src=x onerror=alert(1)>"]


def test_every_text_from_the_data_is_escaped(planted, tmp_path):
    folder, _ = planted
    text = write_report(folder, out=tmp_path / "r.html").read_text("utf-8")
    assert "<b>bold</b>" not in text and "&lt;b&gt;bold&lt;/b&gt;" in text
    assert "<img src=x" not in text and "&lt;img src=x onerror=alert(1)&gt;" in text


def test_the_planted_card_association_is_found(planted_report):
    """A seat plays a saint exactly when it wins: the largest association, p < 0.001."""
    cards = section(planted_report, "cards")
    saint = row_of(cards, "Card roles", "saint")
    assert saint[3].startswith("100.0 %") and saint[4].startswith("0.0 %")
    assert saint[6] == "< 0.001"
    assert "association, not a cause" in " ".join(cards.text)


def test_the_mixed_lineup_gets_a_table_per_computer_player(planted_report):
    bots = section(planted_report, "bots")
    assert [r[0] for r in bots.tables[0].rows] == ["<b>bold</b>", "medium"]


def test_the_same_data_gives_the_same_bytes(planted, tmp_path):
    folder, _ = planted
    first = write_report(folder, out=tmp_path / "a" / "report.html")
    second = write_report(folder, out=tmp_path / "b" / "report.html")
    assert first.read_bytes() == second.read_bytes()
    for png in (tmp_path / "a" / "report").glob("*.png"):
        assert png.read_bytes() == (tmp_path / "b" / "report" / png.name).read_bytes()


def test_the_default_page_goes_into_the_results_folder(tmp_path, capsys):
    folder = write_folder(tmp_path / "run", apokalypse_rows(20, good_share=0.5))
    assert run_report(folder, None, None) == 0
    assert (folder / "report.html").is_file() and (folder / "report" / "good_evil.png").is_file()
    assert "report.html" in capsys.readouterr().out
    load(folder)  # the report beside the tables does not spoil the results folder


# --- --compare ----------------------------------------------------------------------------------


def compare_row(report: Report, players: str, measure: str) -> list[str]:
    return row_of(section(report, "compare"), "Run A against run B", players, measure)


def test_compare_finds_a_planted_difference_and_not_an_equal_one(tmp_path):
    """R-END-4: run B's good side wins 80 % of its games with both ethos, run A's 20 %."""
    counts = (4, 5)
    a = write_folder(
        tmp_path / "a", apokalypse_rows(200, good_share=0.2, counts=counts), counts=counts
    )
    b = write_folder(
        tmp_path / "b",
        apokalypse_rows(200, good_share=0.8, seed=1, counts=counts),
        counts=counts,
        variants=("V-ETHOS-BALANCED",),
    )
    same = write_folder(
        tmp_path / "same",
        apokalypse_rows(200, good_share=0.2, seed=2, counts=counts),
        counts=counts,
    )
    measure = "good side wins (games with both ethos)"
    page = write_report(a, compare=b, out=tmp_path / "ab.html")
    assert (tmp_path / "ab" / "compare.png").is_file()
    report = build(load(a), load(b))
    for n in ("4", "5"):
        row = compare_row(report, n, measure)
        assert row[2].startswith("20.0 %") and row[3].startswith("80.0 %")
        assert row[4].startswith("+60.0") and row[5] == "< 0.001"
    assert "V-ETHOS-BALANCED" in page.read_text("utf-8")
    equal = build(load(a), load(same))
    for n in ("4", "5"):
        row = compare_row(equal, n, measure)
        assert row[2] == row[3] and row[5] == "1.000"
        assert float(compare_row(equal, n, "mean total per seat")[5]) > 0.001


def test_compare_refuses_results_of_another_game(tmp_path):
    a = write_folder(tmp_path / "a", apokalypse_rows(10, good_share=0.5))
    b = write_folder(tmp_path / "b", poker_rows(6), game="apokerlypse", counts=(3,))
    with pytest.raises(ConfigError, match="cannot compare apokalypse results"):
        write_report(a, compare=b)
    assert not (a / "report.html").exists()


# --- other games --------------------------------------------------------------------------------


def poker_rows(games: int) -> list[tuple[Row, list[Row]]]:
    rng = random.Random(5)
    out = []
    for g in range(games):
        common = {"game": g, "seed": g, "players": 3, "variants": ""}
        chips = [rng.randint(0, 30) for _ in range(3)]
        best = max(chips)
        game = {**common, "deck": "default", "lineup": "random,random,random", "decisions": 9}
        game.update(error=None, winners=chips.count(best), rounds=rng.randint(3, 9))
        seats = [
            {**common, "seat": q, "bot": "random", "won": chips[q] == best, "chips": chips[q]}
            for q in range(3)
        ]
        out.append((game, seats))
    return out


def test_a_game_gets_the_generic_sections_and_its_own_where_its_columns_are_filled(tmp_path):
    """Apokerlypse rows without factions or cards held (columns left null): the generic
    sections, and of its own only the game length."""
    folder = write_folder(
        tmp_path / "poker", poker_rows(12), game="apokerlypse", counts=(3,), bots=("random",)
    )
    write_report(folder)
    report = build(load(folder))
    assert [s.anchor for s in report.sections] == ["run", "seats", "score", "rounds", "length"]
    assert {p.stem for p in (folder / "report").glob("*.png")} == {
        "seats",
        "score",
        "rounds",
        "length",
    }


# --- bad input ----------------------------------------------------------------------------------


def refused(folder: Path, compare: Path | None = None) -> str:
    with pytest.raises(ConfigError) as caught:
        run_report(folder, compare, None)
    message = str(caught.value)
    assert message and "\n" not in message
    return message


def test_a_missing_folder_is_refused_in_one_line(tmp_path):
    assert "no such folder" in refused(tmp_path / "nowhere")
    assert not (tmp_path / "nowhere").exists()


def test_a_folder_that_holds_no_results_is_refused(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "todo.txt").write_text("nothing here")
    assert "not a results folder" in refused(tmp_path / "notes")
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == ["todo.txt"]


def test_a_corrupt_parquet_part_is_refused_and_nothing_is_written(tmp_path):
    folder = write_folder(tmp_path / "run", apokalypse_rows(10, good_share=0.5))
    (folder / "games" / "part-00000.parquet").write_bytes(b"PAR1 not really")
    assert "not a readable Parquet file" in refused(folder)
    assert not (folder / "report.html").exists() and not (folder / "report").exists()


def test_a_bad_second_folder_writes_nothing_for_the_first(tmp_path):
    folder = write_folder(tmp_path / "run", apokalypse_rows(10, good_share=0.5))
    refused(folder, tmp_path / "missing")
    assert not (folder / "report.html").exists() and not (folder / "report").exists()


def test_a_run_whose_games_all_failed_has_nothing_to_report(tmp_path):
    rows = apokalypse_rows(3, good_share=0.5, failed={0: "E: x", 1: "E: y", 2: "E: z"})
    folder = write_folder(tmp_path / "run", rows)
    assert "no finished game" in refused(folder)
    assert not (folder / "report.html").exists()


# --- Apokerlypse's own sections -------------------------------------------------------------------

FACTIONS = ("military", "civilians", "plunderers", "zombies")


def faction_rows(
    games: int, *, zombies_win: float, seed: int = 0, counts: Sequence[int] = (2, 3, 4)
) -> list[tuple[Row, list[Row]]]:
    """Apokerlypse games whose outcome is planted: where the zombies sit (K-SETUP-1) they win
    ``zombies_win`` (in tenths) of the games, else the lowest seat; the winner, and only the
    winner, held the ace of spades at a final scoring; the game lasts 2–14 dealer rounds,
    cycling; abilities: each seat used one."""
    rng = random.Random(seed)
    out = []
    seen: dict[int, int] = {}
    deck = [r + s for r in "23456789TJQK" for s in "shdc"] + ["Ah", "Ad", "Ac"]
    for g in range(games):
        n = counts[g % len(counts)]
        common = {"game": g, "seed": g, "players": n, "variants": ""}
        factions = rng.sample(FACTIONS, n)
        winner = 0
        if "zombies" in factions:
            k = seen[n] = seen.get(n, 0) + 1
            if (k - 1) % 10 < round(10 * zombies_win):
                winner = factions.index("zombies")
            else:
                winner = next(q for q in range(n) if factions[q] != "zombies")
        lineup = ",".join(["medium"] * n)
        game: Row = {**common, "deck": "default", "lineup": lineup, "decisions": 40}
        game.update(error=None, winners=1, rounds=2 + g % 13, reason="no-chips")
        seats = []
        for q in range(n):
            held = sorted(rng.sample(deck, 10)) + (["As"] if q == winner else [])
            seats.append(
                {
                    **common,
                    "seat": q,
                    "bot": "medium",
                    "won": q == winner,
                    "chips": 20 if q == winner else 5,
                    "faction": factions[q],
                    "abilities": 1,
                    "held": held,
                }
            )
        out.append((game, seats))
    return out


@pytest.fixture(scope="module")
def poker_report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    folder = tmp_path_factory.mktemp("poker") / "run"
    write_folder(folder, faction_rows(300, zombies_win=0.8), game="apokerlypse")
    return build(load(folder))


def test_apokerlypse_gets_the_generic_sections_and_its_own(poker_report, tmp_path):
    anchors = [s.anchor for s in poker_report.sections]
    assert anchors == ["run", "seats", "score", "rounds", "factions", "cards", "length"]
    assert {p.name for p in poker_report.plots} >= {"factions", "cards_held", "length"}


def test_a_faction_that_wins_more_than_its_share_is_marked(poker_report):
    """K-SETUP-1: the zombies win 80 % of the games they sit in, at every player count: above
    the fair share (1 / players) by more than 4 points, the others below it."""
    factions = section(poker_report, "factions")
    for n in ("2", "3", "4"):
        zombies = row_of(factions, "Win rate per faction", n, "♣ zombies")
        assert 78 <= float(zombies[3].split()[0]) <= 82  # 8 in every 10 games, as planted
        assert zombies[4] == f"{100 / int(n):.1f} %"
        assert zombies[5].endswith("▲ above") and zombies[6] == "1.00"
        military = row_of(factions, "Win rate per faction", n, "♠ military")
        assert military[5].endswith("▼ below")
        assert row_of(factions, "Do the factions", n)[2] == "< 0.001"
    assert "zombies at 2 players (" in " ".join(factions.text)


def test_the_card_held_by_every_winner_tops_the_card_table(poker_report):
    """K-SCORE-1: the ace of spades, held by the winner alone, wins 100 % against 0 %."""
    cards = section(poker_report, "cards")
    table = cards.tables[0]
    assert len(table.rows) == 52
    first = list(table.rows[0])
    assert first[0] == "As" and first[2].startswith("100.0 %") and first[3].startswith("0.0 %")
    assert first[4].startswith("+100.0") and first[4].endswith("▲") and first[5] == "< 0.001"
    differences = [float(r[4].split()[0]) for r in table.rows if r[4] != "–"]
    assert differences == sorted(differences, reverse=True)
    assert "association, not a cause" in " ".join(cards.text)


def test_game_length_quartiles_and_the_share_of_4_to_12_rounds(poker_report):
    """2–14 rounds cycling over games of 2, 3, 4 players: each count sees every length."""
    length = section(poker_report, "length")
    row = row_of(length, "Dealer rounds per game", "2")
    rounds = sorted(2 + g % 13 for g in range(0, 300, 3))
    within = sum(4 <= r <= 12 for r in rounds)
    assert row[1] == "100" and row[6] == f"{rounds[0]}–{rounds[-1]}"
    assert row[4] == "8" and row[7].startswith(f"{within:.1f} %")


def test_compare_tests_each_faction_and_the_game_length(tmp_path):
    a = write_folder(tmp_path / "a", faction_rows(300, zombies_win=0.8), game="apokerlypse")
    b = write_folder(tmp_path / "b", faction_rows(300, zombies_win=0.8, seed=1), game="apokerlypse")
    report = build(load(a), load(b))
    compare = section(report, "compare")
    row = compare_row(report, "3", "zombies: its seats that win")
    assert 78 <= float(row[2].split()[0]) <= 82 and 78 <= float(row[3].split()[0]) <= 82
    assert compare_row(report, "4", "games of 4–12 rounds")[5] == "1.000"
    assert {p.name for p in compare.plots} == {"compare", "compare_factions"}


@pytest.mark.long(27)
def test_a_real_apokerlypse_run_is_reported(tmp_path):
    """Twenty games of the example content through simulate --out and report, the real commands."""
    from tests.helpers import cli

    out = tmp_path / "run"
    run = cli(
        *("simulate", "-g", "apokerlypse", "--players", "2-4", "--games", "20"),
        *("--bots", "medium", "--content", "example", "--seed", "1000000", "--out", str(out)),
    )
    assert run.returncode == 0, run.stderr
    report = cli("report", str(out))
    assert report.returncode == 0, report.stderr
    page = (out / "report.html").read_text("utf-8")
    assert "Factions" in page and "Cards held and winning" in page and "Game length" in page
    assert {"factions", "cards_held", "length"} <= {p.stem for p in (out / "report").glob("*.png")}
    built = build(load(out))
    seats = sum(int(r[2]) for r in section(built, "factions").tables[0].rows)
    assert seats == 7 * 2 + 7 * 3 + 6 * 4  # --players 2-4: games of 2, 3, 4, 2, … players

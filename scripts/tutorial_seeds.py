"""Search the prepared deals of the guided games ("Learn to play"): the first seed of each game
whose deal meets every property of :func:`apokalypse.server.tutorial.unmet` (the learner is good,
meets each lesson's topic early and in order, a horseman rides in the first three rounds, the game
has a sensible length, the learner wins). Prints the seeds to write into the games' registry
entries (``tutorial`` in ``engine/registry.py``).

    .venv/bin/python scripts/tutorial_seeds.py [--from 0] [--tries 2000] [--game apokalypse]
"""

from __future__ import annotations

import argparse

from apokalypse.server.tutorial import TUTORIALS, unmet, walk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="start", type=int, default=0)
    parser.add_argument("--tries", type=int, default=2000)
    parser.add_argument("--game", choices=sorted(TUTORIALS), action="append")
    args = parser.parse_args()
    for name in args.game or sorted(TUTORIALS):
        players = TUTORIALS[name].players
        for seed in range(args.start, args.start + args.tries):
            if not unmet(name, seed, players):
                path = walk(name, seed, players)
                print(f"{name}: seed {seed}, {path.decisions} decisions, lessons {path.topics}")
                break
        else:
            print(f"{name}: no seed in {args.start}..{args.start + args.tries - 1}")


if __name__ == "__main__":
    main()

"""The simulation lab: many seeded games between computer players, their statistics collected
from the events into Parquet tables, run in local processes or on a Ray cluster, and reported.

Layer: above the bots, the games and the engine, below the terminal (docs/design.md,
the layers). It reaches a game only through the engine protocol, so every registered game can be
simulated.
"""

"""Interfaces for learning agents (the ``rl`` extra: ``pip install "apokalypse[rl]"``).

- :mod:`.apokalypse_v0`, :mod:`.apokerlypse_v0`: PettingZoo AEC environments;
- :mod:`.openspiel`: both games registered as OpenSpiel Python games;
- :mod:`.codec`: a game's actions and observations as NumPy arrays (the numbers themselves are
  the game's, :mod:`apokalypse.engine.features`);
- :mod:`.train`: a policy-gradient agent in plain NumPy, the example of ``docs/rl.md``.

Their speed against the raw engine is measured in :mod:`apokalypse.bench.rl` (``apokalypse
bench-rl``).

Nothing is imported here, so ``import apokalypse.rl.openspiel`` needs no PettingZoo.
"""

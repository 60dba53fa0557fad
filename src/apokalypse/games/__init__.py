"""The games: pure rules, no I/O."""

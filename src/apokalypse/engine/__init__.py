"""The engine: the game protocol, seeded randomness, events, records and replay."""

"""Apokalypse and Apokerlypse: rules engine, computer players and terminal game."""

__version__ = "0.1.0"

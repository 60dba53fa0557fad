"""Apokalypse and Apokerlypse: rules engine, computer players and terminal game."""

from apokalypse._build import build_info, select

__version__ = "0.1.0"
__all__ = ["__version__", "build_info"]

# Before any rules module is imported: the compiled rules when built and up to date (_build.py).
select()

"""The ``apokalypse`` command line."""

"""delta-lint: predict Delta Lake write conflicts at review time."""

__version__ = "0.1.0"

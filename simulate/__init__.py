"""studsim: strategy and house-edge analyzer for casino stud poker against the dealer."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("studsim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = ["__version__"]

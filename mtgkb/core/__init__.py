"""The ground floor: errors, paths, progress, rule numbers, N-Quads writing and type lines. Imports
nothing from mtgkb but ``__version__``."""

"""Importers: read published datasets (the Comprehensive Rules, card dumps) into N-Quads files."""

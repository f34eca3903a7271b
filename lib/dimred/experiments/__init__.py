"""Protocols of the compendium's papers: one module per paper."""

"""Metrical-importance paper: protocol (:mod:`.protocol`), discard curves
(:mod:`.discard`) and figures (:mod:`.plots`)."""

"""ORML paper: protocol (:mod:`.protocol`) and figures (:mod:`.plots`)."""

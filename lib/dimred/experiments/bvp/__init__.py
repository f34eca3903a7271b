"""Best-View Projection paper: protocol (:mod:`.protocol`) and figures (:mod:`.plots`)."""

"""The compendium's own infrastructure: where things live (:mod:`.paths`), tables and
the reproduction report (:mod:`.reporting`), figure style and output (:mod:`.plotting`)."""

"""Can these cards lead a deck together: the commander rules read from the graph (:mod:`.model`), the
verdict (:mod:`.verdict`) and the partner network of the whole pool (:mod:`.partner_graph`)."""

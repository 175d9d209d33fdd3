"""Can this be activated or cast now, and what can a player do now: the ways of using a card
(:mod:`.ways`), the questions asked of a situation (:mod:`.questions`) and the steps in which each way
is open (:mod:`.timing`)."""

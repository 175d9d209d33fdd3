"""What does a copy become: a card's copy effect applied to a target with the copy rules (CR 707);
:mod:`.situation` reads the copy fields of a situation."""

"""What moves without a click: machine seats, their decision pool, the turn clock, their notices."""

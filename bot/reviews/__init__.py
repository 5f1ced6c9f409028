"""The expert's review of a finished game, per human player: which of their decisions differ
from the expert seat's move, at what estimated cost (``model``), computed by replaying the
game and asking the expert's own search at each of their decisions (``analysis``), in a
low-priority worker process under a CPU budget per game (``cpu_budget``, ``pool``), stored
once (``reviewer``)."""

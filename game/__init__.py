"""Pure rules engines for SPLIT and TEN (no discord, no I/O, no clock, no global random)."""

"""What runs after each stored change: the manager's listeners that keep the channel current."""

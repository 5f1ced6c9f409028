"""Rankings: period standings, OpenSkill ratings, the leaderboard reads and their rebuild."""

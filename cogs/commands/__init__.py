"""The slash commands: /game, /rules, /leaderboard, /stats, /history, /config, /language and
/images."""

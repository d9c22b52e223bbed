"""Real sandboxed matches, tournaments, reports and commands, played end to end."""

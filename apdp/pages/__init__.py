"""Self-contained HTML pages: match replays and tournament reports (inline CSS, JS and SVG only)."""

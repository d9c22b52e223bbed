"""The HTML pages, opened in Chromium."""

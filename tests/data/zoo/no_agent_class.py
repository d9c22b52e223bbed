"""A file with no agent class in it."""

VALUE = 1

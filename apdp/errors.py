"""The error type for a user's mistake: the CLI prints its message on one line, no traceback."""


class UserError(Exception):
    """A bad input (config, argument, file, agent name) described in one line that says how to fix it."""

from apdp import Agent

raise ImportError("this agent needs a package that is not installed")


class NeverLoaded(Agent):
    pass

from apdp import Agent

class Broken(Agent)
    pass

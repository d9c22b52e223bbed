"""The agents' sandbox: its limits, its confinement, and attacks that must gain nothing."""

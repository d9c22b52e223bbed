"""Running untrusted agents in their own processes, under limits enforced from outside."""

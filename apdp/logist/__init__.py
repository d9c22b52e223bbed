"""The Java Logist platform in apdp: its configuration files, its task draw, and its agents."""

"""Java agents for the Logist platform, compiled and played through a JDK."""

package logist;

/** The platform as an agent sees it: the settings of the match it plays. */
public final class LogistPlatform {
    private static LogistSettings settings;

    private LogistPlatform() {
    }

    /** The settings of the current match. */
    public static LogistSettings getSettings() {
        return settings != null ? settings : new LogistSettings();
    }

    static LogistSettings current() {
        return settings;
    }

    /** Set by apdp's host before the agent's class is loaded. */
    public static void install(LogistSettings matchSettings) {
        settings = matchSettings;
    }
}

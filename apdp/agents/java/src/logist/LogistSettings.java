package logist;

import java.util.EnumMap;
import java.util.Map;

/** The platform's settings an agent reads: its time limits, in milliseconds. */
public class LogistSettings {

    /** The time limits. */
    public enum TimeoutKey {
        /** For {@code setup}. */
        SETUP,
        /** For {@code plan}. */
        PLAN,
        /** For each {@code askPrice} (and {@code auctionResult}). */
        BID
    }

    private final Map<TimeoutKey, Long> timeouts = new EnumMap<>(TimeoutKey.class);

    /** The settings of the current match (the platform's defaults before it starts). */
    public LogistSettings() {
        LogistSettings current = LogistPlatform.current();
        for (TimeoutKey key : TimeoutKey.values()) {
            timeouts.put(key, current != null ? current.get(key) : defaultTimeout(key));
        }
    }

    private static long defaultTimeout(TimeoutKey key) {
        switch (key) {
            case SETUP:
                return 10000L;
            case PLAN:
                return 5000L;
            default:
                return 2500L;
        }
    }

    /** The time limit {@code key} in milliseconds. */
    public long get(TimeoutKey key) {
        return timeouts.get(key);
    }

    /** Set the time limit {@code key} (milliseconds). */
    public void set(TimeoutKey key, long milliseconds) {
        timeouts.put(key, milliseconds);
    }

    @Override
    public String toString() {
        return "settings " + timeouts;
    }
}

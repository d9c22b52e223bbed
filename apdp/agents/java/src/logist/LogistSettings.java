package logist;

import java.awt.Color;
import java.io.File;

/**
 * The platform's settings: time limits, drawing sizes, colours, files and flags.
 *
 * <p>Time limits are kept as set and read as the platform reads them: the value plus 1% ({@code
 * set(BID, 1000)}, or a settings file's {@code timeout-bid="1000"}, reads 1010 ms), which is what the
 * platform's timer allowed and what apdp's referee allows. apdp's host installs the match's limits in
 * {@link LogistPlatform#getSettings()} before the agent's class is loaded; {@link #set} only changes
 * what this object says, never what the referee allows.
 *
 * <p>{@code new LogistSettings()} holds the platform's defaults (30000 ms for each limit, which reads
 * 30300; a 640 x 480 window; the window and the tasks shown; the history in {@code history.xml}), as
 * on the platform. apdp never tells an agent how many tasks a match has: in a match, {@link
 * SizeKey#NUMBER_OF_TASKS} reads 0; {@link SizeKey#NUMBER_OF_AGENTS} is the number of companies (the
 * platform's defaults leave it unset: reading it then throws, as there).
 *
 * <p>A settings file's keys are listed at {@code logist.config.Parsers.parseSettings}.
 */
public class LogistSettings {
    /** Sizes (pixels of the platform's window, and counts). */
    public enum SizeKey {
        WORLD_WIDTH, WORLD_HEIGHT, CITY_RADIUS, ROUTE_WIDTH, NUMBER_OF_TASKS, NUMBER_OF_AGENTS
    }

    /** Colours of the platform's window. */
    public enum ColorKey {
        BACKGROUND, FOREGROUND, CITY, CITY_NAME, CITY_CIRCUMFERENCE, TASK_TEXT, TASK_PICKUP, TASK_DELIVER,
        TASK_INDICATOR, ROUTE
    }

    /** The time limits, in milliseconds. */
    public enum TimeoutKey {
        /** For {@code setup}. */
        SETUP,
        /** For each {@code askPrice} (and {@code auctionResult}). */
        BID,
        /** For {@code plan}. */
        PLAN
    }

    /** Files: the configuration the platform was started with, and the history it writes. */
    public enum FileKey {
        CONFIGURATION, HISTORY
    }

    /** Switches of the platform's window. */
    public enum FlagKey {
        SHOW_UI, SHOW_TASKS
    }

    /** The platform's default sizes; NUMBER_OF_AGENTS has none (null). */
    private static final Integer[] SIZES = {640, 480, 8, 3, 5, null};
    /** The platform's default colours (java.awt.Color's constants), as RGB. */
    private static final int[] COLORS = {
        0xffffff, 0x000000, 0x00ff00, 0x000000, 0x000000, 0x000000, 0xff0000, 0x0000ff, 0x000000, 0xc0c0c0,
    };
    private static final long DEFAULT_TIMEOUT = 30000L;

    private final Integer[] sizes = SIZES.clone();
    /** An Integer (RGB, a default) or a Color: a Color is made only when asked for (java.awt is slow to load). */
    private final Object[] colors = new Object[COLORS.length];
    private final long[] timeouts = {DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT};
    private final File[] files = {null, new File("history.xml")};
    private final boolean[] flags = {true, true};

    /** The platform's defaults. */
    public LogistSettings() {
        for (int i = 0; i < COLORS.length; i++) {
            colors[i] = COLORS[i];
        }
    }

    public int get(SizeKey key) {
        return sizes[key.ordinal()]; // unset: a NullPointerException, as on the platform
    }

    public Color get(ColorKey key) {
        Object color = colors[key.ordinal()];
        if (color instanceof Integer) {
            color = new Color((Integer) color);
            colors[key.ordinal()] = color;
        }
        return (Color) color;
    }

    /** The time limit {@code key} in milliseconds: the value set plus 1%, as the platform reads it. */
    public long get(TimeoutKey key) {
        long ms = timeouts[key.ordinal()];
        return ms + ms / 100;
    }

    public File get(FileKey key) {
        return files[key.ordinal()];
    }

    public boolean get(FlagKey key) {
        return flags[key.ordinal()];
    }

    public void set(SizeKey key, int value) {
        sizes[key.ordinal()] = value;
    }

    public void set(ColorKey key, Color value) {
        colors[key.ordinal()] = value;
    }

    /** Set the time limit {@code key} (milliseconds; {@link #get(TimeoutKey)} reads it plus 1%). */
    public void set(TimeoutKey key, long value) {
        timeouts[key.ordinal()] = value;
    }

    public void set(FileKey key, File value) {
        files[key.ordinal()] = value;
    }

    public void set(FlagKey key, boolean value) {
        flags[key.ordinal()] = value;
    }
}

package logist;

import java.awt.Color;
import java.io.File;

/**
 * The platform's settings: time limits, drawing sizes, colours, files and flags.
 *
 * <p>Time limits: the platform reads a configured limit as that value plus 1% (a settings file's
 * {@code timeout-bid="1000"} reads 1010 ms), and its timer allows the same; apdp's host installs
 * the match's limits this way in {@link LogistPlatform#getSettings()} before the agent's class is
 * loaded, and apdp's referee allows each call its limit plus 1%. {@link #set} only changes what this
 * object says, never what the referee allows.
 *
 * <p>{@code new LogistSettings()} is a copy of the match's settings once apdp's host has installed
 * them (before: the defaults, 10000 ms to set up, 2500 to bid, 5000 to plan). apdp never tells an
 * agent how many tasks a match has: {@link SizeKey#NUMBER_OF_TASKS} reads 0 unless set;
 * {@link SizeKey#NUMBER_OF_AGENTS} is the number of companies. apdp draws nothing: the drawing
 * options keep their defaults and {@link FlagKey#SHOW_UI} is false.
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

    /**
     * Files: the configuration the platform was started with (by default the course's
     * {@code config/auction.xml}; apdp's host writes no configuration file, only the settings files)
     * and the history it writes (null unless set: apdp writes none).
     */
    public enum FileKey {
        CONFIGURATION, HISTORY
    }

    /** Switches of the platform's window. */
    public enum FlagKey {
        SHOW_UI, SHOW_TASKS
    }

    private static final int[] SIZES = {800, 600, 10, 2, 0, 2};
    private static final int[] COLORS = {
        0xffffff, 0x000000, 0x3366cc, 0x000000, 0x000000, 0x000000, 0x00aa00, 0xcc0000, 0xff8800, 0x999999,
    };
    private static final long[] TIMEOUTS = {10000L, 2500L, 5000L};
    /** The files' defaults: the course's configuration; no history. */
    private static final String[] FILES = {"config/auction.xml", null};

    private final int[] sizes;
    /** An Integer (RGB, a default) or a Color: a Color is made only when asked for (java.awt is slow to load). */
    private final Object[] colors;
    private final long[] timeouts;
    private final File[] files = new File[FILES.length];
    private final boolean[] flags = new boolean[FlagKey.values().length];

    public LogistSettings() {
        LogistSettings current = LogistPlatform.current();
        if (current != null) {
            sizes = current.sizes.clone();
            colors = current.colors.clone();
            timeouts = current.timeouts.clone();
            System.arraycopy(current.files, 0, files, 0, files.length);
            System.arraycopy(current.flags, 0, flags, 0, flags.length);
        } else {
            sizes = SIZES.clone();
            colors = new Object[COLORS.length];
            for (int i = 0; i < COLORS.length; i++) {
                colors[i] = COLORS[i];
            }
            timeouts = TIMEOUTS.clone();
            for (int i = 0; i < FILES.length; i++) {
                files[i] = FILES[i] == null ? null : new File(FILES[i]);
            }
        }
    }

    public int get(SizeKey key) {
        return sizes[key.ordinal()];
    }

    public Color get(ColorKey key) {
        Object color = colors[key.ordinal()];
        if (color instanceof Integer) {
            color = new Color((Integer) color);
            colors[key.ordinal()] = color;
        }
        return (Color) color;
    }

    /** The time limit {@code key} in milliseconds (the configured limit plus 1%, as the platform reads it). */
    public long get(TimeoutKey key) {
        return timeouts[key.ordinal()];
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

    /** Set what {@link #get(TimeoutKey)} says (milliseconds, as given: no 1% added). */
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

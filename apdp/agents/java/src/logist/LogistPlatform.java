package logist;

import java.util.Arrays;

import apdp.host.Hooks;
import logist.config.ParserException;
import logist.config.Parsers;
import logist.simulation.Manager;
import logist.topology.Topology;

/**
 * The platform as an agent sees it: the settings and network of the match it plays.
 *
 * <p>In apdp the match is played by apdp's referee; its Java host installs the match's settings
 * ({@link #getSettings()}, the limits plus 1%) and network ({@link #getTopology()}) before the
 * agent's class is loaded, so an agent may read them in a static initializer.
 */
public class LogistPlatform {
    private static LogistSettings settings;
    private static Topology topology;

    static {
        Hooks.register(Hooks.Platform.class, new Hooks.Platform() { // not a lambda: faster to start
            @Override
            public void install(LogistSettings s, Topology t) {
                LogistPlatform.install(s, t);
            }
        });
    }

    public LogistPlatform() {
    }

    /**
     * Run the platform: {@code CONFIGURATION [AGENT...]} plays the agents named (of the
     * configuration's agents file; all of them when none is named) in the configuration, headless,
     * and prints each agent's statistics (see {@code logist.simulation.Manager}).
     */
    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: logist.LogistPlatform CONFIGURATION [AGENT...]");
            return;
        }
        Manager manager;
        try {
            manager = Parsers.parseConfiguration(args[0], null, Arrays.copyOfRange(args, 1, args.length));
        } catch (ParserException e) {
            throw new LogistException("cannot start the platform: " + e.getMessage(), e);
        }
        try {
            manager.run();
        } finally {
            manager.close();
        }
    }

    /** The network of the current match (null before it starts). */
    public static Topology getTopology() {
        return topology;
    }

    /** The settings of the current match: one object, which the platform's host fills in. */
    public static LogistSettings getSettings() {
        synchronized (LogistPlatform.class) {
            if (settings == null) {
                settings = new LogistSettings();
            }
            return settings;
        }
    }

    /** The platform's own: make {@code s} and {@code t} the current match's (a null leaves one as it is). */
    static synchronized void install(LogistSettings s, Topology t) {
        if (s != null) {
            settings = s;
        }
        if (t != null) {
            topology = t;
        }
    }
}

package apdp.host;

import logist.LogistSettings;
import logist.plan.Plan;
import logist.task.DefaultTaskDistribution;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * How apdp's host (and the Logist classes among themselves, across packages) reach what the
 * platform's public API does not show: each Logist class registers its hook in its static
 * initializer (the JDK's "shared secrets" pattern), so that {@code logist.*} keeps exactly the
 * platform's public members. The first hook registered stays.
 */
public final class Hooks {
    private Hooks() {
    }

    /** The platform's current match. */
    public interface Platform {
        /** Make {@code settings} and {@code topology} the current match's (a null leaves one as it is). */
        void install(LogistSettings settings, Topology topology);
    }

    /** A network's name. */
    public interface Topologies {
        /** Name {@code topology} (its {@code toString()}). */
        void name(Topology topology, String name);
    }

    /** Where a plan starts. */
    public interface Plans {
        /** The city {@code plan} starts from (null for {@code Plan.EMPTY}). */
        City start(Plan plan);
    }

    /** The ids of the tasks a distribution creates. */
    public interface Distributions {
        /** The id of the next task {@code distribution} creates. */
        void nextId(DefaultTaskDistribution distribution, int id);
    }

    private static Platform platform;
    private static Topologies topologies;
    private static Plans plans;
    private static Distributions distributions;

    public static synchronized void registerPlatform(Platform hook) {
        platform = platform == null ? hook : platform;
    }

    public static synchronized void registerTopologies(Topologies hook) {
        topologies = topologies == null ? hook : topologies;
    }

    public static synchronized void registerPlans(Plans hook) {
        plans = plans == null ? hook : plans;
    }

    public static synchronized void registerDistributions(Distributions hook) {
        distributions = distributions == null ? hook : distributions;
    }

    public static Platform platform() {
        initialize("logist.LogistPlatform");
        return platform;
    }

    public static Topologies topologies() {
        initialize("logist.topology.Topology");
        return topologies;
    }

    public static Plans plans() {
        initialize("logist.plan.Plan");
        return plans;
    }

    public static Distributions distributions() {
        initialize("logist.task.DefaultTaskDistribution");
        return distributions;
    }

    /** Run the static initializer of class {@code name} (which registers its hook). */
    private static void initialize(String name) {
        try {
            Class.forName(name, true, Hooks.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("apdp's host misses " + name, e);
        }
    }
}

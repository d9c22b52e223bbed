package apdp.host;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import logist.LogistSettings;
import logist.agent.Agent;
import logist.agent.AgentStatistics;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * How apdp's host (and the Logist classes among themselves, across packages) reach what the
 * platform's public API does not show: each Logist class registers its hook in its static
 * initializer (the JDK's "shared secrets" pattern), so that {@code logist.*} keeps exactly the
 * platform's public members. The first hook registered of each kind stays.
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
        /** Name {@code topology}, as its errors call it (its {@code toString()} lists its cities). */
        void name(Topology topology, String name);
    }

    /** Where a plan starts. */
    public interface Plans {
        /** The city {@code plan} starts from (null for {@code Plan.EMPTY}). */
        City start(Plan plan);
    }

    /** The company an agent of apdp's host runs. */
    public interface Agents {
        /**
         * Company {@code id} named {@code name} with {@code vehicles} and the tasks it won, {@code won}
         * (kept, not copied: the host adds to it); its properties are {@code params}, named
         * "parameter" in errors (null: none yet, as during the platform's setup). Its statistics are
         * its vehicles' totals, none delivered.
         */
        Agent agent(int id, String name, List<Vehicle> vehicles, TaskSet won, Map<String, String> params);

        /** Make {@code won} (kept, not copied) the tasks {@code agent}, made by {@link #agent}, has won. */
        void tasks(Agent agent, TaskSet won);

        /** An agent's statistics as a history file keeps them: its totals of distance units, cost, reward and tasks. */
        AgentStatistics statistics(String name, long units, long cost, long reward, int tasks);
    }

    /** The vehicles of apdp's host. */
    public interface Vehicles {
        /**
         * A vehicle that is nowhere yet (its current city is null, as during the platform's setup),
         * as {@code new VehicleImpl(...).getInfo()} but for its colour, {@code rgb}, made into a
         * {@code java.awt.Color} only when asked for (java.awt is slow to load). Its speed is in units
         * (km/h x 1000), as the platform's constructor takes it.
         */
        Vehicle vehicle(int id, String name, int capacity, int costPerKm, City home, long speed, int rgb);

        /** Put {@code vehicle}, made by {@link #vehicle}, in its home city, where it stays, carrying nothing. */
        void home(Vehicle vehicle);

        /**
         * Make {@code vehicle}, made by {@link #vehicle}, what the referee says it is now in an exercise's
         * round: in {@code city}, carrying {@code carried} (kept, not copied), having delivered {@code delivered}
         * tasks since its task set was last set, earned {@code reward} and driven {@code units} since the round began.
         */
        void state(Vehicle vehicle, City city, TaskSet carried, int delivered, long reward, long units);

        /** The platform's {@code VehicleImpl.numTasks()} of a vehicle: the tasks it carries and has delivered. */
        int numTasks(Vehicle vehicle);
    }

    /** Each kind of hook and the class whose static initializer registers it. */
    private static final Map<Class<?>, String> OWNERS = new HashMap<>();
    private static final Map<Class<?>, Object> HOOKS = new HashMap<>();

    static {
        OWNERS.put(Platform.class, "logist.LogistPlatform");
        OWNERS.put(Topologies.class, "logist.topology.Topology");
        OWNERS.put(Plans.class, "logist.plan.Plan");
        OWNERS.put(Agents.class, "logist.agent.AgentImpl");
        OWNERS.put(Vehicles.class, "logist.simulation.VehicleImpl");
    }

    /** Make {@code hook} the hook of its {@code kind}, unless one is registered already. */
    public static synchronized <T> void register(Class<T> kind, T hook) {
        if (!HOOKS.containsKey(kind)) {
            HOOKS.put(kind, hook);
        }
    }

    /** The hook of {@code kind} (one of this class's interfaces), its owner initialised first. */
    public static <T> T get(Class<T> kind) {
        String owner = OWNERS.get(kind);
        try {
            Class.forName(owner, true, Hooks.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("apdp's host misses " + owner, e);
        }
        synchronized (Hooks.class) {
            return kind.cast(HOOKS.get(kind));
        }
    }
}

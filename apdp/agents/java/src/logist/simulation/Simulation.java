package logist.simulation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import logist.LogistSettings;
import logist.agent.AgentImpl;
import logist.history.Event;
import logist.history.History;
import logist.plan.Action;
import logist.topology.Topology;

/**
 * One round of the platform's simulation: the agents' vehicles execute their actions, one action per
 * vehicle per {@linkplain #step step}, until none has any left. (The platform animates this in its
 * window; apdp's runs it headless.)
 */
public class Simulation {
    private final Context context;
    private final List<AgentImpl> agents;
    private final History history;
    private final List<VehicleImpl> vehicles = new ArrayList<>();
    private long time;

    /** A simulation of {@code agents} in {@code context}, written to {@code history} (may be null). */
    public Simulation(Context context, List<AgentImpl> agents, History history) {
        this.context = context;
        this.agents = agents;
        this.history = history;
        for (AgentImpl agent : agents) {
            vehicles.addAll(agent.getVehicles());
        }
    }

    /** Run the round to its end; {@code verbose}: print each action as it is executed. */
    public synchronized void run(boolean verbose) {
        while (!isRoundFinished()) {
            time += logist.Measures.NANOS_PER_SIM_HOUR;
            if (verbose) {
                stepVerbose(time);
            } else {
                step(time);
            }
        }
    }

    private void stepVerbose(long now) {
        for (int v = 0; v < vehicles.size(); v++) {
            Action action = execute(v, now);
            if (action != null) {
                System.out.println(vehicles.get(v).getInfo().name() + ": " + action.toLongString());
            }
        }
    }

    /** End the simulation: its history is written out. */
    public synchronized void close() {
        if (history != null) {
            history.flush();
        }
    }

    /** Whether no vehicle has an action left. */
    public boolean isRoundFinished() {
        for (VehicleImpl vehicle : vehicles) {
            if (vehicle.hasNextAction()) {
                return false;
            }
        }
        return true;
    }

    /** Every vehicle with an action left executes one, at simulated time {@code now} (nanoseconds). */
    public void step(long now) {
        for (int v = 0; v < vehicles.size(); v++) {
            execute(v, now);
        }
    }

    private Action execute(int v, long now) {
        VehicleImpl vehicle = vehicles.get(v);
        Action action = vehicle.executeNextAction();
        if (action != null && history != null) {
            history.addEvent(v, Event.fromAction(now, vehicle.getInfo(), action));
        }
        return action;
    }

    /** Every agent's vehicles, agent by agent. */
    public List<VehicleImpl> getVehicles() {
        return Collections.unmodifiableList(vehicles);
    }

    public LogistSettings getSettings() {
        return context.getSettings();
    }

    public Topology getTopology() {
        return context.getTopology();
    }

    public Context getContext() {
        return context;
    }
}

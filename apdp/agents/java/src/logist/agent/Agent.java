package logist.agent;

import java.util.List;

import logist.simulation.Vehicle;
import logist.task.TaskSet;

/** The company an agent runs: its id, name, vehicles, the tasks it won and its parameters. */
public interface Agent {

    /** This agent's index among the match's agents (the index of its bid in auction results). */
    int id();

    /** This agent's name. */
    String name();

    /** The agent's vehicles, in the configuration's order. */
    List<Vehicle> vehicles();

    /** The tasks this agent has won so far. */
    TaskSet getTasks();

    /**
     * The parameter {@code key} of this agent (a {@code <set key="value"/>} of its entry in
     * agents.xml, or of agents/params.toml in apdp) converted to {@code type}, or
     * {@code defaultValue} when the agent has no such parameter.
     */
    <T> T readProperty(String key, Class<T> type, T defaultValue);
}

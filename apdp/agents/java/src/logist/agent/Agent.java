package logist.agent;

import java.util.List;

import logist.simulation.Vehicle;
import logist.task.TaskSet;

/** The company an agent runs: its id, vehicles, the tasks it won, its parameters and its statistics. */
public interface Agent extends AgentStatistics {

    /** This agent's index among the match's agents (the index of its bid in auction results). */
    int id();

    /** The agent's vehicles, in the configuration's order (unmodifiable). */
    List<Vehicle> vehicles();

    /** The tasks this agent has won so far (a copy). */
    TaskSet getTasks();

    /**
     * The parameter {@code key} of this agent (a {@code <set key="value"/>} of its entry in
     * agents.xml; in apdp, of agents/params.toml) converted to {@code type} (see
     * {@code logist.config.XMLTag.convert}), or {@code defaultValue} when the agent has no such
     * parameter. A value that does not convert throws a {@code logist.LogistException}.
     */
    <T> T readProperty(String key, Class<T> type, T defaultValue);
}

package apdp.host;

import java.util.Collections;
import java.util.List;
import java.util.Map;

import logist.LogistException;
import logist.agent.Agent;
import logist.agent.AgentStatistics;
import logist.config.ParserException;
import logist.config.XMLTag;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskSet;

/**
 * The agent's company as the agent sees it: id, name, vehicles, tasks won, parameters. Its
 * statistics are those of the auction game: nothing driven or delivered yet, every total 0.
 */
final class HostAgent implements Agent {
    private final int id;
    private final String name;
    private final List<Vehicle> vehicles;
    private final TaskSet won;
    private final Map<String, String> params;

    HostAgent(int id, String name, List<Vehicle> vehicles, TaskSet won, Map<String, String> params) {
        this.id = id;
        this.name = name;
        this.vehicles = Collections.unmodifiableList(vehicles);
        this.won = won;
        this.params = params;
    }

    void won(Task task) {
        won.add(task);
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<Vehicle> vehicles() {
        return vehicles;
    }

    @Override
    public TaskSet getTasks() {
        return TaskSet.copyOf(won);
    }

    @Override
    public <T> T readProperty(String key, Class<T> type, T defaultValue) {
        try {
            return XMLTag.convert(params, key, "parameter", type, defaultValue);
        } catch (ParserException e) {
            throw new LogistException(e.getMessage(), e);
        }
    }

    @Override
    public long getTotalDistanceUnits() {
        return 0;
    }

    @Override
    public double getTotalDistance() {
        return 0.0;
    }

    @Override
    public long getTotalCost() {
        return 0;
    }

    @Override
    public long getTotalReward() {
        return 0;
    }

    @Override
    public long getTotalProfit() {
        return 0;
    }

    @Override
    public int getTotalTasks() {
        return 0;
    }

    /** By total profit, then name. */
    @Override
    public int compareTo(AgentStatistics other) {
        int c = Long.compare(getTotalProfit(), other.getTotalProfit());
        return c != 0 ? c : name.compareTo(other.name());
    }

    @Override
    public String toString() {
        return name;
    }
}

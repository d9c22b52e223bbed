package logist.task;

import logist.topology.Topology.City;

/** What every agent knows about the tasks to come. */
public interface TaskDistribution {

    /**
     * How likely a task from {@code from} to {@code to} is; with {@code to == null}, how likely
     * {@code from} has no task (the reactive exercise's question; 0 in apdp's matches).
     */
    double probability(City from, City to);

    /** The reward of a task from {@code from} to {@code to} (0 where apdp's scenario has none). */
    int reward(City from, City to);

    /** The weight of a task from {@code from} to {@code to}. */
    int weight(City from, City to);
}

package logist.task;

import logist.topology.Topology.City;

/** What every agent knows about the tasks to come. */
public interface TaskDistribution {

    /** How likely a task from {@code from} to {@code to} is. */
    double probability(City from, City to);

    /** The reward of a task from {@code from} to {@code to} (0 where the scenario has none). */
    int reward(City from, City to);

    /** The weight of a task from {@code from} to {@code to}. */
    int weight(City from, City to);
}

package logist.simulation;

import logist.LogistSettings;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.topology.Topology;

/** What a simulation runs in: the network, the task distribution, the settings, and the counts of pickups and deliveries. */
public interface Context {

    Topology getTopology();

    TaskDistribution getTaskDistribution();

    LogistSettings getSettings();

    /** {@code task} was picked up. */
    void notifyPickup(Task task);

    /** {@code task} was delivered. */
    void notifyDelivery(Task task);

    /** The number of pickups so far in each city (indexed by city id). */
    int[] countPickup();

    /** The number of deliveries so far in each city (indexed by city id). */
    int[] countDelivery();

    /** End the simulation and release what it holds. */
    void close();
}

package logist.task;

import java.util.List;

import logist.topology.Topology.City;

/**
 * A task: carry {@code weight} from {@code pickupCity} to {@code deliveryCity}. The host hands an
 * agent one object per task: the task asked in {@code askPrice} is the very object of
 * {@code auctionResult} and of the {@code TaskSet} given to {@code plan} (tasks compare by identity).
 */
public final class Task {
    /** The task's id: the auction's index, from 0. */
    public final int id;
    /** Where it is picked up. */
    public final City pickupCity;
    /** Where it is delivered. */
    public final City deliveryCity;
    /** What the platform's configuration pays for it (0 where the scenario has no rewards). */
    public final long reward;
    /** Its weight. */
    public final int weight;

    public Task(int id, City from, City to, long reward, int weight) {
        this.id = id;
        this.pickupCity = from;
        this.deliveryCity = to;
        this.reward = reward;
        this.weight = weight;
    }

    /** The cities after the pickup city up to the delivery city, along a shortest path. */
    public List<City> path() {
        return pickupCity.pathTo(deliveryCity);
    }

    /** The shortest distance from the pickup to the delivery city, in km. */
    public double pathLength() {
        return pickupCity.distanceTo(deliveryCity);
    }

    @Override
    public String toString() {
        return "(Task " + id + ", " + weight + " kg, " + reward + " CHF, " + pickupCity + " -> " + deliveryCity + ")";
    }
}

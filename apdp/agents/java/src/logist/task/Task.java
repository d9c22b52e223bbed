package logist.task;

import java.util.List;

import logist.topology.Topology.City;

/**
 * A task: carry {@code weight} from {@code pickupCity} to {@code deliveryCity}. apdp's host hands an
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
    /** What the configuration pays for it (0 where apdp's scenario has no rewards). */
    public final long reward;
    /** Its weight. */
    public final int weight;

    public Task(int id, City pickupCity, City deliveryCity, long reward, int weight) {
        this.id = id;
        this.pickupCity = pickupCity;
        this.deliveryCity = deliveryCity;
        this.reward = reward;
        this.weight = weight;
    }

    /** {@code (Task 0, 3 kg, 1234 CHF, Paris -> Marseille)}. */
    @Override
    public String toString() {
        return "(Task " + id + ", " + weight + " kg, " + reward + " CHF, " + pickupCity + " -> " + deliveryCity + ")";
    }

    /** The cities after the pickup city up to the delivery city, along a shortest path. */
    public List<City> path() {
        return pickupCity.pathTo(deliveryCity);
    }

    /** The shortest distance from the pickup to the delivery city, in km. */
    public double pathLength() {
        return pickupCity.distanceTo(deliveryCity);
    }
}

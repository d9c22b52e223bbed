package course;

import java.util.ArrayList;
import java.util.List;

import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.topology.Topology.City;

/**
 * One vehicle's stops (the pickup or the delivery of a task) in the order it drives to them, filled
 * by greedy insertion. Its cost is added up leg by leg: the leg's km ({@code City.distanceTo}) times
 * the vehicle's cost per km, in doubles.
 */
final class Schedule {
    private final City home;
    private final int capacity;
    private final double costPerKm;
    /** The task of each stop, and whether the stop is its pickup. */
    private final List<Task> tasks = new ArrayList<>();
    private final List<Boolean> pickups = new ArrayList<>();

    Schedule(Vehicle vehicle) {
        home = vehicle.homeCity();
        capacity = vehicle.capacity();
        costPerKm = vehicle.costPerKm();
    }

    private City cityOf(int stop) {
        Task task = tasks.get(stop);
        return pickups.get(stop) ? task.pickupCity : task.deliveryCity;
    }

    double cost() {
        double cost = 0;
        City at = home;
        for (int stop = 0; stop < tasks.size(); stop++) {
            City next = cityOf(stop);
            cost += at.distanceTo(next) * costPerKm;
            at = next;
        }
        return cost;
    }

    /** Whether the load, stop after stop over the whole list, stays within the capacity. */
    private boolean fits() {
        int load = 0;
        for (int stop = 0; stop < tasks.size(); stop++) {
            load += pickups.get(stop) ? tasks.get(stop).weight : -tasks.get(stop).weight;
            if (load > capacity) {
                return false;
            }
        }
        return true;
    }

    /**
     * Puts a stop at the cheapest position from {@code first} on among those that fit (a later
     * position only if strictly cheaper; {@code first} when none fits); returns the position.
     */
    private int place(Task task, boolean pickup, int first) {
        int best = first;
        double bestCost = Double.MAX_VALUE;
        for (int position = first; position <= tasks.size(); position++) {
            tasks.add(position, task);
            pickups.add(position, pickup);
            if (fits()) {
                double cost = cost();
                if (cost < bestCost) {
                    best = position;
                    bestCost = cost;
                }
            }
            tasks.remove(position);
            pickups.remove(position);
        }
        tasks.add(best, task);
        pickups.add(best, pickup);
        return best;
    }

    /** The cost with the task inserted (pickup first, then delivery after it) minus the cost without. */
    double marginalCost(Task task) {
        double before = cost();
        int pickup = place(task, true, 0);
        int delivery = place(task, false, pickup + 1);
        double after = cost();
        tasks.remove(delivery);
        pickups.remove(delivery);
        tasks.remove(pickup);
        pickups.remove(pickup);
        return after - before;
    }

    void add(Task task) {
        place(task, false, place(task, true, 0) + 1);
    }

    Plan plan() {
        Plan plan = new Plan(home);
        City at = home;
        for (int stop = 0; stop < tasks.size(); stop++) {
            City next = cityOf(stop);
            for (City city : at.pathTo(next)) {
                plan.appendMove(city);
            }
            if (pickups.get(stop)) {
                plan.appendPickup(tasks.get(stop));
            } else {
                plan.appendDelivery(tasks.get(stop));
            }
            at = next;
        }
        return plan;
    }
}

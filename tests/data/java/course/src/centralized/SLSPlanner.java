package centralized;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskSet;
import logist.topology.Topology.City;

/**
 * The centralized exercise's planner, reused by the auction agent: each task goes to the vehicle
 * whose tour it lengthens least (cheapest insertion at the end), then a few random swaps between
 * vehicles are kept when they lower the cost.
 */
public class SLSPlanner {
    private final List<Vehicle> vehicles;
    private final Random random;

    public SLSPlanner(List<Vehicle> vehicles, long seed) {
        this.vehicles = vehicles;
        this.random = new Random(seed);
    }

    /** Each vehicle's tasks, in order. */
    public List<List<Task>> assign(TaskSet tasks) {
        List<List<Task>> tours = new ArrayList<>();
        for (int v = 0; v < vehicles.size(); v++) {
            tours.add(new ArrayList<Task>());
        }
        for (Task task : tasks) {
            int best = -1;
            double bestCost = Double.POSITIVE_INFINITY;
            for (int v = 0; v < vehicles.size(); v++) {
                if (task.weight > vehicles.get(v).capacity()) {
                    continue;
                }
                double extra = end(v, tours.get(v)).distanceTo(task.pickupCity) + task.pathLength();
                if (extra * vehicles.get(v).costPerKm() < bestCost) {
                    bestCost = extra * vehicles.get(v).costPerKm();
                    best = v;
                }
            }
            if (best < 0) {
                throw new IllegalArgumentException("no vehicle can carry " + task);
            }
            tours.get(best).add(task);
        }
        for (int round = 0; round < 50 && vehicles.size() > 1; round++) {
            int a = random.nextInt(vehicles.size());
            int b = random.nextInt(vehicles.size());
            if (a == b || tours.get(a).isEmpty()) {
                continue;
            }
            Task moved = tours.get(a).get(random.nextInt(tours.get(a).size()));
            if (moved.weight > vehicles.get(b).capacity()) {
                continue;
            }
            double before = cost(a, tours.get(a)) + cost(b, tours.get(b));
            tours.get(a).remove(moved);
            tours.get(b).add(moved);
            if (cost(a, tours.get(a)) + cost(b, tours.get(b)) > before) {
                tours.get(b).remove(moved);
                tours.get(a).add(moved);
            }
        }
        return tours;
    }

    private City end(int v, List<Task> tour) {
        return tour.isEmpty() ? vehicles.get(v).homeCity() : tour.get(tour.size() - 1).deliveryCity;
    }

    /** What vehicle {@code v} pays to carry {@code tour} one task after the other. */
    public double cost(int v, List<Task> tour) {
        double km = 0;
        City at = vehicles.get(v).homeCity();
        for (Task t : tour) {
            km += at.distanceTo(t.pickupCity) + t.pathLength();
            at = t.deliveryCity;
        }
        return km * vehicles.get(v).costPerKm();
    }

    /** The plans of {@code tours}. */
    public List<Plan> plans(List<List<Task>> tours) {
        List<Plan> plans = new ArrayList<>();
        for (int v = 0; v < vehicles.size(); v++) {
            City at = vehicles.get(v).homeCity();
            Plan plan = new Plan(at);
            for (Task t : tours.get(v)) {
                for (City c : at.pathTo(t.pickupCity)) {
                    plan.appendMove(c);
                }
                plan.appendPickup(t);
                for (City c : t.path()) {
                    plan.appendMove(c);
                }
                plan.appendDelivery(t);
                at = t.deliveryCity;
            }
            plans.add(tours.get(v).isEmpty() ? Plan.EMPTY : plan);
        }
        return plans;
    }
}

package demo;

import java.util.ArrayList;
import java.util.List;

import logist.plan.Action;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.topology.Topology.City;

/** One vehicle's tasks, carried one after the other (a helper class in a file of its own). */
final class Route {
    private final Vehicle vehicle;
    private final List<Task> tasks = new ArrayList<>();
    private City end;

    Route(Vehicle vehicle) {
        this.vehicle = vehicle;
        this.end = vehicle.homeCity();
    }

    boolean isEmpty() {
        return tasks.isEmpty();
    }

    /** What carrying {@code task} after the others costs (infinite when it is too heavy). */
    double extraCost(Task task) {
        if (task.weight > vehicle.capacity()) {
            return Double.POSITIVE_INFINITY;
        }
        return (end.distanceTo(task.pickupCity) + task.pathLength()) * vehicle.costPerKm();
    }

    void add(Task task) {
        tasks.add(task);
        end = task.deliveryCity;
    }

    /**
     * The plan: with {@code hops}, every road one move (appendMove along pathTo); without, one
     * Move per stop, which the host expands along a shortest path.
     */
    Plan plan(boolean hops) {
        City home = vehicle.homeCity();
        if (hops) {
            Plan plan = new Plan(home);
            City at = home;
            for (Task t : tasks) {
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
            Thorough.require(Thorough.count(plan) >= 2 * tasks.size(), "plan iteration");
            return plan;
        }
        List<Action> actions = new ArrayList<>();
        City at = home;
        for (Task t : tasks) {
            if (!at.equals(t.pickupCity)) {
                actions.add(new Action.Move(t.pickupCity));
            }
            actions.add(new Action.Pickup(t));
            if (!t.pickupCity.equals(t.deliveryCity)) {
                actions.add(new Action.Move(t.deliveryCity));
            }
            actions.add(new Action.Delivery(t));
            at = t.deliveryCity;
        }
        Plan plan = new Plan(home, actions);
        Plan copy = new Plan(home, actions.toArray(new Action[0]));
        Thorough.require(copy.totalDistanceUnits() == plan.totalDistanceUnits(), "Plan constructors disagree");
        plan.append(new Action.Move(at)); // a move that stays put costs nothing
        return plan;
    }
}

package logist.plan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * Checks plans against the rules of the platform, for the tasks of {@code tasks}: each task is
 * picked up in its pickup city and delivered in its delivery city by the vehicle that picked it up,
 * a vehicle never carries more than its capacity, and a plan starts where its vehicle is. Moves to
 * cities that are not neighbours are allowed (driven along a shortest path), as the platform allows
 * them. State accumulates over the plans verified: after the last one, {@link #verifyPickup()} and
 * {@link #verifyDelivery()} check that every task was picked up and delivered.
 *
 * <p>Each of {@link #moveTo}, {@link #pickup} and {@link #deliver} executes one action and returns
 * the problems it finds (an empty array when none); {@link #verifyPlan} throws an
 * {@link IllegalPlanException} with every problem of a plan.
 */
public class PlanVerifier implements ActionHandler<String[]> {
    private static final String[] NONE = new String[0];

    private final Topology topology;
    private final TaskSet tasks;
    private final Set<Task> pickedUp = Collections.newSetFromMap(new IdentityHashMap<Task, Boolean>());
    private final Set<Task> delivered = Collections.newSetFromMap(new IdentityHashMap<Task, Boolean>());
    private final Set<Task> load = Collections.newSetFromMap(new IdentityHashMap<Task, Boolean>());
    private City at;
    private int capacity = Integer.MAX_VALUE;
    private int weight;
    private String vehicle = "the vehicle";

    public PlanVerifier(Topology topology, TaskSet tasks) {
        this.topology = topology;
        this.tasks = tasks;
    }

    /** Check {@code plan} for {@code vehicle} (IllegalPlanException with every problem found). */
    public void verifyPlan(Vehicle vehicle, Plan plan) {
        List<String> errors = new ArrayList<>();
        this.vehicle = vehicle.name();
        capacity = vehicle.capacity();
        load.clear();
        weight = 0;
        for (Task task : vehicle.getCurrentTasks()) {
            load.add(task);
            weight += task.weight;
        }
        at = vehicle.getCurrentCity();
        City start = plan.start();
        if (start != null && !start.equals(at)) {
            errors.add("the plan of " + this.vehicle + " starts in " + start + ", not where the vehicle is (" + at + ")");
            at = start;
        }
        for (Action action : plan) {
            Collections.addAll(errors, action.accept(this));
        }
        if (!errors.isEmpty()) {
            throw new IllegalPlanException(errors.toArray(NONE));
        }
    }

    /** IllegalPlanException naming the tasks that no plan verified picks up. */
    public void verifyPickup() {
        missing(pickedUp, "picked up");
    }

    /** IllegalPlanException naming the tasks that no plan verified delivers. */
    public void verifyDelivery() {
        missing(delivered, "delivered");
    }

    private void missing(Set<Task> done, String what) {
        List<String> errors = new ArrayList<>();
        for (Task task : tasks) {
            if (!done.contains(task)) {
                errors.add("task " + task.id + " is never " + what);
            }
        }
        if (!errors.isEmpty()) {
            throw new IllegalPlanException(errors.toArray(NONE));
        }
    }

    @Override
    public String[] moveTo(City city) {
        if (city == null || !topology.contains(city)) {
            return new String[] {vehicle + " moves to " + city + ", which is not a city of " + topology};
        }
        at = city;
        return NONE;
    }

    @Override
    public String[] pickup(Task task) {
        List<String> errors = new ArrayList<>();
        if (!tasks.contains(task)) {
            errors.add(vehicle + " picks up task " + task.id + ", which is not one of the tasks to deliver");
        }
        if (!pickedUp.add(task)) {
            errors.add("task " + task.id + " is picked up twice");
        }
        if (at != null && !at.equals(task.pickupCity)) {
            errors.add(vehicle + " picks up task " + task.id + " in " + at + ", not in " + task.pickupCity);
        }
        load.add(task);
        weight += task.weight;
        if (weight > capacity) {
            errors.add(vehicle + " carries " + weight + " kg with task " + task.id + ", more than its capacity ("
                    + capacity + " kg)");
        }
        return errors.toArray(NONE);
    }

    @Override
    public String[] deliver(Task task) {
        List<String> errors = new ArrayList<>();
        if (!load.remove(task)) {
            errors.add(vehicle + " delivers task " + task.id + ", which it does not carry");
        } else {
            weight -= task.weight;
        }
        if (!delivered.add(task)) {
            errors.add("task " + task.id + " is delivered twice");
        }
        if (at != null && !at.equals(task.deliveryCity)) {
            errors.add(vehicle + " delivers task " + task.id + " in " + at + ", not in " + task.deliveryCity);
        }
        return errors.toArray(NONE);
    }
}

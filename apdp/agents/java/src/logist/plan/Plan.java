package logist.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

import logist.task.Task;
import logist.topology.Topology.City;

/** A vehicle's plan: the actions it takes, starting at its home city. */
public final class Plan implements Iterable<Action> {
    /** The plan of a vehicle that does nothing. */
    public static final Plan EMPTY = new Plan(null, new ArrayList<>(), true);

    private final City initialCity;
    private final List<Action> actions;
    private final boolean fixed;

    private Plan(City initialCity, List<Action> actions, boolean fixed) {
        this.initialCity = initialCity;
        this.actions = actions;
        this.fixed = fixed;
    }

    /** A plan from {@code initialCity} with {@code actions}. */
    public Plan(City initialCity, Action... actions) {
        this(initialCity, new ArrayList<>(Arrays.asList(actions)), false);
    }

    /** A plan from {@code initialCity} with {@code actions}. */
    public Plan(City initialCity, List<Action> actions) {
        this(initialCity, new ArrayList<>(actions), false);
    }

    /** Add {@code action} at the end. */
    public void append(Action action) {
        if (fixed) {
            throw new UnsupportedOperationException("Plan.EMPTY cannot be changed; create a new Plan");
        }
        if (action == null) {
            throw new NullPointerException("a plan holds no null action");
        }
        actions.add(action);
    }

    /** Add a move to {@code city}. */
    public void appendMove(City city) {
        append(new Action.Move(city));
    }

    /** Add the pickup of {@code task}. */
    public void appendPickup(Task task) {
        append(new Action.Pickup(task));
    }

    /** Add the delivery of {@code task}. */
    public void appendDelivery(Task task) {
        append(new Action.Delivery(task));
    }

    /** Where the plan starts (null for {@link #EMPTY}). */
    public City initialCity() {
        return initialCity;
    }

    /** The distance its moves drive, in units (km x 1000); a move to a farther city counts its shortest distance. */
    public long totalDistanceUnits() {
        long units = 0;
        City at = initialCity;
        for (Action action : actions) {
            if (action instanceof Action.Move) {
                City to = ((Action.Move) action).destination;
                if (at != null) {
                    units += at.distanceUnitsTo(to);
                }
                at = to;
            }
        }
        return units;
    }

    /** The distance its moves drive, in km. */
    public double totalDistance() {
        return totalDistanceUnits() / 1000.0;
    }

    @Override
    public Iterator<Action> iterator() {
        return Collections.unmodifiableList(actions).iterator();
    }

    @Override
    public String toString() {
        return actions + ", " + totalDistance();
    }
}

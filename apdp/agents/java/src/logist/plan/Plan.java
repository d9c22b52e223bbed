package logist.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

import apdp.host.Hooks;
import logist.task.Task;
import logist.topology.Topology.City;

/**
 * A vehicle's plan: the actions it takes from the city it starts in (its home city, in an auction).
 * A move to a city that is not a neighbour is driven, and charged, along a shortest path. Once
 * {@linkplain #seal() sealed} a plan cannot change; {@link #EMPTY} is sealed; the platform (and
 * apdp's host) seals a plan before it reads it.
 *
 * <p>As on the platform, a plan made from a list iterates, until it is sealed, over that list (later
 * changes to the list show, appends to the plan do not); sealed, over its own actions (the list as
 * it was, then what was appended).
 */
public class Plan implements Iterable<Action> {
    /** The plan of a vehicle that does nothing (no start city, no actions; sealed). */
    public static final Plan EMPTY = new Plan((City) null).seal();

    static {
        Hooks.register(Hooks.Plans.class, new Hooks.Plans() { // not a lambda: faster to start
            @Override
            public City start(Plan plan) {
                return plan.start;
            }
        });
    }

    private final City start;
    /** The actions as appended to (unmodifiable once sealed). */
    private List<Action> actions;
    /** What iterating gives: the list the plan was made from, or, sealed, the actions. */
    private List<Action> view;

    /** A plan from {@code start} with {@code actions}. */
    public Plan(City start, Action... actions) {
        this.start = start;
        this.actions = new ArrayList<>(Arrays.asList(actions));
        this.view = Collections.unmodifiableList(this.actions);
    }

    /** A plan from {@code start} with {@code actions} (copied; see the class's comment on iterating). */
    public Plan(City start, List<Action> actions) {
        this.start = start;
        this.actions = new ArrayList<>(actions);
        this.view = Collections.unmodifiableList(actions);
    }

    /** The actions, then the distance in km: {@code [Move (Lyon), Pickup (Task 0)], 782.0}. */
    @Override
    public String toString() {
        return Arrays.toString(actions.toArray()) + ", " + totalDistance();
    }

    /** Add {@code action} at the end (UnsupportedOperationException once sealed, as on the platform). */
    public void append(Action action) {
        if (isSealed()) {
            throw new UnsupportedOperationException(this == EMPTY ? "Plan.EMPTY cannot be changed; create a new Plan"
                    : "this plan is sealed and cannot be changed");
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

    /** Make this plan unchangeable; returns it. */
    public Plan seal() {
        if (!isSealed()) {
            actions = Collections.unmodifiableList(new ArrayList<>(actions));
            view = actions;
        }
        return this;
    }

    /** Whether this plan can no longer change. */
    public boolean isSealed() {
        return actions == view;
    }

    /** The actions in order (read only). */
    @Override
    public Iterator<Action> iterator() {
        return view.iterator();
    }

    /** The distance its moves drive, in km. */
    public double totalDistance() {
        return totalDistanceUnits() / 1000.0;
    }

    /** The distance its moves drive, in units (km x 1000); a move to a farther city counts its shortest distance. */
    public long totalDistanceUnits() {
        long units = 0;
        City at = start;
        for (Action action : actions) {
            City to = action.accept(Destination.INSTANCE);
            if (to != null) {
                if (at != null) {
                    units += at.distanceUnitsTo(to);
                }
                at = to;
            }
        }
        return units;
    }

    /** The city a move leads to (null for other actions). */
    private static final class Destination implements ActionHandler<City> {
        static final Destination INSTANCE = new Destination();

        @Override
        public City moveTo(City city) {
            return city;
        }

        @Override
        public City pickup(Task task) {
            return null;
        }

        @Override
        public City deliver(Task task) {
            return null;
        }
    }

    /** Where this plan starts (for PlanVerifier). */
    City start() {
        return start;
    }
}

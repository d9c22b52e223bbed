package logist.plan;

import logist.task.Task;
import logist.topology.Topology.City;

/**
 * A step of a vehicle's plan: move to a city, pick up a task, or deliver a task. An action shows
 * what it does through {@link #accept}: {@code action.accept(handler)} calls the handler's
 * {@code moveTo}, {@code pickup} or {@code deliver}.
 */
public abstract class Action {

    Action() {
    }

    /** The action in words, with the whole task: e.g. {@code Pickup (Task 0, 3 kg, 1234 CHF, Paris -> Lyon)}. */
    public abstract String toLongString();

    /** Hand this action to {@code handler}: its {@code moveTo}, {@code pickup} or {@code deliver}. */
    public abstract <T> T accept(ActionHandler<T> handler);

    /** Drive to a city: a neighbouring one; a farther one is reached along a shortest path. */
    public static final class Move extends Action {
        private final City destination;

        public Move(City destination) {
            if (destination == null) {
                throw new NullPointerException("a Move needs a city");
            }
            this.destination = destination;
        }

        @Override
        public <T> T accept(ActionHandler<T> handler) {
            return handler.moveTo(destination);
        }

        /** {@code Move (Lyon)}. */
        @Override
        public String toString() {
            return "Move (" + destination + ")";
        }

        /** As {@link #toString()}: {@code Move (Lyon)}. */
        @Override
        public String toLongString() {
            return toString();
        }
    }

    /** Pick up a task in its pickup city. */
    public static final class Pickup extends Action {
        private final Task task;

        public Pickup(Task task) {
            if (task == null) {
                throw new NullPointerException("a Pickup needs a task");
            }
            this.task = task;
        }

        @Override
        public <T> T accept(ActionHandler<T> handler) {
            return handler.pickup(task);
        }

        /** {@code Pickup (Task 0)}. */
        @Override
        public String toString() {
            return "Pickup (Task " + task.id + ")";
        }

        /** {@code Pickup (Task 0, 3 kg, 1234 CHF, Paris -> Marseille)}. */
        @Override
        public String toLongString() {
            return "Pickup " + task;
        }
    }

    /** Deliver a task in its delivery city. */
    public static final class Delivery extends Action {
        private final Task task;

        public Delivery(Task task) {
            if (task == null) {
                throw new NullPointerException("a Delivery needs a task");
            }
            this.task = task;
        }

        @Override
        public <T> T accept(ActionHandler<T> handler) {
            return handler.deliver(task);
        }

        /** {@code Deliver (Task 0)} (the platform's word). */
        @Override
        public String toString() {
            return "Deliver (Task " + task.id + ")";
        }

        /** {@code Deliver (Task 0, 3 kg, 1234 CHF, Paris -> Marseille)}. */
        @Override
        public String toLongString() {
            return "Deliver " + task;
        }
    }
}

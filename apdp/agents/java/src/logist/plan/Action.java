package logist.plan;

import logist.task.Task;
import logist.topology.Topology.City;

/** A step of a vehicle's plan: move to a city, pick up a task, or deliver a task. */
public abstract class Action {

    private Action() {
    }

    /** Drive to {@code destination} (a neighbouring city; a farther one is reached along a shortest path). */
    public static final class Move extends Action {
        /** Where the vehicle drives. */
        public final City destination;

        public Move(City destination) {
            if (destination == null) {
                throw new NullPointerException("a Move needs a city");
            }
            this.destination = destination;
        }

        @Override
        public String toString() {
            return "Move (" + destination + ")";
        }
    }

    /** Pick up {@code task} in its pickup city. */
    public static final class Pickup extends Action {
        /** The task picked up. */
        public final Task task;

        public Pickup(Task task) {
            if (task == null) {
                throw new NullPointerException("a Pickup needs a task");
            }
            this.task = task;
        }

        @Override
        public String toString() {
            return "Pickup (Task " + task.id + ")";
        }
    }

    /** Deliver {@code task} in its delivery city. */
    public static final class Delivery extends Action {
        /** The task delivered. */
        public final Task task;

        public Delivery(Task task) {
            if (task == null) {
                throw new NullPointerException("a Delivery needs a task");
            }
            this.task = task;
        }

        @Override
        public String toString() {
            return "Delivery (Task " + task.id + ")";
        }
    }
}

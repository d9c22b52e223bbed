package logist.simulation;

import logist.plan.Action;
import logist.task.Task;

/** What drives a {@link VehicleImpl}: its agent, which gives each vehicle its next action. */
public interface VehicleController {

    /** The next action of vehicle {@code vehicleId} (null: it has nothing left to do). */
    Action nextAction(int vehicleId);

    /** Vehicle {@code vehicleId} could not execute {@code action} (a pickup or delivery in the wrong place). */
    void stuckAction(int vehicleId, Action action);

    /** A vehicle picked up {@code task}. */
    void notifyPickup(Task task);

    /** A vehicle delivered {@code task}. */
    void notifyDelivery(Task task);
}

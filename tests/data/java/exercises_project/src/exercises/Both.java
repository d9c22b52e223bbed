package exercises;

import logist.behavior.AuctionBehavior;
import logist.behavior.ReactiveBehavior;

/**
 * An agent with two behaviours: the auction's (Bidder's) and the reactive exercise's. The platform
 * tests ReactiveBehavior first, so it is a reactive agent: it never bids.
 */
public class Both extends Bidder implements ReactiveBehavior {
    @Override
    public logist.plan.Action act(logist.simulation.Vehicle vehicle, logist.task.Task availableTask) {
        return availableTask != null ? new logist.plan.Action.Pickup(availableTask)
                : new logist.plan.Action.Move(vehicle.getCurrentCity().neighbors().get(0));
    }
}

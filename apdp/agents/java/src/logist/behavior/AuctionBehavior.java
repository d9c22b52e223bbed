package logist.behavior;

import java.util.List;

import logist.agent.Agent;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/**
 * An auction agent: it bids for tasks one at a time, learns each auction's outcome, and finally
 * plans the tasks it won. apdp's host creates one instance per match (a constructor without
 * arguments) and calls these methods in this order.
 */
public interface AuctionBehavior {

    /** Called once, before the first auction. */
    void setup(Topology topology, TaskDistribution distribution, Agent agent);

    /**
     * The bid for {@code task} as a whole number; {@code null} abstains. With a Logist configuration
     * any {@code Long} is a bid, a negative one included (it pays to take the task); in apdp's own
     * scenarios a bid is from 0 to 10^12.
     */
    Long askPrice(Task task);

    /**
     * The outcome of the auction of {@code previous}: the winner's agent id (-1 when nobody bid)
     * and every agent's bid, indexed by agent id ({@code null} for an agent that abstained).
     */
    void auctionResult(Task previous, int winner, Long[] bids);

    /** One plan per vehicle, in the order of {@code vehicles}, that delivers every task won. */
    List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks);
}

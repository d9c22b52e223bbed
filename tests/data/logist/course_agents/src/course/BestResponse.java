package course;

import logist.agent.Agent;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.topology.Topology;

/**
 * Bids max(truncated own marginal cost + 10, truncated opponent's marginal cost, 10); the opponent's
 * is that of a shadow fleet (a copy of its own vehicles) holding every task it did not win.
 */
public class BestResponse extends Honest {
    private Fleet shadow;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        super.setup(topology, distribution, agent);
        shadow = new Fleet(agent.vehicles());
    }

    @Override
    public Long askPrice(Task task) {
        long mine = (long) own.marginalCost(task);
        long theirs = (long) shadow.marginalCost(task);
        return Math.max(Math.max(mine + 10, theirs), 10);
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        super.auctionResult(previous, winner, bids);
        if (winner != agent.id()) {
            shadow.add(previous);
        }
    }
}

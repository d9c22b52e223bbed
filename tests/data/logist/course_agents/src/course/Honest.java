package course;

import java.util.List;

import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/** Bids its fleet's marginal cost, truncated, plus 10; plans its schedules as they stand. */
public class Honest implements AuctionBehavior {
    protected Agent agent;
    protected Fleet own;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.agent = agent;
        own = new Fleet(agent.vehicles());
    }

    @Override
    public Long askPrice(Task task) {
        return (long) own.marginalCost(task) + 10;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        if (winner == agent.id()) {
            own.add(previous);
        }
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        return own.plans();
    }
}

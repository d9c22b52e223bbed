package demo;

import java.util.List;

import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/** A test agent that does not compile (an unknown method of Vehicle). */
public class Broken implements AuctionBehavior {
    private Vehicle vehicle;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        vehicle = agent.vehicles().get(0);
    }

    @Override
    public Long askPrice(Task task) {
        return (long) vehicle.fuelLeft();
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        return null;
    }
}

package bench;

import java.util.ArrayList;
import java.util.List;

import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/** A Logist agent that answers at once (a fixed bid, its tasks one after the other): bench/java_match.py. */
public class Instant implements AuctionBehavior {
    private Agent agent;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.agent = agent;
    }

    @Override
    public Long askPrice(Task task) {
        return 1000L + task.id * (1 + agent.id());
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        City at = vehicles.get(0).homeCity();
        Plan plan = new Plan(at);
        for (Task t : tasks) {
            for (City c : at.pathTo(t.pickupCity)) {
                plan.appendMove(c);
            }
            plan.appendPickup(t);
            for (City c : t.path()) {
                plan.appendMove(c);
            }
            plan.appendDelivery(t);
            at = t.deliveryCity;
        }
        List<Plan> plans = new ArrayList<>();
        plans.add(plan);
        while (plans.size() < vehicles.size()) {
            plans.add(Plan.EMPTY);
        }
        return plans;
    }
}

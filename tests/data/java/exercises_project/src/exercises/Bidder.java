package exercises;

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

/** The project's auction agent: bids the task's distance times its first vehicle's cost per km, plus 500. */
public class Bidder implements AuctionBehavior {
    private Vehicle vehicle;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        vehicle = agent.vehicles().get(0);
    }

    @Override
    public Long askPrice(Task task) {
        return task.weight > vehicle.capacity() ? null : Math.round(task.pathLength() * vehicle.costPerKm()) + 500;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        City here = vehicle.homeCity();
        Plan plan = new Plan(here);
        for (Task t : tasks) {
            for (City c : here.pathTo(t.pickupCity)) {
                plan.appendMove(c);
            }
            plan.appendPickup(t);
            for (City c : t.path()) {
                plan.appendMove(c);
            }
            plan.appendDelivery(t);
            here = t.deliveryCity;
        }
        List<Plan> plans = new ArrayList<>();
        plans.add(plan);
        while (plans.size() < vehicles.size()) {
            plans.add(Plan.EMPTY);
        }
        return plans;
    }
}

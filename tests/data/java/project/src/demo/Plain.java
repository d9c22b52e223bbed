package demo;

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

/**
 * A small test agent: bids the first vehicle's cost of fetching and carrying the task plus a
 * fixed margin, and carries its tasks one after the other with that vehicle. The parameter "fail"
 * makes it fail on the second task: "throw" raises, "shout" raises with a message of 10,000
 * characters, "exit" calls System.exit, "memory" asks for more memory than the JVM has.
 */
public class Plain implements AuctionBehavior {
    private Vehicle vehicle;
    private City at;
    private String fail;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        vehicle = agent.vehicles().get(0);
        at = vehicle.homeCity();
        fail = agent.readProperty("fail", String.class, "");
    }

    @Override
    public Long askPrice(Task task) {
        if (task.id == 1 && fail.equals("throw")) {
            throw new IllegalArgumentException("cannot price " + task);
        }
        if (task.id == 1 && fail.equals("shout")) {
            throw new IllegalStateException("A".repeat(10_000));
        }
        if (task.id == 1 && fail.equals("exit")) {
            System.exit(3);
        }
        if (task.id == 1 && fail.equals("memory")) {
            long[] hoard = new long[1 << 30];
            return hoard[0];
        }
        if (task.weight > vehicle.capacity()) {
            return null;
        }
        return Math.round((at.distanceTo(task.pickupCity) + task.pathLength()) * vehicle.costPerKm()) + 300;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        Plan plan = new Plan(vehicle.homeCity());
        City here = vehicle.homeCity();
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

package template;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import logist.LogistPlatform;
import logist.LogistSettings.TimeoutKey;
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
 * The template agent: it bids the cost of driving its first vehicle to the task and carrying it,
 * with noise that grows with the task's id, as a whole number, and delivers every task it wins one
 * after the other with that vehicle (it abstains on a task too heavy for it).
 */
public class AuctionTemplate implements AuctionBehavior {
    private Agent agent;
    private Vehicle vehicle;
    private City position; // where the vehicle is once it has delivered everything won so far
    private Random random;
    private long bidTimeout; // milliseconds

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.agent = agent;
        this.vehicle = agent.vehicles().get(0);
        this.position = vehicle.homeCity();
        this.random = new Random(-9019554669489983951L * position.hashCode() * (agent.id() + 1)); // seeded
        this.bidTimeout = LogistPlatform.getSettings().get(TimeoutKey.BID);
    }

    @Override
    public Long askPrice(Task task) {
        // The lowest bid wins the task and is paid that bid; null abstains. Answer within bidTimeout ms.
        if (task.weight > vehicle.capacity()) {
            return null;
        }
        double km = position.distanceTo(task.pickupCity) + task.pathLength();
        double cost = km * vehicle.costPerKm();
        double ratio = 1.0 + random.nextDouble() * 0.05 * task.id;
        return (long) Math.floor(cost * ratio + 0.5);
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        // Everybody learns the task, the winner (an agent id) and all bids (null: abstained).
        if (winner == agent.id()) {
            position = previous.deliveryCity;
        }
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        // One plan per vehicle; every won task picked up and delivered by the same vehicle.
        City at = vehicle.homeCity();
        Plan plan = new Plan(at);
        for (Task task : tasks) { // in increasing id: the order they were auctioned
            for (City city : at.pathTo(task.pickupCity)) {
                plan.appendMove(city);
            }
            plan.appendPickup(task);
            for (City city : task.path()) {
                plan.appendMove(city);
            }
            plan.appendDelivery(task);
            at = task.deliveryCity;
        }
        List<Plan> plans = new ArrayList<>();
        for (Vehicle v : vehicles) {
            plans.add(v == vehicle ? plan : Plan.EMPTY);
        }
        return plans;
    }
}

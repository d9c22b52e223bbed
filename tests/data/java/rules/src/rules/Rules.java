package rules;

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
 * An auction agent that meets one of the platform's rules, chosen by its {@code mode} property:
 * {@code slow-result} sleeps {@code sleep} ms in auctionResult and in askPrice (each call within
 * the bid limit, the two together not); {@code max-bid} bids Long.MAX_VALUE ("not interested");
 * {@code huge-bid} bids 2^62 + 1 (two wins wrap a long); {@code throw} throws in askPrice from task
 * {@code at} on. Otherwise it bids 1000 and plans every task on its first vehicle: along roads, or
 * with {@code route} {@code jump} by moves straight to each city (no neighbour of the last), or with
 * {@code anywhere} picking up and delivering every task at home, without a move.
 */
public class Rules implements AuctionBehavior {
    private String mode;
    private long sleep;
    private int at;
    private String route;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        mode = agent.readProperty("mode", String.class, "plain");
        sleep = agent.readProperty("sleep", Long.class, 0L);
        at = agent.readProperty("at", Integer.class, 0);
        route = agent.readProperty("route", String.class, "roads");
    }

    private void pause() {
        try {
            Thread.sleep(sleep);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Long askPrice(Task task) {
        if (mode.equals("slow-result")) {
            pause();
        }
        if (mode.equals("throw") && task.id >= at) {
            throw new IllegalStateException("rules: thrown at task " + task.id);
        }
        if (mode.equals("max-bid")) {
            return Long.MAX_VALUE;
        }
        if (mode.equals("huge-bid")) {
            return (1L << 62) + 1;
        }
        return 1000L;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        if (mode.equals("slow-result")) {
            pause();
        }
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        City at = vehicles.get(0).homeCity();
        Plan plan = new Plan(at);
        for (Task task : tasks) {
            if (route.equals("anywhere")) {
                plan.appendPickup(task);
                plan.appendDelivery(task);
                continue;
            }
            if (route.equals("jump")) {
                if (!at.equals(task.pickupCity)) {
                    plan.appendMove(task.pickupCity);
                }
                plan.appendPickup(task);
                plan.appendMove(task.deliveryCity);
                plan.appendDelivery(task);
                at = task.deliveryCity;
                continue;
            }
            for (City c : at.pathTo(task.pickupCity)) {
                plan.appendMove(c);
            }
            plan.appendPickup(task);
            for (City c : task.path()) {
                plan.appendMove(c);
            }
            plan.appendDelivery(task);
            at = task.deliveryCity;
        }
        List<Plan> plans = new ArrayList<>();
        plans.add(plan);
        while (plans.size() < vehicles.size()) {
            plans.add(Plan.EMPTY);
        }
        return plans;
    }
}

package exercises;

import java.util.Random;

import logist.LogistPlatform;
import logist.LogistSettings.TimeoutKey;
import logist.agent.Agent;
import logist.behavior.ReactiveBehavior;
import logist.plan.Action;
import logist.plan.Action.Move;
import logist.plan.Action.Pickup;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * A reactive agent in the spirit of the course's template: it takes the task offered with the
 * probability "discount-factor" (0.95) and otherwise moves to a random neighbour, drawing from
 * {@code new Random()}, or from {@code new Random(seed)} with the parameter "seed" (>= 0). With
 * "policy" = "greedy" it is deterministic: it takes every task offered and otherwise moves to
 * the neighbour {@code neighbors().get(n % size)} at its n-th act (from 0). It prints what it is
 * handed at every act, and the template's profit line every 50 acts. "fail" (see Faults, and
 * "null": act returns null) fails at the third act.
 */
public class Walker implements ReactiveBehavior {
    private Random random;
    private double pPickup;
    private int numActions;
    private Agent myAgent;
    private boolean greedy;
    private String fail;

    @Override
    public void setup(Topology topology, TaskDistribution td, Agent agent) {
        Double discount = agent.readProperty("discount-factor", Double.class, 0.95);
        long seed = agent.readProperty("seed", Long.class, -1L);
        this.random = seed < 0 ? new Random() : new Random(seed);
        this.pPickup = discount;
        this.numActions = 0;
        this.myAgent = agent;
        this.greedy = agent.readProperty("policy", String.class, "template").equals("greedy");
        this.fail = agent.readProperty("fail", String.class, "");
        Vehicle first = agent.vehicles().get(0);
        System.out.println("WALKER " + agent.id() + " setup agent=" + agent.name() + " id=" + agent.id() + " getTasks=" + agent.getTasks()
                + " cur=" + first.getCurrentCity() + " home=" + first.homeCity() + " cap=" + first.capacity()
                + " cpk=" + first.costPerKm() + " speed=" + first.speed() + " vehicles=" + agent.vehicles().size()
                + " setup=" + LogistPlatform.getSettings().get(TimeoutKey.SETUP)
                + " plan=" + LogistPlatform.getSettings().get(TimeoutKey.PLAN));
        City home = first.homeCity();
        double sum = 0;
        StringBuilder row = new StringBuilder();
        for (City to : topology) {
            sum += td.probability(home, to);
            row.append(' ').append(to).append('=').append(td.probability(home, to)).append('/')
                    .append(td.reward(home, to)).append('/').append(td.weight(home, to));
        }
        System.out.println("WALKER " + agent.id() + " distribution from=" + home + " pNoTask=" + td.probability(home, null) + " sumP=" + sum
                + row);
    }

    @Override
    public Action act(Vehicle vehicle, Task availableTask) {
        if (numActions == 2 && !fail.isEmpty()) {
            Faults.commit(fail, "act");
            if (fail.equals("null")) {
                return null;
            }
        }
        Action action;
        City currentCity = vehicle.getCurrentCity();
        if (greedy) {
            action = availableTask != null ? new Pickup(availableTask)
                    : new Move(currentCity.neighbors().get(numActions % currentCity.neighbors().size()));
        } else if (availableTask == null || random.nextDouble() > pPickup) {
            action = new Move(currentCity.randomNeighbor(random));
        } else {
            action = new Pickup(availableTask);
        }
        System.out.println("WALKER " + myAgent.id() + " act n=" + (numActions + 1) + " task=" + Views.task(availableTask) + " "
                + Views.vehicle(vehicle) + " " + Views.agent(myAgent) + " -> " + action);
        if (numActions % 50 == 0 && numActions >= 1) {
            System.out.println("WALKER " + myAgent.id() + " The total profit after " + numActions + " actions is " + myAgent.getTotalProfit()
                    + " (average profit: " + (myAgent.getTotalProfit() / (double) numActions) + ")");
        }
        numActions++;
        return action;
    }
}

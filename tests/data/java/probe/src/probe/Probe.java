package probe;

import java.util.ArrayList;
import java.util.Arrays;
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
 * Prints every value the platform hands an auction agent, in the format of
 * ../shared/reference/logist-probe/README.md: played on the real platform and in apdp on the same
 * configuration, both print the same lines.
 */
public class Probe implements AuctionBehavior {
    private Agent agent;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.agent = agent;
        System.out.println("PROBE id=" + agent.id() + " name=" + agent.name());
        System.out.println("PROBE timeouts bid=" + LogistPlatform.getSettings().get(TimeoutKey.BID)
                + " plan=" + LogistPlatform.getSettings().get(TimeoutKey.PLAN)
                + " setup=" + LogistPlatform.getSettings().get(TimeoutKey.SETUP));
        for (Vehicle v : agent.vehicles()) {
            System.out.println("PROBE vehicle id=" + v.id() + " home=" + v.homeCity() + " cap=" + v.capacity()
                    + " cpk=" + v.costPerKm() + " speed=" + v.speed() + " cur=" + v.getCurrentCity());
        }
        System.out.println("PROBE cities=" + topology.size());
        for (City a : topology.cities()) {
            System.out.println("PROBE city " + a.id + " " + a.name + " nb=" + a.neighbors().size() + " x=" + a.xPos
                    + " y=" + a.yPos);
            for (City b : topology.cities()) {
                System.out.println("PROBE pair " + a.id + " " + b.id + " d=" + a.distanceTo(b) + " du="
                        + a.distanceUnitsTo(b) + " p=" + distribution.probability(a, b) + " r="
                        + distribution.reward(a, b) + " w=" + distribution.weight(a, b) + " path="
                        + a.pathTo(b).size());
            }
            System.out.println("PROBE pnull " + a.id + " p=" + distribution.probability(a, null));
        }
        StringBuilder line = new StringBuilder("PROBE randomCity");
        Random random = new Random(1);
        for (int i = 0; i < 10; i++) {
            line.append(' ').append(topology.randomCity(random).id);
        }
        System.out.println(line);
    }

    @Override
    public Long askPrice(Task task) {
        System.out.println("PROBE task " + task.id + " " + task.pickupCity + "->" + task.deliveryCity + " w="
                + task.weight + " reward=" + task.reward + " pathLength=" + task.pathLength());
        return task.id % 2 == agent.id() ? 1000L : 2000L;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        System.out.println("PROBE result task=" + previous.id + " reward=" + previous.reward + " winner=" + winner
                + " bids=" + Arrays.toString(bids) + " me=" + agent.id() + " mytasks=" + agent.getTasks().size());
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        System.out.println("PROBE plan vehicles=" + vehicles.size() + " tasks=" + tasks.size() + " rewardSum="
                + tasks.rewardSum());
        Vehicle first = vehicles.get(0);
        City at = first.homeCity();
        Plan plan = new Plan(at);
        for (Task task : tasks) {
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

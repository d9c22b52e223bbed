package apdp.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

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
 * The agent the host plays when apdp builds an agent's class data archive (apdp/agents/java/archive.py):
 * it uses what Logist agents commonly use (the network's paths and distances, the task distribution,
 * task sets, plans, collections, a lambda, a stream and string concatenation), so that the JVM of any
 * agent finds those classes, the host's and the JDK's, ready in the archive. It is never an opponent.
 */
public class Rehearsal implements AuctionBehavior {
    private Agent agent;
    private Topology topology;
    private TaskDistribution distribution;
    private final Random random = new Random(1);
    private final Map<Integer, Long> bids = new HashMap<>();

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.topology = topology;
        this.distribution = distribution;
        this.agent = agent;
        double margin = agent.readProperty("margin", Double.class, 1.1);
        double expected = 0;
        for (City from : topology) {
            for (City to : topology.cities()) {
                expected += distribution.probability(from, to) * distribution.reward(from, to) * margin
                        + distribution.weight(from, to) * from.distanceTo(to);
            }
        }
        List<String> names = topology.cities().stream().map(c -> c.name).sorted().collect(Collectors.toList());
        System.err.println("rehearsal: " + names.size() + " cities, " + (long) expected);
    }

    @Override
    public Long askPrice(Task task) {
        Vehicle vehicle = agent.vehicles().get(0);
        if (task.weight > vehicle.capacity()) {
            return null;
        }
        double cost = vehicle.homeCity().distanceTo(task.pickupCity) + task.pathLength();
        long bid = (long) (cost * vehicle.costPerKm()) + random.nextInt(10);
        bids.put(task.id, bid);
        return bid;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] offers) {
        Set<Long> seen = new HashSet<>();
        for (Long offer : offers) {
            if (offer != null) {
                seen.add(offer);
            }
        }
        bids.remove(previous.id);
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        List<Plan> plans = new ArrayList<>();
        List<Task> order = new ArrayList<>(tasks);
        order.sort(Comparator.comparingInt((Task t) -> t.id));
        Collections.reverse(order);
        Collections.reverse(order);
        LinkedList<Task> queue = new LinkedList<>(order);
        PriorityQueue<Task> byReward = new PriorityQueue<>((a, b) -> Long.compare(b.reward, a.reward));
        byReward.addAll(TaskSet.copyOf(tasks));
        Vehicle first = vehicles.get(0);
        City at = first.homeCity();
        Plan plan = new Plan(at);
        TaskSet carried = TaskSet.noneOf(tasks);
        while (!queue.isEmpty()) {
            Task task = queue.poll();
            for (City city : at.pathTo(task.pickupCity)) {
                plan.appendMove(city);
            }
            plan.appendPickup(task);
            carried.add(task);
            for (City city : task.path()) {
                plan.appendMove(city);
            }
            plan.appendDelivery(task);
            carried.remove(task);
            at = task.deliveryCity;
        }
        plans.add(plan);
        while (plans.size() < vehicles.size()) {
            plans.add(Plan.EMPTY);
        }
        System.err.println("rehearsal: " + tasks.size() + " tasks, " + plan.totalDistance() + " km, "
                + carried.weightSum() + " " + byReward.size() + " " + topology.size() + " " + distribution);
        return plans;
    }
}

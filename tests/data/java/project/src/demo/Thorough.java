package demo;

import java.awt.Color;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;

import cern.colt.Arrays; // a stray import some students' agents carry: it must compile
import logist.LogistPlatform;
import logist.LogistSettings;
import logist.LogistSettings.TimeoutKey;
import logist.Measures;
import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
import logist.config.Parsers;
import logist.plan.Action;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.DefaultTaskDistribution;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * A test agent for apdp's Java host that touches every member of the Logist API the course's
 * agents use, and checks what the platform promises (one Task object per task, settings in
 * milliseconds by every route, vehicles at home, distances in units). A broken promise throws,
 * which the referee records as this agent's fault. It bids its cheapest vehicle's cost of carrying
 * the task after its current route, times a margin (parameter "margin"), and plans each vehicle's
 * tasks one after the other (see Route).
 */
public class Thorough implements AuctionBehavior {
    private static final long BID_LIMIT = LogistPlatform.getSettings().get(TimeoutKey.BID); // read before setup

    private Topology topology;
    private TaskDistribution distribution;
    private Agent agent;
    private Random random;
    private double margin;
    private final List<Route> routes = new ArrayList<>();
    private final List<Task> asked = new ArrayList<>();
    private Task lastAsked;
    private Route lastChoice;
    private TaskSet won;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.topology = topology;
        this.distribution = distribution;
        this.agent = agent;
        this.random = new Random(17 + agent.id());
        this.margin = agent.readProperty("margin", Double.class, 1.1);
        int rounds = agent.readProperty("rounds", Integer.class, 3);
        String label = agent.readProperty("label", String.class, "none");
        System.out.println("thorough " + agent.name() + " (" + agent.id() + ") margin " + margin + " rounds "
                + rounds + " label " + label);
        checkSettings();
        checkTopology();
        for (Vehicle v : agent.vehicles()) {
            require(v.getCurrentCity() == null, "a vehicle is somewhere during setup (the platform's are nowhere yet)");
            require(v.capacity() > 0 && v.costPerKm() > 0 && v.speed() > 0, "vehicle numbers");
            Color color = v.color();
            require(color != null, "no colour");
            require(agent.vehicles().get(v.id()) == v, "vehicle ids are not indices");
            System.out.println("vehicle " + v.id() + " " + v.name() + " at " + v.homeCity());
            routes.add(new Route(v));
        }
        require(agent.getTasks() == null, "tasks during setup (the platform's agent has none until its round)");
        won = TaskSet.noneOf(TaskSet.create(new Task[0]));
        DefaultTaskDistribution sampler = (DefaultTaskDistribution) distribution;
        double pairs = 0;
        for (int k = 0; k < rounds; k++) {
            Task t = sampler.createTask();
            require(distribution.probability(t.pickupCity, t.deliveryCity) > 0, "drew an impossible task");
            pairs += distribution.weight(t.pickupCity, t.deliveryCity) + distribution.reward(t.pickupCity, t.deliveryCity);
        }
        require(pairs > 0, "synthetic tasks weigh nothing");
        checkFormats(sampler.createTask());
    }

    /** toString as the platform writes it, and the reference's Paris-Marseille figures in France. */
    private void checkFormats(Task task) {
        City from = task.pickupCity;
        City next = from.neighbors().get(0);
        Plan plan = new Plan(from);
        plan.appendMove(next);
        plan.appendPickup(task);
        String expected = "[Move (" + next.name + "), Pickup (Task " + task.id + ")], " + from.distanceTo(next);
        require(plan.toString().equals(expected), "Plan.toString: " + plan);
        require(Plan.EMPTY.toString().equals("[], 0.0"), "Plan.EMPTY: " + Plan.EMPTY);
        require(from.toString().equals(from.name), "City.toString");
        if (topology.cities().get(0).name.equals("Brest")) { // France (Topology.toString() lists the cities)
            City paris = topology.parseCity("Paris");
            City marseille = topology.parseCity("Marseille");
            require(paris.distanceTo(marseille) == 782.0 && paris.distanceUnitsTo(marseille) == 782000L,
                    "Paris-Marseille is not 782 km");
            require(paris.pathTo(marseille).toString().equals("[Lyon, Marseille]"), "Paris-Marseille path");
        }
    }

    private void checkSettings() {
        LogistSettings platform = LogistPlatform.getSettings();
        long bid = platform.get(TimeoutKey.BID);
        require(bid == BID_LIMIT && bid > 0, "bid limit changed");
        require(new LogistSettings().get(TimeoutKey.PLAN) == 30300L, "new LogistSettings() is the platform's defaults");
        for (String path : new String[] {"config/settings_auction.xml", "config/settings_default.xml",
                "config\\settings_auction.xml"}) {
            LogistSettings file;
            try {
                file = Parsers.parseSettings(path);
            } catch (Exception e) {
                throw new IllegalStateException("cannot read " + path + ": " + e);
            }
            for (TimeoutKey key : new TimeoutKey[] {TimeoutKey.SETUP, TimeoutKey.BID, TimeoutKey.PLAN}) {
                require(file.get(key) == platform.get(key), path + " disagrees on " + key);
            }
        }
        System.out.println("limits (ms): setup " + platform.get(TimeoutKey.SETUP) + " bid " + bid + " plan "
                + platform.get(TimeoutKey.PLAN));
    }

    private void checkTopology() {
        require(topology.size() == topology.cities().size() && topology.size() > 1, "cities");
        int seen = 0;
        for (City city : topology) {
            require(topology.cities().get(city.id) == city, "city ids are not indices");
            require(topology.parseCity(city.name).equals(city), "parseCity");
            require(city.pathTo(city).isEmpty() && city.distanceTo(city) == 0.0, "a city is not at itself");
            require(city.xPos != Integer.MIN_VALUE && city.yPos != Integer.MIN_VALUE, "no position");
            require(!city.neighbors().isEmpty(), "an isolated city");
            City next = city.randomNeighbor(random);
            require(city.hasNeighbor(next) && next.hasNeighbor(city), "roads go both ways");
            seen++;
        }
        require(seen == topology.size(), "iteration");
        City a = topology.randomCity(random);
        City b = topology.randomCity(random);
        long units = a.distanceUnitsTo(b);
        require(Measures.unitsToKM(units) == a.distanceTo(b), "units are not km x 1000");
        List<City> path = a.pathTo(b);
        require(a.equals(b) ? path.isEmpty() : path.get(path.size() - 1).equals(b), "pathTo ends elsewhere");
        long walked = 0;
        City at = a;
        for (City c : path) {
            require(at.hasNeighbor(c), "pathTo skips a road");
            walked += at.distanceUnitsTo(c);
            at = c;
        }
        require(walked == units, "pathTo is not a shortest path");
        require(a.hashCode() == topology.parseCity(a.name).hashCode(), "hashCode");
    }

    @Override
    public Long askPrice(Task task) {
        require(!asked.contains(task), "a task asked twice");
        asked.add(task);
        lastAsked = task;
        require(task.toString().equals("(Task " + task.id + ", " + task.weight + " kg, " + task.reward + " CHF, "
                + task.pickupCity + " -> " + task.deliveryCity + ")"), "Task.toString: " + task);
        require(task.path().isEmpty() == task.pickupCity.equals(task.deliveryCity), "task path");
        require(Math.abs(task.pathLength() - task.pickupCity.distanceTo(task.deliveryCity)) < 1e-9, "pathLength");
        lastChoice = null;
        double best = Double.POSITIVE_INFINITY;
        for (Route route : routes) {
            double cost = route.extraCost(task);
            if (cost < best) {
                best = cost;
                lastChoice = route;
            }
        }
        if (lastChoice == null) {
            return null; // too heavy for every vehicle
        }
        return (long) Math.ceil(best * margin) + 1;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        // as on the platform: a task sold is told as a new Task whose reward is the winning bid
        require(previous.id == lastAsked.id && (winner < 0 ? previous == lastAsked
                : previous != lastAsked && previous.reward == bids[winner]), "auctionResult's task");
        require(bids.length >= 2 && (winner < 0 || bids[winner] != null), "bids");
        if (winner == agent.id()) {
            require(bids[agent.id()] != null, "won without a bid");
            lastChoice.add(previous);
            won.add(previous);
            require(agent.getTasks().contains(previous), "getTasks misses a won task");
        }
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        require(tasks.size() == won.size() && tasks.containsAll(won), "plan's tasks are not the tasks won");
        for (Task t : tasks) { // the task objects auctionResult was told of (the platform's: not askPrice's)
            require(won.contains(t) && !asked.contains(t), "plan's Task objects are not auctionResult's");
        }
        checkTaskSets(tasks);
        List<Plan> plans = new ArrayList<>();
        for (Vehicle v : vehicles) {
            Route route = routes.get(v.id());
            Plan plan = route.isEmpty() ? Plan.EMPTY : route.plan(v.id() % 2 == 0);
            System.out.println(v.name() + ": " + plan);
            require(Math.abs(plan.totalDistance() - Measures.unitsToKM(plan.totalDistanceUnits())) < 1e-9,
                    "totalDistance");
            plans.add(plan);
        }
        return plans;
    }

    private void checkTaskSets(TaskSet tasks) {
        TaskSet none = TaskSet.noneOf(tasks);
        require(none.isEmpty(), "noneOf");
        TaskSet copy = TaskSet.copyOf(tasks);
        TaskSet clone = tasks.clone();
        require(copy.equals(tasks) && clone.equals(tasks), "copies");
        int weights = 0;
        long rewards = 0;
        int previousId = -1;
        for (Iterator<Task> it = tasks.iterator(); it.hasNext();) {
            Task t = it.next();
            require(t.id > previousId, "TaskSet is not in increasing id");
            previousId = t.id;
            weights += t.weight;
            rewards += t.reward;
        }
        require(tasks.weightSum() == weights && tasks.rewardSum() == rewards, "sums");
        require(tasks.stream().mapToInt(t -> t.weight).sum() == weights, "stream");
        if (!tasks.isEmpty()) {
            Task first = tasks.iterator().next();
            TaskSet one = TaskSet.create(new Task[] {first});
            require(one.size() == 1 && one.contains(first), "create");
            require(TaskSet.union(one, none).size() == 1, "union");
            require(TaskSet.intersectComplement(tasks, one).size() == tasks.size() - 1, "intersectComplement");
            require(copy.remove(first) && !copy.contains(first) && clone.contains(first), "remove");
            require(none.add(first) && !none.add(first), "add");
            Task twin = new Task(first.id, first.pickupCity, first.deliveryCity, first.reward, first.weight);
            require(!tasks.contains(twin), "tasks compare by identity");
        }
        System.out.println("tasks " + tasks + " weigh " + tasks.weightSum() + " and pay " + tasks.rewardSum()
                + Arrays.class.getSimpleName().substring(0, 0));
    }

    static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("Logist promise broken: " + what);
        }
    }

    /** Check a plan's actions the way an agent inspects them. */
    static int count(Plan plan) {
        int n = 0;
        for (Action a : plan) {
            if (a instanceof Action.Pickup || a instanceof Action.Delivery || a instanceof Action.Move) {
                n++;
            }
        }
        return n;
    }
}

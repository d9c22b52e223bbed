package surface;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

import logist.LogistPlatform;
import logist.LogistSettings.TimeoutKey;
import logist.Measures;
import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
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
 * Prints what the members of the Logist API an agent reads return, one line a value, each line
 * {@code SURFACE <agent id> <what> <value>} (a value as String.valueOf gives it; a call that throws
 * prints {@code threw <exception class>}). Played on the real platform and in apdp on the same
 * configuration, each agent prints the same lines (tests/java/test_logist_surface.py). Nothing
 * printed depends on identity hashes or time.
 */
public class Surface implements AuctionBehavior {

    /** A value to print, which may throw. */
    private interface Value {
        Object get() throws Exception;
    }

    private Topology topology;
    private TaskDistribution distribution;
    private Agent agent;
    private int me = -1;
    /** The task objects askPrice was given, by id. */
    private final Map<Integer, Task> asked = new HashMap<>();

    private void show(String what, Value value) {
        String text;
        try {
            text = String.valueOf(value.get());
        } catch (Exception e) {
            text = "threw " + e.getClass().getName();
        }
        System.out.println("SURFACE " + me + " " + what + " " + text);
    }

    private static String ids(Iterable<Task> tasks) {
        List<Integer> ids = new ArrayList<>();
        for (Task task : tasks) {
            ids.add(task.id);
        }
        return ids.toString();
    }

    private static <T> String listed(Iterable<T> things) {
        List<String> out = new ArrayList<>();
        for (T thing : things) {
            out.add(String.valueOf(thing));
        }
        return out.toString();
    }

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.topology = topology;
        this.distribution = distribution;
        this.agent = agent;
        this.me = agent.id();
        showAgent("setup");
        showSettings();
        showMeasures();
        showTopology();
        showDistribution();
        showTask();
        showTaskSets();
        showActions();
        showPlans();
        showVehicles("setup");
    }

    private void showAgent(String when) {
        show(when + " agent.id", () -> agent.id());
        show(when + " agent.name", () -> agent.name());
        show(when + " agent.vehicles.size", () -> agent.vehicles().size());
        show(when + " agent.vehicles.names", () -> listed(agent.vehicles().stream().map(Vehicle::name)
                .collect(Collectors.toList())));
        show(when + " agent.vehicles.same", () -> agent.vehicles().get(0) == agent.vehicles().get(0));
        show(when + " agent.vehicles.add", () -> agent.vehicles().add(agent.vehicles().get(0)));
        show(when + " agent.getTasks", () -> agent.getTasks());
        show(when + " agent.getTasks.fresh", () -> agent.getTasks() != agent.getTasks());
        show(when + " readProperty int", () -> agent.readProperty("int-value", Integer.class, 5));
        show(when + " readProperty int-as-long", () -> agent.readProperty("int-value", Long.class, 5L));
        show(when + " readProperty int-as-double", () -> agent.readProperty("int-value", Double.class, 0.5));
        show(when + " readProperty long", () -> agent.readProperty("long-value", Long.class, 0L));
        show(when + " readProperty double", () -> agent.readProperty("double-value", Double.class, 1.0));
        show(when + " readProperty double-as-int", () -> agent.readProperty("double-value", Integer.class, 1));
        show(when + " readProperty string", () -> agent.readProperty("string-value", String.class, "none"));
        show(when + " readProperty string-as-int", () -> agent.readProperty("string-value", Integer.class, 1));
        show(when + " readProperty true", () -> agent.readProperty("true-value", Boolean.class, false));
        show(when + " readProperty yes", () -> agent.readProperty("yes-value", Boolean.class, true));
        show(when + " readProperty default", () -> agent.readProperty("missing", Integer.class, 7));
        show(when + " readProperty default-string", () -> agent.readProperty("missing", String.class, "seven"));
        show(when + " readProperty no-default", () -> agent.readProperty("missing", Integer.class, null));
    }

    private void showSettings() {
        for (TimeoutKey key : TimeoutKey.values()) {
            show("settings " + key, () -> LogistPlatform.getSettings().get(key));
        }
    }

    private void showMeasures() {
        for (long units : new long[] {0L, 1L, 999L, 782000L, -1500L, 123456789L}) {
            show("unitsToKM " + units, () -> Measures.unitsToKM(units));
        }
        for (double km : new double[] {0.0, 782.0, 1.9999, 0.0005, 0.0015, -1.5, -0.0009, 2.675, 123.4567}) {
            show("kmToUnits " + km, () -> Measures.kmToUnits(km));
        }
    }

    private void showTopology() {
        show("topology.size", () -> topology.size());
        show("topology.toString", () -> topology);
        show("topology.cities", () -> topology.cities());
        show("topology.iteration", () -> listed(topology));
        show("topology.cities.add", () -> topology.cities().add(topology.cities().get(0)));
        show("topology.parseCity unknown", () -> topology.parseCity("Atlantis"));
        show("topology.parseCity null", () -> topology.parseCity(null));
        for (long seed : new long[] {1L, 42L}) {
            Random random = new Random(seed);
            List<Integer> drawn = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                drawn.add(topology.randomCity(random).id);
            }
            show("topology.randomCity seed=" + seed, () -> drawn);
        }
        for (City a : topology) {
            String c = "city " + a.id;
            show(c + " toString", () -> a);
            show(c + " name", () -> a.name);
            show(c + " xPos yPos", () -> a.xPos + " " + a.yPos);
            show(c + " hashCode", () -> a.hashCode());
            show(c + " parseCity", () -> topology.parseCity(a.name).id + " same="
                    + (topology.parseCity(a.name) == a));
            show(c + " contains", () -> topology.contains(a));
            show(c + " neighbors", () -> a.neighbors());
            show(c + " iteration", () -> listed(a));
            show(c + " neighbors.add", () -> a.neighbors().add(a));
            Random random = new Random(a.id);
            List<String> drawn = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                drawn.add(a.randomNeighbor(random).name);
            }
            show(c + " randomNeighbor seed=" + a.id, () -> drawn);
            show(c + " equals self null name", () -> a.equals(a) + " " + a.equals(null) + " " + a.equals(a.name));
            show(c + " pathTo.self", () -> a.pathTo(a));
            show(c + " pathTo.add", () -> a.pathTo(a).add(a));
            for (City b : topology) {
                show("pair " + a.id + " " + b.id, () -> "d=" + a.distanceTo(b) + " du=" + a.distanceUnitsTo(b)
                        + " path=" + a.pathTo(b) + " nb=" + a.hasNeighbor(b) + " eq=" + a.equals(b));
            }
        }
    }

    private void showDistribution() {
        show("distribution.default", () -> distribution instanceof DefaultTaskDistribution);
        for (City a : topology) {
            for (City b : topology) {
                show("law " + a.id + " " + b.id, () -> "p=" + distribution.probability(a, b) + " r="
                        + distribution.reward(a, b) + " w=" + distribution.weight(a, b));
            }
            show("law " + a.id + " null", () -> "p=" + distribution.probability(a, null) + " r="
                    + distribution.reward(a, null) + " w=" + distribution.weight(a, null));
        }
    }

    private void showTask() {
        List<City> cities = topology.cities();
        Task task = new Task(7, cities.get(0), cities.get(cities.size() - 1), 1234L, 3);
        show("new Task", () -> task);
        show("new Task fields", () -> task.id + " " + task.pickupCity + " " + task.deliveryCity + " "
                + task.reward + " " + task.weight);
        show("new Task path", () -> task.path());
        show("new Task pathLength", () -> task.pathLength());
        Task same = new Task(0, cities.get(1), cities.get(1), -5L, 0);
        show("new Task to itself", () -> same + " " + same.path() + " " + same.pathLength());
    }

    private Task[] ownTasks() {
        List<City> cities = topology.cities();
        return new Task[] {
            new Task(0, cities.get(0), cities.get(1), 100L, 3),
            new Task(1, cities.get(1), cities.get(2), 2000000000L, 5),
            new Task(2, cities.get(2), cities.get(0), 2000000000L, 7),
            new Task(3, cities.get(3), cities.get(2), -50L, 1),
        };
    }

    private void showTaskSets() {
        Task[] u = ownTasks();
        TaskSet all = TaskSet.create(u);
        showSet("create", all);
        TaskSet none = TaskSet.noneOf(all);
        showSet("noneOf", none);
        show("set add 2", () -> none.add(u[2]));
        show("set add 2 again", () -> none.add(u[2]));
        show("set add 0", () -> none.add(u[0]));
        showSet("added", none);
        show("set contains 0 1 string null", () -> none.contains(u[0]) + " " + none.contains(u[1]) + " "
                + none.contains("task") + " " + none.contains(null));
        TaskSet copy = TaskSet.copyOf(all);
        show("set remove 1", () -> copy.remove(u[1]));
        show("set remove 1 again", () -> copy.remove(u[1]));
        show("set remove string", () -> copy.remove("task"));
        showSet("copyOf removed", copy);
        showSet("copyOf source", all);
        showSet("union", TaskSet.union(none, copy));
        showSet("intersect", TaskSet.intersect(all, none));
        showSet("intersectComplement", TaskSet.intersectComplement(all, none));
        TaskSet clone = all.clone();
        show("set clone same equals", () -> (clone == all) + " " + clone.equals(all) + " " + clone.equals(copy));
        show("set clone remove 3", () -> clone.remove(u[3]) + " " + clone.size() + " " + all.size());
        Iterator<Task> it = clone.iterator();
        show("set iterator.remove", () -> {
            it.next();
            it.remove();
            return ids(clone) + " " + it.next().id;
        });
        show("set containsAll", () -> all.containsAll(copy) + " " + copy.containsAll(all));
        show("set stream", () -> all.stream().map(t -> t.id).collect(Collectors.toList()));
        show("set stream heavy", () -> all.stream().filter(t -> t.weight > 3).count());
        show("set toArray", () -> Arrays.toString(all.toArray()));
        TaskSet empty = TaskSet.create(new Task[0]);
        showSet("create empty", empty);
    }

    private void showSet(String what, TaskSet set) {
        show("set " + what, () -> set);
        show("set " + what + " size isEmpty", () -> set.size() + " " + set.isEmpty());
        show("set " + what + " ids", () -> ids(set));
        show("set " + what + " rewardSum weightSum", () -> set.rewardSum() + " " + set.weightSum());
    }

    private void showActions() {
        List<City> cities = topology.cities();
        Task task = ownTasks()[1];
        Action move = new Action.Move(cities.get(2));
        Action pickup = new Action.Pickup(task);
        Action delivery = new Action.Delivery(task);
        for (Action action : new Action[] {move, pickup, delivery}) {
            show("action " + action.getClass().getSimpleName(), () -> action + " | " + action.toLongString());
        }
    }

    private void showPlans() {
        List<City> cities = topology.cities();
        City home = cities.get(0);
        City far = cities.get(cities.size() - 1);
        Task task = ownTasks()[1];
        Plan empty = new Plan(home);
        showPlan("new", empty);
        Plan built = new Plan(home);
        for (City c : home.pathTo(task.pickupCity)) {
            built.appendMove(c);
        }
        built.appendPickup(task);
        for (City c : task.path()) {
            built.appendMove(c);
        }
        built.appendDelivery(task);
        built.append(new Action.Move(far));
        showPlan("built", built);
        Plan direct = new Plan(home, new Action.Move(far), new Action.Move(far), new Action.Move(home));
        showPlan("direct", direct);
        List<Action> actions = new ArrayList<>();
        actions.add(new Action.Move(far));
        actions.add(new Action.Pickup(task));
        actions.add(new Action.Move(task.pickupCity));
        Plan listed = new Plan(home, actions);
        showPlan("from a list", listed);
        show("plan from a list seal", () -> listed.seal() == listed);
        showPlan("from a list sealed", listed);
        show("plan sealed append", () -> {
            listed.appendMove(far);
            return "appended";
        });
        showPlan("EMPTY", Plan.EMPTY);
        show("plan EMPTY appendMove", () -> {
            Plan.EMPTY.appendMove(home);
            return "appended";
        });
        show("plan built iterator.remove", () -> {
            Iterator<Action> it = built.iterator();
            it.next();
            it.remove();
            return "removed";
        });
    }

    private void showPlan(String what, Plan plan) {
        show("plan " + what, () -> plan);
        show("plan " + what + " iteration", () -> listed(plan));
        show("plan " + what + " distance", () -> plan.totalDistance() + " " + plan.totalDistanceUnits());
        show("plan " + what + " isSealed", () -> plan.isSealed());
    }

    private void showVehicles(String when) {
        for (Vehicle v : agent.vehicles()) {
            String w = when + " vehicle " + v.id();
            show(w + " id name", () -> v.id() + " " + v.name());
            show(w + " capacity costPerKm speed", () -> v.capacity() + " " + v.costPerKm() + " " + v.speed());
            show(w + " homeCity", () -> v.homeCity());
            show(w + " getCurrentCity", () -> v.getCurrentCity());
            show(w + " getCurrentTasks", () -> v.getCurrentTasks());
            show(w + " reward distance", () -> v.getReward() + " " + v.getDistanceUnits() + " " + v.getDistance());
            show(w + " color", () -> v.color());
            show(w + " toString is Object's", () -> String.valueOf(v).equals(
                    v.getClass().getName() + "@" + Integer.toHexString(v.hashCode())));
        }
    }

    @Override
    public Long askPrice(Task task) {
        String a = "ask " + task.id;
        show(a + " task", () -> task);
        show(a + " fields", () -> task.id + " " + task.pickupCity + " " + task.deliveryCity + " " + task.reward + " "
                + task.weight);
        show(a + " path pathLength", () -> task.path() + " " + task.pathLength());
        asked.put(task.id, task);
        show(a + " getTasks", () -> ids(agent.getTasks()) + " " + agent.getTasks().rewardSum());
        for (Vehicle v : agent.vehicles()) {
            show(a + " vehicle " + v.id(), () -> v.getCurrentCity() + " " + v.getCurrentTasks() + " "
                    + v.getReward() + " " + v.getDistanceUnits());
        }
        int k = task.id;
        Long bid;
        if (k % 5 == 3) {
            bid = null; // nobody bids
        } else if (k % 5 == 4) {
            bid = 1500L + k; // a tie
        } else if (k == 2) {
            bid = Long.MAX_VALUE; // both, a tie at the largest bid
        } else if (k == 1 && me == 1) {
            bid = -5L;
        } else if (k % 7 == 6 && me == 1) {
            bid = null;
        } else {
            bid = (k % 2 == me ? 1000L : 2000L) + 10L * k;
        }
        show(a + " bid", () -> bid);
        return bid;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        String r = "result " + previous.id;
        show(r + " task", () -> previous);
        show(r + " asked", () -> asked.get(previous.id) == previous);
        show(r + " winner bids", () -> winner + " " + Arrays.toString(bids) + " " + bids.length);
        show(r + " getTasks", () -> agent.getTasks() + " " + agent.getTasks().rewardSum() + " "
                + agent.getTasks().weightSum());
        show(r + " getTasks has it", () -> agent.getTasks().contains(previous));
        for (Vehicle v : agent.vehicles()) {
            show(r + " vehicle " + v.id(), () -> v.getCurrentCity() + " " + v.getCurrentTasks());
        }
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        show("plan vehicles", () -> vehicles.size() + " " + vehicles.equals(agent.vehicles()) + " "
                + (vehicles.get(0) == agent.vehicles().get(0)));
        show("plan tasks", () -> tasks);
        show("plan tasks size isEmpty", () -> tasks.size() + " " + tasks.isEmpty());
        show("plan tasks ids", () -> ids(tasks));
        show("plan tasks rewardSum weightSum", () -> tasks.rewardSum() + " " + tasks.weightSum());
        show("plan tasks getTasks", () -> agent.getTasks().equals(tasks) + " " + (agent.getTasks() == tasks));
        for (Task t : tasks) {
            show("plan task " + t.id, () -> t + " asked=" + (asked.get(t.id) == t));
        }
        if (!tasks.isEmpty()) {
            Task first = tasks.iterator().next();
            TaskSet none = TaskSet.noneOf(tasks);
            show("plan set noneOf", () -> none + " " + none.add(first) + " " + none + " " + none.contains(first));
            TaskSet copy = TaskSet.copyOf(tasks);
            show("plan set copyOf", () -> copy.remove(first) + " " + ids(copy) + " " + ids(tasks));
            show("plan set union", () -> ids(TaskSet.union(copy, none)));
            show("plan set intersectComplement", () -> ids(TaskSet.intersectComplement(tasks, none)));
            show("plan set intersect", () -> ids(TaskSet.intersect(tasks, copy)));
            TaskSet clone = tasks.clone();
            show("plan set clone", () -> clone.remove(first) + " " + clone.size() + " " + tasks.size());
            show("plan set stream", () -> tasks.stream().mapToLong(t -> t.reward).sum());
        }
        showAgent("plan");
        showVehicles("plan");
        if (me == 0 && distribution instanceof DefaultTaskDistribution) {
            // the platform's distribution draws with the generator that drew the auction's tasks:
            // only agent 0 draws, after the auctions, so that each agent sees the same values
            DefaultTaskDistribution tasksOf = (DefaultTaskDistribution) distribution;
            for (int i = 0; i < 3; i++) {
                show("createTask " + i, () -> tasksOf.createTask());
            }
            for (City c : topology) {
                show("createTask from " + c.id, () -> tasksOf.createTask(c));
            }
            show("getRandom", () -> tasksOf.getRandom().nextInt(1000000));
        }
        Vehicle first = vehicles.get(0);
        City at = first.homeCity();
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
        show("plan handed in", () -> plan);
        show("plan handed in distance", () -> plan.totalDistance() + " " + plan.totalDistanceUnits());
        List<Plan> plans = new ArrayList<>();
        plans.add(plan);
        while (plans.size() < vehicles.size()) {
            plans.add(Plan.EMPTY);
        }
        return plans;
    }
}

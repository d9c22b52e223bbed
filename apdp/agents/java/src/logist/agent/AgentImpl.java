package logist.agent;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import apdp.host.Hooks;
import logist.LogistException;
import logist.Measures;
import logist.behavior.AuctionBehavior;
import logist.behavior.CentralizedBehavior;
import logist.behavior.DeliberativeBehavior;
import logist.behavior.ReactiveBehavior;
import logist.config.ParserException;
import logist.config.XMLTag;
import logist.plan.Action;
import logist.plan.Plan;
import logist.simulation.Company;
import logist.simulation.Context;
import logist.simulation.Vehicle;
import logist.simulation.VehicleController;
import logist.simulation.VehicleImpl;
import logist.task.DefaultTaskDistribution;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology.City;

/**
 * An agent as the platform's own simulation ({@code logist.simulation.Manager}) runs it: one
 * behaviour (auction, centralized, deliberative or reactive), its company's vehicles, and what it
 * won. {@link #forClass} makes one. apdp's matches do not use it: apdp's host runs an
 * {@code AuctionBehavior} itself.
 *
 * <p>A round: {@link #beginRound} gives the agent its tasks (an auction agent: those it won;
 * others: all of them); auction and centralized agents plan all their vehicles at once,
 * deliberative agents each vehicle on its own (a vehicle whose plan gets stuck, e.g. on a task
 * another vehicle took, reports {@code planCancelled} and plans again from where it is), and
 * reactive vehicles are offered, in each city they reach, a task drawn from the distribution (or
 * none, by the city's no-task probability) until they have delivered as many tasks as the settings'
 * {@code NUMBER_OF_TASKS} (or made 100 times as many moves).
 */
public abstract class AgentImpl implements VehicleController {

    /** The kind of behaviour an agent has. */
    public enum Type {
        REACTIVE, DELIBERATIVE, CENTRALIZED, AUCTION
    }

    static {
        Hooks.register(Hooks.Agents.class, new Hooks.Agents() { // not a lambda: faster to start
            @Override
            public Agent agent(int id, String name, List<Vehicle> vehicles, TaskSet won, Map<String, String> params) {
                Info info = new Info(name, params, "parameter");
                info.id = id;
                info.vehicles = Collections.unmodifiableList(vehicles);
                info.won = won;
                return info;
            }

            @Override
            public void tasks(Agent agent, TaskSet won) {
                ((Info) agent).won = won;
            }

            @Override
            public AgentStatistics statistics(String name, long units, long cost, long reward, int tasks) {
                return new Recorded(name, units, cost, reward, tasks);
            }
        });
    }

    final String name;
    /** The agent's id, vehicles, tasks won and deliveries, as its behaviour sees them. */
    final Info info;
    Context context;
    List<VehicleImpl> vehicles = Collections.emptyList();
    /** Its behaviour's {@code setup}, which every kind of behaviour has. */
    private final Setup setup;

    /**
     * A behaviour's {@code setup}: each behaviour interface declares it alike. The kinds of agent
     * pass theirs as a method reference, which only the platform's own simulation makes ({@link
     * #forClass}): apdp's host, which starts the JVM for every match, links none.
     */
    interface Setup {
        void setup(logist.topology.Topology topology, TaskDistribution distribution, Agent agent);
    }

    AgentImpl(String name, Map<String, String> properties, Setup setup) {
        this.name = name;
        this.setup = setup;
        this.info = new Info(name, properties == null ? new HashMap<String, String>() : new HashMap<>(properties),
                "agent " + name);
    }

    /** The agent's name. */
    @Override
    public String toString() {
        return name;
    }

    /** Join the simulation of {@code context} as agent {@code id}, driving {@code company}'s vehicles; sets up the behaviour. */
    public void setup(int id, Context context, Company company) {
        info.id = id;
        this.context = context;
        this.vehicles = company.vehicles;
        List<Vehicle> infos = new ArrayList<>();
        for (VehicleImpl vehicle : vehicles) {
            vehicle.setController(this);
            infos.add(vehicle.getInfo());
        }
        info.vehicles = Collections.unmodifiableList(infos);
        setup.setup(context.getTopology(), context.getTaskDistribution(), info);
    }

    /**
     * Begin a round with {@code tasks}: the vehicles go home, sharing a copy of the set (a task one
     * picks up is gone for the others), and the agent plans (see the class's comment).
     */
    public void beginRound(TaskSet tasks) {
        TaskSet pool = TaskSet.copyOf(tasks);
        if (type() != Type.REACTIVE) {
            info.won = pool; // as on the platform, the agent's tasks are its vehicles' set: a pickup leaves it
        }
        for (VehicleImpl vehicle : vehicles) {
            vehicle.beginRound(pool);
        }
        planRound(tasks);
    }

    abstract void planRound(TaskSet tasks);

    /** The agent's bid for {@code task} (null: it abstains; only auction agents bid). */
    public abstract Long askBid(Task task);

    /** The outcome of {@code task}'s auction: the winner's id and every bid. */
    public void notifyResult(Task task, int winner, Long[] bids) {
        if (winner == info.id) {
            info.won.add(task);
        }
    }

    /** The vehicles this agent drives. */
    public List<VehicleImpl> getVehicles() {
        return vehicles;
    }

    /** The agent as its behaviour sees it. */
    public Agent getInfo() {
        return info;
    }

    /**
     * An agent named {@code name} with {@code properties} (its {@code <set>} values) running a new
     * instance of {@code behaviorClass} (made with its constructor without arguments); its type is
     * the behaviour interface the class implements. LogistException when it implements none or
     * cannot be made.
     */
    public static AgentImpl forClass(String name, Map<String, String> properties, Class<?> behaviorClass) {
        Object behavior;
        try {
            Constructor<?> make = behaviorClass.getDeclaredConstructor();
            make.setAccessible(true);
            behavior = make.newInstance();
        } catch (InvocationTargetException e) {
            throw new LogistException("agent " + name + ": " + behaviorClass.getName() + "'s constructor failed: "
                    + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new LogistException("agent " + name + ": cannot make a " + behaviorClass.getName() + " (" + e + ")", e);
        }
        // the platform's order: a class with several behaviours is the first of these it implements
        if (behavior instanceof ReactiveBehavior) {
            return new Reactive(name, properties, (ReactiveBehavior) behavior);
        }
        if (behavior instanceof DeliberativeBehavior) {
            return new Deliberative(name, properties, (DeliberativeBehavior) behavior);
        }
        if (behavior instanceof CentralizedBehavior) {
            return new Centralized(name, properties, (CentralizedBehavior) behavior);
        }
        if (behavior instanceof AuctionBehavior) {
            return new Auction(name, properties, (AuctionBehavior) behavior);
        }
        throw new LogistException("agent " + name + ": " + behaviorClass.getName()
                + " implements no behaviour of logist.behavior");
    }

    /** The kind of behaviour this agent has. */
    public abstract Type type();

    /** One of its vehicles delivered {@code task}. */
    @Override
    public void notifyDelivery(Task task) {
        info.delivered++;
        if (context != null) {
            context.notifyDelivery(task);
        }
    }

    /** One of its vehicles picked up {@code task}. */
    @Override
    public void notifyPickup(Task task) {
        if (context != null) {
            context.notifyPickup(task);
        }
    }

    /**
     * An agent whose vehicles follow plans, one queue of actions per vehicle, that {@code behavior}
     * (of {@code type}) makes; it abstains from auctions unless it is an auction agent.
     */
    abstract static class Planned<B> extends AgentImpl {
        final List<Deque<Action>> queues = new ArrayList<>();
        final B behavior;
        private final Type type;

        Planned(String name, Map<String, String> properties, Type type, B behavior, Setup setup) {
            super(name, properties, setup);
            this.type = type;
            this.behavior = behavior;
        }

        @Override
        public Long askBid(Task task) {
            return null;
        }

        @Override
        public Type type() {
            return type;
        }

        void follow(List<Plan> plans) {
            queues.clear();
            for (int v = 0; v < vehicles.size(); v++) {
                queues.add(new ArrayDeque<Action>());
            }
            if (plans == null) {
                throw new LogistException("agent " + name + ": plan() returned null");
            }
            for (int v = 0; v < plans.size() && v < vehicles.size(); v++) {
                follow(v, plans.get(v));
            }
        }

        void follow(int v, Plan plan) {
            Deque<Action> queue = queues.get(v);
            queue.clear();
            if (plan != null) {
                for (Action action : plan) {
                    queue.add(action);
                }
            }
        }

        @Override
        public Action nextAction(int vehicleId) {
            return vehicleId < queues.size() ? queues.get(vehicleId).poll() : null;
        }

        @Override
        public void stuckAction(int vehicleId, Action action) {
            throw new LogistException("agent " + name + ": vehicle " + vehicles.get(vehicleId).getInfo().name()
                    + " cannot execute " + action.toLongString() + " in " + vehicles.get(vehicleId).getCurrentCity());
        }
    }

    private static final class Auction extends Planned<AuctionBehavior> {
        Auction(String name, Map<String, String> properties, AuctionBehavior behavior) {
            super(name, properties, Type.AUCTION, behavior, behavior::setup);
        }

        @Override
        public Long askBid(Task task) {
            return behavior.askPrice(task);
        }

        @Override
        public void notifyResult(Task task, int winner, Long[] bids) {
            super.notifyResult(task, winner, bids);
            behavior.auctionResult(task, winner, bids);
        }

        @Override
        void planRound(TaskSet tasks) {
            follow(behavior.plan(info.vehicles, tasks));
        }
    }

    private static final class Centralized extends Planned<CentralizedBehavior> {
        Centralized(String name, Map<String, String> properties, CentralizedBehavior behavior) {
            super(name, properties, Type.CENTRALIZED, behavior, behavior::setup);
        }

        @Override
        void planRound(TaskSet tasks) {
            follow(behavior.plan(info.vehicles, info.getTasks()));
        }
    }

    private static final class Deliberative extends Planned<DeliberativeBehavior> {
        private TaskSet remaining;
        private int replans;

        Deliberative(String name, Map<String, String> properties, DeliberativeBehavior behavior) {
            super(name, properties, Type.DELIBERATIVE, behavior, behavior::setup);
        }

        @Override
        void planRound(TaskSet tasks) {
            remaining = TaskSet.copyOf(tasks);
            replans = 0;
            queues.clear();
            for (int v = 0; v < vehicles.size(); v++) {
                queues.add(new ArrayDeque<Action>());
                follow(v, behavior.plan(info.vehicles.get(v), TaskSet.copyOf(remaining)));
            }
        }

        @Override
        public void notifyPickup(Task task) {
            super.notifyPickup(task);
            if (remaining != null) {
                remaining.remove(task);
            }
        }

        @Override
        public void stuckAction(int vehicleId, Action action) {
            if (++replans > 100 * Math.max(1, remaining.size())) {
                super.stuckAction(vehicleId, action);
            }
            Vehicle vehicle = info.vehicles.get(vehicleId);
            behavior.planCancelled(vehicle.getCurrentTasks());
            follow(vehicleId, behavior.plan(vehicle, TaskSet.copyOf(remaining)));
        }
    }

    private static final class Reactive extends AgentImpl {
        private final ReactiveBehavior behavior;
        private final List<Deque<Action>> errands = new ArrayList<>();
        private int moves;

        Reactive(String name, Map<String, String> properties, ReactiveBehavior behavior) {
            super(name, properties, behavior::setup);
            this.behavior = behavior;
        }

        @Override
        public Long askBid(Task task) {
            return null;
        }

        @Override
        void planRound(TaskSet tasks) {
            errands.clear();
            for (VehicleImpl vehicle : vehicles) {
                vehicle.beginRound(null); // a reactive vehicle takes what it is offered
                errands.add(new ArrayDeque<Action>());
            }
            moves = 0;
        }

        @Override
        public Action nextAction(int vehicleId) {
            Deque<Action> errand = errands.get(vehicleId);
            if (!errand.isEmpty()) {
                return errand.poll();
            }
            int goal = context.getSettings().get(logist.LogistSettings.SizeKey.NUMBER_OF_TASKS);
            if (info.delivered >= goal || moves >= 100 * Math.max(1, goal)) {
                return null;
            }
            VehicleImpl vehicle = vehicles.get(vehicleId);
            City here = vehicle.getCurrentCity();
            TaskDistribution distribution = context.getTaskDistribution();
            Task offered = null;
            if (distribution instanceof DefaultTaskDistribution) { // one draw: a task, or none (the row's no-task share)
                offered = ((DefaultTaskDistribution) distribution).createTask(here);
            }
            Action action = behavior.act(vehicle.getInfo(), offered);
            if (action == null) {
                throw new LogistException("agent " + name + ": act() returned null");
            }
            Boolean carry = action.accept(new Errand(offered));
            if (carry) {
                errand.add(action);
                for (City c : here.pathTo(offered.deliveryCity)) {
                    errand.add(new Action.Move(c));
                }
                errand.add(new Action.Delivery(offered));
                return errand.poll();
            }
            moves++;
            return action;
        }

        @Override
        public void stuckAction(int vehicleId, Action action) {
            throw new LogistException("agent " + name + ": vehicle " + info.vehicles.get(vehicleId).name()
                    + " cannot execute " + action.toLongString());
        }

        @Override
        public Type type() {
            return Type.REACTIVE;
        }
    }

    /** Whether an action picks up the task offered (then the vehicle carries it to its delivery city). */
    private static final class Errand implements logist.plan.ActionHandler<Boolean> {
        private final Task offered;

        Errand(Task offered) {
            this.offered = offered;
        }

        @Override
        public Boolean moveTo(City city) {
            return Boolean.FALSE;
        }

        @Override
        public Boolean pickup(Task task) {
            if (task != offered || task == null) {
                throw new LogistException("a reactive agent may pick up only the task it is offered");
            }
            return Boolean.TRUE;
        }

        @Override
        public Boolean deliver(Task task) {
            throw new LogistException("a reactive agent delivers by picking up: its vehicle then carries the task");
        }
    }

    /**
     * The agent as its behaviour sees it: its company's id, vehicles, tasks won and properties;
     * its totals are its vehicles'. apdp's host makes its agents' through {@code Hooks.Agents}.
     */
    static final class Info extends Totals implements Agent {
        final Map<String, String> properties;
        /** How errors name the properties. */
        final String where;
        int id;
        List<Vehicle> vehicles = Collections.emptyList();
        TaskSet won = TaskSet.create(new Task[0]);
        int delivered;

        Info(String name, Map<String, String> properties, String where) {
            super(name);
            this.properties = properties;
            this.where = where;
        }

        @Override
        public int id() {
            return id;
        }

        @Override
        public List<Vehicle> vehicles() {
            return vehicles;
        }

        @Override
        public TaskSet getTasks() {
            return won == null ? null : TaskSet.copyOf(won);
        }

        @Override
        public <T> T readProperty(String key, Class<T> type, T defaultValue) {
            try {
                return XMLTag.convert(properties, key, where, type, defaultValue);
            } catch (ParserException e) {
                throw new RuntimeException("parameter conversion failed", e); // the platform's exception
            }
        }

        @Override
        public long getTotalDistanceUnits() {
            long units = 0;
            for (Vehicle v : vehicles) {
                units += v.getDistanceUnits();
            }
            return units;
        }

        @Override
        public long getTotalCost() {
            long cost = 0; // units x cost per km, in long arithmetic, then to km: the platform's sum
            for (Vehicle v : vehicles) {
                cost += v.getDistanceUnits() * v.costPerKm();
            }
            return Math.round(Measures.unitsToKM(cost));
        }

        @Override
        public long getTotalReward() {
            long reward = 0;
            for (Vehicle v : vehicles) {
                reward += v.getReward();
            }
            return reward;
        }

        /**
         * The platform's count: the agent's task set (won, or still to pick up) and, over its vehicles,
         * the tasks each carries and has delivered since its task set was last set.
         */
        @Override
        public int getTotalTasks() {
            Hooks.Vehicles hook = Hooks.get(Hooks.Vehicles.class);
            int total = won == null ? 0 : won.size();
            for (Vehicle v : vehicles) {
                total += hook.numTasks(v);
            }
            return total;
        }
    }

    /**
     * An agent's statistics from its totals of distance units, cost, reward and tasks: its distance
     * in km, its profit, and the order of agents by profit (then by name).
     */
    abstract static class Totals implements AgentStatistics {
        final String name;

        Totals(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public double getTotalDistance() {
            return getTotalDistanceUnits() / 1000.0;
        }

        @Override
        public long getTotalProfit() {
            return getTotalReward() - getTotalCost();
        }

        @Override
        public int compareTo(AgentStatistics other) {
            int c = Long.compare(getTotalProfit(), other.getTotalProfit());
            return c != 0 ? c : name.compareTo(other.name());
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * An agent's statistics as a history file keeps them ({@code logist.config.Parsers} reads them
     * through {@code Hooks.Agents}).
     */
    private static final class Recorded extends Totals {
        private final long units;
        private final long cost;
        private final long reward;
        private final int tasks;

        Recorded(String name, long units, long cost, long reward, int tasks) {
            super(name);
            this.units = units;
            this.cost = cost;
            this.reward = reward;
            this.tasks = tasks;
        }

        @Override
        public long getTotalDistanceUnits() {
            return units;
        }

        @Override
        public long getTotalCost() {
            return cost;
        }

        @Override
        public long getTotalReward() {
            return reward;
        }

        @Override
        public int getTotalTasks() {
            return tasks;
        }

        @Override
        public String toString() {
            return name + ": " + tasks + " tasks, reward " + reward + ", cost " + cost + ", profit " + getTotalProfit();
        }
    }
}

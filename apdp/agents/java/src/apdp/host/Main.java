package apdp.host;

import java.io.File;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import logist.LogistPlatform;
import logist.LogistSettings;
import logist.LogistSettings.FileKey;
import logist.LogistSettings.FlagKey;
import logist.LogistSettings.SizeKey;
import logist.LogistSettings.TimeoutKey;
import logist.Measures;
import logist.agent.Agent;
import logist.plan.ActionHandler;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.DefaultTaskDistribution;
import logist.task.Task;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * apdp's Java host: runs one Logist agent class and speaks apdp-agent/1 (JSON lines) on standard
 * input and output. What the agent prints goes to standard error. The agent is of the kind the
 * platform gives it ({@link Behavior}): an auction agent answers {@code bid}, {@code auction_result}
 * and {@code plan}; an agent of the course's reactive exercise {@code act}, of the deliberative one
 * {@code plan} (one vehicle) and {@code plan_cancelled}, of the centralized one {@code plan} (all
 * vehicles). Before each exercise call its vehicles and task set are put where the referee says.
 *
 * <p>Usage: {@code java apdp.host.Main CLASS [NAME]}. With the environment variable
 * {@code APDP_READY_LINE=1} (set by apdp for an agent.toml with {@code ready = true}) the host first
 * writes {@code {"ready": "apdp-agent/1"}} once the JVM runs, before it reads any request and
 * before any of the agent's code is loaded: the referee then times {@code setup} from there, so the
 * JVM's start does not count in the agent's setup time, as on the platform, which timed
 * {@code setup()} alone.
 *
 * <p>The class is loaded at {@code setup}, after the match's settings and network are in place
 * ({@code LogistPlatform.getSettings()}, {@code getTopology()}: an agent may read them in a static
 * initializer); the host then writes {@code config/settings_auction.xml} and
 * {@code config/settings_default.xml} (also under the Windows names {@code config\settings_*.xml})
 * in its working directory, with the match's time limits in milliseconds. Time limits read as the
 * platform reads them: the configured limit plus 1% (1000 ms reads 1010), which apdp's referee
 * allows. An exception, and {@code System.exit}, in the agent's code is answered
 * {@code {"error": ...}}.
 */
public final class Main {
    private static final String PROTOCOL = "apdp-agent/1";
    /** The vehicles' colours as RGB (a Color is made only when asked for: java.awt is slow to load). */
    private static final int[] COLORS = {0x0000ff, 0xff0000, 0x00aa00, 0xff8800, 0xaa00aa, 0x00aaaa};
    /** The vehicles' speed in km/h where the referee gives none: the course configurations'. */
    private static final double SPEED = 220;
    private static final String[] SETTINGS_FILES = {
        "config/settings_auction.xml", "config/settings_default.xml",
        "config\\settings_auction.xml", "config\\settings_default.xml",
    };

    private final String className;
    private final String agentName;
    /** Standard output, unbuffered: each reply is one write. */
    private final FileOutputStream protocol;
    /** The request being answered (null between requests). */
    private String pending;

    /** The agent's behaviour, of the kind the platform would give it (null until setup). */
    private Behavior behavior;
    private Agent agent;
    /** The tasks the agent won (its {@code getTasks()}). */
    private final TaskSet tasksWon = TaskSet.create(new Task[0]);
    private Topology topology;
    private final Map<String, City> cities = new HashMap<>();
    private final Map<Integer, Task> tasks = new HashMap<>();
    private List<Vehicle> vehicles;

    private Main(String className, String agentName, FileOutputStream protocol) {
        this.className = className;
        this.agentName = agentName;
        this.protocol = protocol;
    }

    /** Run the class {@code args[0]} (its agent name {@code args[1]}) until standard input ends. */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: java apdp.host.Main CLASS [NAME]");
            System.exit(2);
        }
        FileOutputStream protocol = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        String name = args.length > 1 ? args[1] : args[0].substring(args[0].lastIndexOf('.') + 1);
        new Main(args[0], name, protocol).run();
    }

    private void run() throws IOException {
        Runtime.getRuntime().addShutdownHook(new Thread("apdp-exit") { // not a lambda: faster to start
            @Override
            public void run() {
                exiting();
            }
        });
        if ("1".equals(System.getenv("APDP_READY_LINE"))) {
            preload();
            send("{\"ready\":\"" + PROTOCOL + "\"}");
        }
        Lines in = new Lines(new FileInputStream(FileDescriptor.in));
        while (in.next()) {
            byte[] line = in.buffer();
            int from = in.lineStart();
            int to = in.lineEnd();
            if (blank(line, from, to)) {
                continue;
            }
            Object reply;
            String type = "?";
            try {
                Map<String, Object> request = map(Json.parse(line, from, to), "request");
                type = String.valueOf(request.get("type"));
                synchronized (this) {
                    pending = type;
                }
                reply = handle(type, request);
            } catch (Throwable t) {
                reply = error(t, type);
            }
            synchronized (this) {
                send(reply);
                pending = null;
            }
        }
        Runtime.getRuntime().halt(0);
    }

    private static boolean blank(byte[] line, int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = line[i];
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return false;
            }
        }
        return true;
    }

    /**
     * The classes the host needs to set up any agent, loaded and initialised before its ready line:
     * loading them is the platform's start, not the agent's setup. None of the agent's code runs.
     */
    private static final String[] HOST_CLASSES = {
        "apdp.host.Json", "apdp.host.Lines", "apdp.host.Hooks", "logist.agent.AgentImpl", "logist.agent.AgentImpl$Info",
        "logist.simulation.VehicleImpl",
        "logist.LogistPlatform", "logist.LogistSettings", "logist.LogistSettings$TimeoutKey",
        "logist.LogistSettings$SizeKey", "logist.Measures", "logist.topology.Topology",
        "logist.topology.Topology$Builder", "logist.topology.Topology$City", "logist.task.Task",
        "logist.task.TaskSet", "logist.task.DefaultTaskDistribution", "logist.plan.Plan",
        "logist.plan.Action$Move", "logist.plan.Action$Pickup", "logist.plan.Action$Delivery",
    };

    private static void preload() {
        for (String name : HOST_CLASSES) {
            try {
                Class.forName(name, true, Main.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError("apdp's host misses " + name, e);
            }
        }
    }

    /**
     * Write one reply and its newline, in one write: a JSON value, or its text (a String), or the
     * bytes of its line (a byte[], newline included: the replies of every request, made without
     * a String).
     */
    private void send(Object reply) {
        byte[] line;
        if (reply instanceof byte[]) {
            line = (byte[]) reply;
        } else {
            line = ((reply instanceof String ? (String) reply : Json.write(reply)) + "\n").getBytes(StandardCharsets.UTF_8);
        }
        try {
            protocol.write(line);
        } catch (IOException e) {
            // the referee is gone: as a PrintStream would, go on until standard input ends
        }
    }

    /** The shutdown hook: the agent called System.exit (or the JVM was stopped) mid-request. */
    private void exiting() {
        synchronized (this) {
            if (pending != null) {
                send(errorReply("the agent called System.exit (or its JVM was stopped) while answering '"
                        + pending + "'"));
                pending = null;
            }
        }
    }

    private Object handle(String type, Map<String, Object> request) throws Exception {
        switch (type) {
            case "setup":
                setup(request);
                return ok();
            case "bid":
                return bid(request);
            case "auction_result":
                auctionResult(request);
                return ok();
            case "plan":
                switch (behavior == null ? "auction" : behavior.kind()) {
                    case "deliberative":
                        return deliberativePlan(request);
                    case "centralized":
                        return centralizedPlan(request);
                    default:
                        return plan(request);
                }
            case "act":
                return act(request);
            case "plan_cancelled":
                planCancelled(request);
                return ok();
            default:
                throw new IllegalArgumentException("unknown request type '" + type + "'");
        }
    }

    private static final byte[] OK = ascii("{\"ok\":true}\n");
    private static final byte[] BID = ascii("{\"bid\":");
    private static final byte[] NO_BID = ascii("{\"bid\":null}\n");

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] ok() {
        return OK;
    }

    /** The line {@code {"bid":BID}} (null: none). */
    private static byte[] bidLine(Long bid) {
        if (bid == null) {
            return NO_BID;
        }
        byte[] digits = ascii(bid.toString());
        byte[] line = new byte[BID.length + digits.length + 2];
        System.arraycopy(BID, 0, line, 0, BID.length);
        System.arraycopy(digits, 0, line, BID.length, digits.length);
        line[line.length - 2] = '}';
        line[line.length - 1] = '\n';
        return line;
    }

    // ---- setup ----

    private void setup(Map<String, Object> request) throws Exception {
        Object version = request.get("protocol");
        if (!PROTOCOL.equals(version)) {
            throw new IllegalArgumentException("this host speaks " + PROTOCOL + ", the referee " + version);
        }
        int id = (int) number(request.get("agent_id"));
        platformRules = "logist".equals(request.get("rules"));
        readTopology(map(request.get("topology"), "topology"));
        DefaultTaskDistribution distribution = readDistribution(map(request.get("distribution"), "distribution"),
                (long) number(request.get("seed")));
        vehicles = new ArrayList<>();
        Hooks.Vehicles made = Hooks.get(Hooks.Vehicles.class);
        Map<String, Object> company = map(request.get("company"), "company");
        for (Object item : list(company.get("vehicles"), "vehicles")) {
            Map<String, Object> v = map(item, "vehicle");
            int k = vehicles.size();
            Object speed = v.get("speed");
            Object color = v.get("color");
            vehicles.add(made.vehicle(k, String.valueOf(v.get("name")), (int) Math.floor(number(v.get("capacity"))),
                    (int) Math.round(number(v.get("cost_per_km"))), city(v.get("home")),
                    Measures.kmToUnits(speed == null ? SPEED : number(speed)),
                    color == null ? COLORS[(id * 2 + k) % COLORS.length] : Integer.decode(String.valueOf(color))));
        }
        Map<String, String> params = new LinkedHashMap<>();
        Object given = request.get("params");
        if (given instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) given).entrySet()) {
                Object value = e.getValue();
                params.put(String.valueOf(e.getKey()), value instanceof String ? (String) value : Json.write(value));
            }
        }
        // As on the platform, during setup the agent has no tasks yet (null) and its vehicles are
        // nowhere (their current city is null); then its round begins: no tasks won, vehicles at home.
        Hooks.Agents agents = Hooks.get(Hooks.Agents.class);
        agent = agents.agent(id, agentName, vehicles, null, params);
        Object count = request.get("agents");
        installSettings(map(request.get("timeouts"), "timeouts"), count == null ? 2 : (int) number(count));
        behavior = Behavior.make(className);
        behavior.setup(topology, distribution, agent);
        advance(distribution.getRandom(), drawsAfterSetup);
        agents.tasks(agent, tasksWon);
        for (Vehicle v : vehicles) {
            made.home(v);
        }
    }

    private void readTopology(Map<String, Object> json) {
        Topology.Builder builder = new Topology.Builder();
        for (Object item : list(json.get("cities"), "cities")) {
            Map<String, Object> c = map(item, "city");
            builder.addCity(String.valueOf(c.get("name")), (int) Math.round(number(c.get("x"))),
                    (int) Math.round(number(c.get("y"))));
        }
        for (Object item : list(json.get("roads"), "roads")) {
            Map<String, Object> r = map(item, "road");
            builder.addRoute(String.valueOf(r.get("from")), String.valueOf(r.get("to")),
                    Measures.kmToUnits(number(r.get("km"))));
        }
        topology = builder.build();
        Hooks.get(Hooks.Topologies.class).name(topology, String.valueOf(json.get("name")));
        for (City c : topology) {
            cities.put(c.name, c);
        }
    }

    private DefaultTaskDistribution readDistribution(Map<String, Object> json, long seed) {
        int n = topology.size();
        double[][] probability = new double[n][n];
        double[][] weight = new double[n][n];
        double[][] reward = new double[n][n];
        for (Object item : list(json.get("pairs"), "pairs")) {
            Map<String, Object> pair = map(item, "pair");
            int a = city(pair.get("pickup")).id;
            int b = city(pair.get("delivery")).id;
            // a Logist configuration also gives the platform's own value; DefaultTaskDistribution scales
            // each row as the platform does
            Object platform = pair.get("platform_probability");
            probability[a][b] = number(platform != null ? platform : pair.get("probability"));
            weight[a][b] = (int) number(pair.get("weight"));
            Object r = pair.get("reward");
            reward[a][b] = r == null ? 0 : (int) number(r);
        }
        // Under the platform's draw the agent's generator is the platform's, as the agent found it there:
        // the configuration's rngSeed, past the draws of the matrices (and, once setup is over, of the tasks)
        Object platform = json.get("generator");
        Random random;
        if (platform instanceof Map) {
            Map<String, Object> generator = map(platform, "generator");
            random = new Random(((Number) generator.get("seed")).longValue());
            advance(random, number(generator.get("before_setup")));
            drawsAfterSetup = number(generator.get("after_setup"));
        } else {
            random = new Random(seed);
        }
        return new DefaultTaskDistribution(topology, random, probability, reward, weight, noTask(json.get("no_task")));
    }

    /**
     * Each city's probability of offering no task (the reactive exercise's {@code <no-task>}), by city
     * name or in city order; null (none given: 0 everywhere) as in an auction.
     */
    private double[] noTask(Object given) {
        if (given == null) {
            return null;
        }
        double[] out = new double[topology.size()];
        if (given instanceof Map) {
            for (Map.Entry<String, Object> e : map(given, "no_task").entrySet()) {
                out[city(e.getKey()).id] = number(e.getValue());
            }
        } else {
            List<Object> values = list(given, "no_task");
            for (int i = 0; i < values.size() && i < out.length; i++) {
                out[i] = number(values.get(i));
            }
        }
        return out;
    }

    /** The platform's draws after setup (its tasks') that the agent's generator is past from then on. */
    private double drawsAfterSetup;

    private static void advance(Random random, double draws) {
        for (long k = 0; k < (long) draws; k++) {
            random.nextDouble();
        }
    }

    private void installSettings(Map<String, Object> timeouts, int agents) {
        long setupMs = millis(timeouts.get("setup"));
        long planMs = millis(timeouts.get("plan"));
        // the exercises have no bids: the platform's default limit where the referee gives none
        long bidMs = timeouts.get("bid") == null ? DEFAULT_TIMEOUT_MS : millis(timeouts.get("bid"));
        LogistSettings settings = LogistPlatform.getSettings(); // the platform's one settings object
        settings.set(TimeoutKey.SETUP, setupMs); // each reads 1% more, as on the platform
        settings.set(TimeoutKey.BID, bidMs);
        settings.set(TimeoutKey.PLAN, planMs);
        settings.set(SizeKey.NUMBER_OF_AGENTS, agents);
        settings.set(SizeKey.NUMBER_OF_TASKS, 0); // never told in apdp
        settings.set(FlagKey.SHOW_UI, false);
        settings.set(FileKey.CONFIGURATION, new File("config/auction.xml"));
        Hooks.get(Hooks.Platform.class).install(settings, topology);
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<!-- written by apdp's Java host: this match's time limits, in milliseconds (they read 1% more) -->\n"
                + "<settings>\n"
                + "  <set timeout-setup=\"" + setupMs + "\"/>\n"
                + "  <set timeout-plan=\"" + planMs + "\"/>\n"
                + "  <set timeout-bid=\"" + bidMs + "\"/>\n"
                + "</settings>\n";
        try {
            new File("config").mkdirs();
            for (String name : SETTINGS_FILES) {
                try (FileOutputStream file = new FileOutputStream(name)) {
                    file.write(xml.getBytes(StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            System.err.println("apdp host: cannot write the settings files: " + e);
        }
    }

    /** The platform's time limit when its settings set none (ms). */
    private static final long DEFAULT_TIMEOUT_MS = 30_000;

    private static long millis(Object seconds) {
        return Math.round(number(seconds) * 1000.0);
    }

    // ---- auctions ----

    private Task task(Object json) {
        Map<String, Object> t = map(json, "task");
        int id = (int) number(t.get("id"));
        Task task = tasks.get(id);
        if (task == null) {
            Object reward = t.get("reward");
            task = new Task(id, city(t.get("pickup")), city(t.get("delivery")),
                    reward == null ? 0L : (long) number(reward), (int) Math.ceil(number(t.get("weight"))));
            tasks.put(id, task);
        }
        return task;
    }

    private Object bid(Map<String, Object> request) {
        Long bid = behavior.auction("bid").askPrice(task(request.get("task")));
        return bidLine(bid);
    }

    private void auctionResult(Map<String, Object> request) {
        Task task = task(request.get("task"));
        Object w = request.get("winner");
        int winner = w == null ? -1 : (int) number(w);
        List<Object> given = list(request.get("bids"), "bids");
        Long[] bids = new Long[given.size()];
        for (int i = 0; i < bids.length; i++) {
            Object b = given.get(i);
            bids[i] = b == null ? null : b instanceof Long ? (Long) b : Math.round(number(b));
        }
        if (winner >= 0 && winner < bids.length && bids[winner] != null) {
            // As on the platform: the task sold is a new Task whose reward is the winning bid, the one
            // every agent is told of and the winner's TaskSet holds from then on
            task = new Task(task.id, task.pickupCity, task.deliveryCity, bids[winner], task.weight);
            tasks.put(task.id, task);
        }
        if (winner == agent.id()) {
            tasksWon.add(task);
        }
        behavior.auction("auction_result").auctionResult(task, winner, bids);
    }

    // ---- plan ----

    private Object plan(Map<String, Object> request) {
        List<Task> won = new ArrayList<>();
        for (Object t : list(request.get("tasks"), "tasks")) {
            won.add(task(t));
        }
        List<Plan> plans = behavior.auction("plan").plan(vehicles, TaskSet.create(won.toArray(new Task[0])));
        if (plans == null) {
            throw new IllegalStateException("plan() returned null; return one Plan per vehicle");
        }
        plans = new ArrayList<>(plans); // as the platform does: its own list, each plan sealed, then read
        for (Plan p : plans) {
            if (p != null) {
                p.seal();
            }
        }
        StringBuilder out = new StringBuilder("{\"plans\":[");
        for (int v = 0; v < plans.size(); v++) {
            if (v > 0) {
                out.append(',');
            }
            actions(plans.get(v), v, out);
        }
        return out.append("]}").toString();
    }

    /** The actions of vehicle {@code v}'s plan, as the protocol's JSON list, after {@code out}. */
    private void actions(Plan plan, int v, StringBuilder out) {
        if (plan == null) {
            throw new IllegalStateException("plan() returned null for vehicle " + v
                    + "; use Plan.EMPTY for a vehicle that does nothing");
        }
        // The platform never checks a plan's own start city: it drives it from where the vehicle is
        City at = v < vehicles.size() ? vehicles.get(v).homeCity() : Hooks.get(Hooks.Plans.class).start(plan);
        actions(plan, at, v, out);
    }

    /**
     * The actions of vehicle {@code v}'s plan driven from {@code at}, as the protocol's JSON list, after
     * {@code out}; a move to a city that is not a neighbour is expanded only under apdp's own rules (an
     * exercise plays by the platform's).
     */
    private void actions(Plan plan, City at, int v, StringBuilder out) {
        boolean auction = behavior == null || behavior.kind().equals("auction");
        Steps steps = new Steps(at, auction && !platformRules, out, quotedNames);
        out.append('[');
        for (logist.plan.Action action : plan) {
            if (action == null) {
                throw new IllegalStateException("the plan of vehicle " + v + " holds a null action");
            }
            action.accept(steps);
        }
        out.append(']');
    }

    /**
     * Whether the match plays by the Logist platform's rules: a move to a city that is not a
     * neighbour is then handed on as it is (the platform's plan verifier refuses it); under apdp's
     * own rules it is driven along a shortest path.
     */
    private boolean platformRules;

    /** The cities' names as JSON strings, each quoted once (a plan moves through the same cities again and again). */
    private final Map<City, String> quotedNames = new HashMap<>();

    /**
     * A plan's actions as the protocol's, written as JSON: with {@code expand}, a move to a city that
     * is not a neighbour becomes the moves of a shortest path.
     */
    private static final class Steps implements ActionHandler<Void> {
        private final StringBuilder out;
        private final Map<City, String> quoted;
        private final boolean expand;
        private boolean first = true;
        private City at;

        Steps(City start, boolean expand, StringBuilder out, Map<City, String> quoted) {
            this.at = start;
            this.expand = expand;
            this.out = out;
            this.quoted = quoted;
        }

        private StringBuilder next() {
            if (!first) {
                out.append(',');
            }
            first = false;
            return out;
        }

        @Override
        public Void moveTo(City to) {
            if (!expand || at == null || at.hasNeighbor(to)) {
                move(to);
            } else {
                for (City hop : at.pathTo(to)) {
                    move(hop);
                }
            }
            at = to;
            return null;
        }

        private void move(City hop) {
            String name = quoted.get(hop);
            if (name == null) {
                name = Json.write(hop.name);
                quoted.put(hop, name);
            }
            next().append("[\"move\",").append(name).append(']');
        }

        @Override
        public Void pickup(Task task) {
            next().append("[\"pickup\",").append(task.id).append(']');
            return null;
        }

        @Override
        public Void deliver(Task task) {
            next().append("[\"deliver\",").append(task.id).append(']');
            return null;
        }
    }

    // ---- the exercises ----
    //
    // Before each call the agent's view is put in step with what the referee sends: its vehicles'
    // cities, loads, deliveries, rewards and distances (Agent's totals are its vehicles'), and its task
    // set (Agent.getTasks()). Tasks keep one object per id within a round (an agent compares them by
    // identity), but for the reactive offers, each a new task of id 0 as on the platform.

    /** The reactive {@code act(vehicle, availableTask)}: one action, as the protocol's. */
    private Object act(Map<String, Object> request) {
        logist.behavior.ReactiveBehavior reactive = behavior.reactive("act");
        Vehicle vehicle = see(request.get("vehicle"));
        Object offered = request.get("task");
        Task task = offered == null ? null : newTask(offered);
        Hooks.get(Hooks.Agents.class).tasks(agent, TaskSet.create(new Task[0])); // a reactive agent's: none
        logist.plan.Action action = reactive.act(vehicle, task);
        if (action == null) {
            throw new IllegalStateException("act() returned null; return a Move to a neighbour or a Pickup of the task"
                    + " offered");
        }
        StringBuilder out = new StringBuilder("{\"action\":");
        Steps steps = new Steps(vehicle.getCurrentCity(), false, out, quotedNames);
        action.accept(steps);
        return out.append('}').toString();
    }

    /** The deliberative {@code plan(vehicle, tasks)}: vehicle 0's plan from where it is, as the protocol's. */
    private Object deliberativePlan(Map<String, Object> request) {
        logist.behavior.DeliberativeBehavior deliberative = behavior.deliberative("plan");
        Vehicle vehicle = see(request.get("vehicle"));
        TaskSet tasks = taskSet(request.get("tasks"));
        Hooks.get(Hooks.Agents.class).tasks(agent, tasks);
        Plan plan = deliberative.plan(vehicle, TaskSet.copyOf(tasks));
        if (plan == null) {
            throw new IllegalStateException("plan() returned null; return a Plan (it may have no action)");
        }
        plan.seal();
        StringBuilder out = new StringBuilder("{\"plan\":");
        actions(plan, vehicle.getCurrentCity(), 0, out);
        return out.append('}').toString();
    }

    /** The deliberative {@code planCancelled(carriedTasks)}. */
    private void planCancelled(Map<String, Object> request) {
        logist.behavior.DeliberativeBehavior deliberative = behavior.deliberative("plan_cancelled");
        Vehicle vehicle = see(request.get("vehicle"));
        Object remaining = request.get("tasks");
        if (remaining != null) {
            Hooks.get(Hooks.Agents.class).tasks(agent, taskSet(remaining));
        }
        deliberative.planCancelled(vehicle.getCurrentTasks());
    }

    /** The centralized {@code plan(vehicles, tasks)}: one plan per vehicle, as the protocol's. */
    private Object centralizedPlan(Map<String, Object> request) {
        logist.behavior.CentralizedBehavior centralized = behavior.centralized("plan");
        for (Object view : list(request.get("vehicles"), "vehicles")) {
            see(view);
        }
        TaskSet tasks = taskSet(request.get("tasks"));
        Hooks.get(Hooks.Agents.class).tasks(agent, tasks);
        List<Plan> plans = centralized.plan(vehicles, TaskSet.copyOf(tasks));
        if (plans == null) {
            throw new IllegalStateException("plan() returned null; return one Plan per vehicle");
        }
        plans = new ArrayList<>(plans); // as the platform does: its own list, each plan sealed, then read
        for (int v = 0; v < plans.size(); v++) {
            if (plans.get(v) == null) {
                throw new IllegalStateException("plan() returned null for vehicle " + v
                        + "; use Plan.EMPTY for a vehicle that does nothing");
            }
            plans.get(v).seal();
        }
        StringBuilder out = new StringBuilder("{\"plans\":[");
        for (int v = 0; v < plans.size(); v++) {
            if (v > 0) {
                out.append(',');
            }
            City at = v < vehicles.size() ? vehicles.get(v).getCurrentCity() : Hooks.get(Hooks.Plans.class).start(plans.get(v));
            actions(plans.get(v), at, v, out);
        }
        return out.append("]}").toString();
    }

    /**
     * The vehicle the referee describes ({@code id}, {@code city}, {@code carried}, {@code delivered},
     * {@code reward}, {@code distance_units}), put in that state.
     */
    private Vehicle see(Object json) {
        Map<String, Object> view = map(json, "vehicle");
        Object given = view.get("id");
        int id = given == null ? 0 : (int) number(given);
        if (id < 0 || id >= vehicles.size()) {
            throw new IllegalArgumentException("the referee's vehicle " + id + " is not one of the company's");
        }
        Vehicle vehicle = vehicles.get(id);
        TaskSet carried = taskSet(view.get("carried") == null ? new ArrayList<Object>() : view.get("carried"));
        Object delivered = view.get("delivered");
        Object reward = view.get("reward");
        Object units = view.get("distance_units");
        Hooks.get(Hooks.Vehicles.class).state(vehicle, city(view.get("city")), carried,
                delivered == null ? 0 : (int) number(delivered), reward == null ? 0 : (long) number(reward),
                units == null ? 0 : (long) number(units));
        return vehicle;
    }

    /** The tasks of a JSON list, one object per id (see {@link #task}). */
    private TaskSet taskSet(Object json) {
        List<Object> given = list(json, "tasks");
        Task[] out = new Task[given.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = task(given.get(i));
        }
        return TaskSet.create(out);
    }

    /** A new task of the referee's JSON, kept nowhere (a reactive offer). */
    private Task newTask(Object json) {
        Map<String, Object> t = map(json, "task");
        Object reward = t.get("reward");
        return new Task((int) number(t.get("id")), city(t.get("pickup")), city(t.get("delivery")),
                reward == null ? 0L : (long) number(reward), (int) Math.ceil(number(t.get("weight"))));
    }

    // ---- the request's values ----

    private City city(Object name) {
        City c = cities.get(String.valueOf(name));
        if (c == null) {
            throw new IllegalArgumentException("no city named " + name + " in the network");
        }
        return c;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value, String what) {
        if (!(value instanceof Map)) {
            throw new IllegalArgumentException("the referee's " + what + " is not an object");
        }
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value, String what) {
        if (!(value instanceof List)) {
            throw new IllegalArgumentException("the referee's " + what + " is not a list");
        }
        return (List<Object>) value;
    }

    private static double number(Object value) {
        if (!(value instanceof Number)) {
            throw new IllegalArgumentException("expected a number from the referee, got " + value);
        }
        return ((Number) value).doubleValue();
    }

    // ---- faults ----

    private static Map<String, Object> errorReply(String message) {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("error", message);
        return reply;
    }

    private Map<String, Object> error(Throwable t, String type) {
        Throwable cause = t;
        while ((cause instanceof ExceptionInInitializerError || cause instanceof InvocationTargetException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        System.err.println("apdp host: the agent failed in '" + type + "':");
        cause.setStackTrace(agentStack(cause.getStackTrace()));
        cause.printStackTrace(System.err);
        String message = cut(cause.toString());
        boolean memory = cause instanceof OutOfMemoryError;
        if (memory) {
            long mb = Runtime.getRuntime().maxMemory() >> 20;
            message = "out of memory (" + cause.getMessage() + "): the JVM's heap is limited to " + mb + " MiB";
        }
        StackTraceElement frame = agentFrame(cause);
        if (frame != null) {
            message += " (at " + frame.getClassName() + "." + frame.getMethodName() + ", " + frame.getFileName()
                    + ":" + frame.getLineNumber() + ")";
        }
        if (message.length() > 2_000) { // a frame's names are the agent's too
            message = message.substring(0, 2_000);
        }
        Map<String, Object> reply = errorReply(message);
        if (memory) {
            reply.put("kind", "memory"); // the same fault as a Python agent's MemoryError
        }
        return reply;
    }

    /**
     * An exception's text, cut to what a fault's message keeps ({@code apdp.messages.sizes.SENT_MESSAGE}, with
     * room left for where it was thrown): an agent's exception may carry any text, and a longer error reply
     * would be refused as outside the protocol.
     */
    private static String cut(String text) {
        int most = 1_600;
        return text.length() <= most ? text : text.substring(0, most) + " [... " + (text.length() - most)
                + " more characters cut]";
    }

    /**
     * A stack without the host's frames that called into the agent (the host's own and reflection's, at its
     * outer end), as a Python agent's traceback is kept without the worker's: the agent's frames and those of
     * what it called stay. A stack with nothing else is kept whole.
     */
    private static StackTraceElement[] agentStack(StackTraceElement[] stack) {
        int end = stack.length;
        while (end > 0 && callsIntoTheAgent(stack[end - 1].getClassName())) {
            end--;
        }
        return end == 0 ? stack : Arrays.copyOf(stack, end);
    }

    private static boolean callsIntoTheAgent(String c) {
        return c.startsWith("apdp.host.") || c.startsWith("jdk.internal.reflect.")
                || c.startsWith("java.lang.reflect.");
    }

    /** The first frame of the agent's own code in {@code t}'s stack, if any. */
    private static StackTraceElement agentFrame(Throwable t) {
        for (StackTraceElement e : t.getStackTrace()) {
            String c = e.getClassName();
            if (!(c.startsWith("java.") || c.startsWith("javax.") || c.startsWith("jdk.") || c.startsWith("sun.")
                    || c.startsWith("logist.") || c.startsWith("apdp.host."))) {
                return e;
            }
        }
        return null;
    }
}

package everything;

import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import logist.LogistException;
import logist.LogistPlatform;
import logist.LogistSettings;
import logist.LogistSettings.ColorKey;
import logist.LogistSettings.FileKey;
import logist.LogistSettings.FlagKey;
import logist.LogistSettings.SizeKey;
import logist.LogistSettings.TimeoutKey;
import logist.Measures;
import logist.agent.Agent;
import logist.agent.AgentImpl;
import logist.agent.AgentStatistics;
import logist.behavior.AuctionBehavior;
import logist.behavior.CentralizedBehavior;
import logist.behavior.DeliberativeBehavior;
import logist.behavior.ReactiveBehavior;
import logist.config.ParserException;
import logist.config.Parsers;
import logist.config.XMLTag;
import logist.history.Event;
import logist.history.History;
import logist.history.XMLWriter;
import logist.history.XMLWritingException;
import logist.plan.Action;
import logist.plan.ActionHandler;
import logist.plan.IllegalPlanException;
import logist.plan.Plan;
import logist.plan.PlanVerifier;
import logist.simulation.Company;
import logist.simulation.Context;
import logist.simulation.Manager;
import logist.simulation.Simulation;
import logist.simulation.Vehicle;
import logist.simulation.VehicleController;
import logist.simulation.VehicleImpl;
import logist.task.DefaultTaskDistribution;
import logist.task.Policy;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;
import logist.topology.TopologyException;

/**
 * A test agent that uses every public member of the Logist platform's API (logist-api.txt; the
 * platform's window, logist.gui, aside), and checks what each does, at setup: a broken promise
 * throws, which the referee records as this agent's fault. It is compiled twice by apdp's tests:
 * from source against apdp's API, and against a signature stub built from the listing alone (a jar,
 * as a course tournament's groupNN.jar), which must then link and run against apdp's classes.
 *
 * <p>It also runs the platform itself on a small network of its own (Parsers, Manager, Simulation,
 * History, LogistPlatform.main) with a reactive, a deliberative, a centralized and an auction agent
 * (its nested classes). It bids its first vehicle's cost of carrying each task after the ones it
 * won, plus 100, and delivers them one after the other with that vehicle.
 */
public class Everything implements AuctionBehavior {
    private Agent agent;
    private Vehicle vehicle;
    private City end;
    private final List<Task> won = new ArrayList<>();
    private int checks;

    static void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("Logist promise broken: " + what);
        }
    }

    private void check(boolean condition, String what) {
        require(condition, what);
        checks++;
    }

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.agent = agent;
        this.vehicle = agent.vehicles().get(0);
        this.end = vehicle.homeCity();
        try {
            settings();
            network(topology);
            tasks(topology, distribution);
            plans(topology);
            simulation(topology);
            files();
            history();
            platform(); // last: running the platform makes its configuration the current one
        } catch (IOException | ParserException e) {
            throw new IllegalStateException("Logist promise broken: " + e, e);
        }
        System.out.println("everything: " + checks + " checks passed, agent " + agent.name() + " (" + agent.id() + ")");
    }

    // ---- logist: settings, measures, exceptions ----

    private void settings() {
        LogistSettings settings = LogistPlatform.getSettings();
        check(settings == LogistPlatform.getSettings(), "getSettings is one object");
        long bid = settings.get(TimeoutKey.BID);
        check(bid > 0 && settings.get(TimeoutKey.SETUP) > 0 && settings.get(TimeoutKey.PLAN) > 0, "timeouts");
        check(LogistPlatform.getTopology() != null, "getTopology during a match");
        LogistSettings copy = new LogistSettings();
        check(copy.get(TimeoutKey.PLAN) == 30300L, "new LogistSettings() is the platform's defaults (30000 ms, reads 30300)");
        copy.set(TimeoutKey.BID, 1234L);
        check(copy.get(TimeoutKey.BID) == 1246L && settings.get(TimeoutKey.BID) == bid, "set changes a copy only");
        copy.set(SizeKey.NUMBER_OF_AGENTS, 2); // the platform's defaults leave it unset
        for (SizeKey key : SizeKey.values()) {
            copy.set(key, copy.get(key) + 1);
        }
        check(copy.get(SizeKey.valueOf("WORLD_WIDTH")) == settings.get(SizeKey.WORLD_WIDTH) + 1, "SizeKey");
        check(settings.get(SizeKey.NUMBER_OF_AGENTS) >= 2 && settings.get(SizeKey.NUMBER_OF_TASKS) >= 0
                && settings.get(SizeKey.WORLD_HEIGHT) > 0 && settings.get(SizeKey.CITY_RADIUS) > 0
                && settings.get(SizeKey.ROUTE_WIDTH) > 0, "sizes");
        Color red = new Color(255, 0, 0);
        copy.set(ColorKey.ROUTE, red);
        check(copy.get(ColorKey.ROUTE).equals(red) && ColorKey.values().length == 10, "ColorKey");
        for (ColorKey key : new ColorKey[] {ColorKey.BACKGROUND, ColorKey.FOREGROUND, ColorKey.CITY,
                ColorKey.CITY_NAME, ColorKey.CITY_CIRCUMFERENCE, ColorKey.TASK_TEXT, ColorKey.TASK_PICKUP,
                ColorKey.TASK_DELIVER, ColorKey.TASK_INDICATOR, ColorKey.valueOf("ROUTE")}) {
            check(settings.get(key) != null, "colour " + key);
        }
        copy.set(FileKey.HISTORY, new File("h.xml"));
        check(copy.get(FileKey.valueOf("HISTORY")).getName().equals("h.xml") && FileKey.values().length == 2
                && settings.get(FileKey.CONFIGURATION) != null, "FileKey");
        copy.set(FlagKey.SHOW_TASKS, true);
        check(copy.get(FlagKey.SHOW_TASKS) && !settings.get(FlagKey.valueOf("SHOW_UI")) && FlagKey.values().length == 2
                && !settings.get(FlagKey.SHOW_UI), "FlagKey: apdp shows no window");
        check(TimeoutKey.values().length == 3 && TimeoutKey.valueOf("SETUP") == TimeoutKey.SETUP
                && TimeoutKey.values()[1] == TimeoutKey.BID && TimeoutKey.PLAN.ordinal() == 2, "TimeoutKey order");
        check(Measures.DISTANCE_UNITS_PER_KM == 1000L && Measures.NANOS_PER_SIM_HOUR == 1000000000L, "constants");
        check(new Measures() != null && Measures.kmToUnits(1.5) == 1500L && Measures.unitsToKM(2500L) == 2.5,
                "Measures");
        LogistException plain = new LogistException("plain");
        LogistException caused = new LogistException("caused", plain);
        check(caused.getCause() == plain && plain.getMessage().equals("plain"), "LogistException");
        check(new TopologyException("t").getMessage().equals("t"), "TopologyException");
        check(new LogistPlatform() != null, "LogistPlatform");
    }

    // ---- logist.topology ----

    private void network(Topology topology) {
        Random random = new Random(7);
        check(topology.size() == topology.cities().size() && topology.size() > 1, "cities");
        check(topology.toString().equals(topology.toString().trim()) && !topology.toString().isEmpty(), "name");
        int seen = 0;
        for (Iterator<City> it = topology.iterator(); it.hasNext();) {
            City city = it.next();
            check(topology.cities().get(city.id) == city && topology.contains(city), "ids are indices");
            check(topology.parseCity(city.name).equals(city) && city.toString().equals(city.name), "names");
            check(city.hashCode() == topology.parseCity(city.name).hashCode() && city.xPos == city.xPos
                    && city.yPos == city.yPos, "city fields");
            check(city.pathTo(city).isEmpty() && city.distanceTo(city) == 0.0 && city.distanceUnitsTo(city) == 0L,
                    "a city is at itself");
            int neighbors = 0;
            for (Iterator<City> n = city.iterator(); n.hasNext();) {
                City next = n.next();
                check(city.hasNeighbor(next) && next.hasNeighbor(city) && city.neighbors().contains(next), "roads");
                neighbors++;
            }
            check(neighbors == city.neighbors().size() && city.hasNeighbor(city.randomNeighbor(random)), "neighbours");
            seen++;
        }
        check(seen == topology.size(), "iteration");
        City a = topology.randomCity(random);
        City b = topology.randomCity(random);
        List<City> path = a.pathTo(b);
        long walked = 0;
        City at = a;
        for (City c : path) {
            check(at.hasNeighbor(c), "pathTo follows roads");
            walked += at.distanceUnitsTo(c);
            at = c;
        }
        check(at.equals(b) && walked == a.distanceUnitsTo(b) && a.distanceTo(b) == walked / 1000.0, "pathTo");
        try {
            topology.parseCity("Atlantis");
            check(false, "parseCity of an unknown city");
        } catch (IllegalArgumentException e) {
            checks++;
        }
    }

    /** A line of three cities: A - B (100 km) - C (50 km), for the platform's own run. */
    static Topology line() {
        Topology.Builder builder = new Topology.Builder();
        builder.addCity("A", 0, 0);
        builder.addCity("B", 100, 0);
        builder.addCity("C", 150, 0);
        builder.addRoute("A", "B", Measures.kmToUnits(100));
        builder.addRoute("B", "C", Measures.kmToUnits(50));
        return builder.build();
    }

    // ---- logist.task ----

    private void tasks(Topology topology, TaskDistribution distribution) {
        City home = vehicle.homeCity();
        City other = home.neighbors().get(0);
        check(distribution.probability(home, other) >= 0 && distribution.weight(home, other) >= 0
                && distribution.reward(home, other) >= 0, "TaskDistribution");
        DefaultTaskDistribution sampler = (DefaultTaskDistribution) distribution;
        check(sampler.probability(home, home) == 0.0 && sampler.probability(home, null) >= 0.0
                && sampler.weight(home, other) == distribution.weight(home, other)
                && sampler.reward(home, other) == distribution.reward(home, other), "DefaultTaskDistribution");
        check(sampler.getRandom() != null, "getRandom");
        Task drawn = sampler.createTask();
        check(distribution.probability(drawn.pickupCity, drawn.deliveryCity) > 0, "createTask draws a possible task");
        Task from = sampler.createTask(home);
        check(from == null || from.pickupCity.equals(home), "createTask(City)");
        TaskSet some = sampler.createTaskSet(3);
        check(some.size() == 3, "createTaskSet(int)");
        Task t0 = new Task(0, home, other, 10L, 3);
        Task t1 = new Task(1, other, home, 20L, 4);
        check(t0.id == 0 && t0.pickupCity == home && t0.deliveryCity == other && t0.reward == 10L && t0.weight == 3,
                "Task fields");
        check(t0.toString().equals("(Task 0, 3 kg, 10 CHF, " + home.toString() + " -> " + other.toString() + ")"),
                "Task.toString " + t0.toString());
        check(t0.path().get(t0.path().size() - 1) == other && t0.pathLength() == home.distanceTo(other), "path");
        Task[] filled = {t1, t0};
        TaskSet drawnSet = sampler.createTaskSet(filled); // as on the platform: fills the array with drawn tasks
        check(filled[0] != t1 && filled[0].id == 0 && filled[1].id == 1 && drawnSet.size() == 2, "createTaskSet(Task[])");
        TaskSet set = TaskSet.create(new Task[] {t1, t0});
        check(set.iterator().next() == t0 && set.weightSum() == 7 && set.rewardSum() == 30, "TaskSet order and sums");
        check(set.toString().equals("[" + t0.toString() + ", " + t1.toString() + "]"), "TaskSet.toString");
        TaskSet one = TaskSet.create(new Task[] {t0});
        TaskSet none = TaskSet.noneOf(set);
        check(none.isEmpty() && TaskSet.copyOf(set).equals(set) && set.clone().size() == 2, "copies");
        check(TaskSet.union(one, none).size() == 1 && TaskSet.intersect(set, one).size() == 1
                && TaskSet.intersectComplement(set, one).size() == 1, "set algebra");
        check(!set.contains(new Task(0, home, other, 10L, 3)), "tasks compare by identity");
        Policy[] policies = {new Policy.Uniform(topology), new Policy.ShortDistances(topology),
            new Policy.MediumDistances(topology), new Policy.LongDistances(topology)};
        for (Policy policy : policies) {
            double[][] constant = policy.constant(100.0, 200.0);
            double[][] uniform = policy.uniform(100.0, 200.0, new Random(1));
            check(constant[0][0] == 0 && constant[0][1] >= 100 && constant[0][1] <= 200 && uniform[1][0] >= 100
                    && uniform[1][0] <= 200, "Policy values");
        }
        double[] each = Policy.constant(3, 0.5);
        double[] drawnEach = Policy.uniform(3, 0.0, 1.0, new Random(2));
        check(each.length == 3 && each[2] == 0.5 && drawnEach[1] >= 0 && drawnEach[1] <= 1, "Policy per city");
    }

    // ---- logist.plan ----

    private void plans(Topology topology) {
        City home = vehicle.homeCity();
        // a vehicle in its round (the agent's own are nowhere yet during setup, carrying nothing known)
        VehicleImpl inRound = new VehicleImpl(0, "in round", vehicle.capacity(), vehicle.costPerKm(), home, 100L, null);
        inRound.beginRound(TaskSet.create(new Task[0]));
        City next = home.neighbors().get(0);
        Task task = new Task(7, next, home, 0L, 1);
        Plan plan = new Plan(home);
        plan.appendMove(next);
        plan.appendPickup(task);
        plan.append(new Action.Move(home));
        plan.appendDelivery(task);
        check(plan.toString().equals("[Move (" + next.toString() + "), Pickup (Task 7), Move (" + home.toString()
                + "), Deliver (Task 7)], " + plan.totalDistance()), "Plan.toString " + plan.toString());
        check(plan.totalDistanceUnits() == 2 * home.distanceUnitsTo(next)
                && plan.totalDistance() == Measures.unitsToKM(plan.totalDistanceUnits()), "distances");
        check(!plan.isSealed() && plan.seal() == plan && plan.isSealed(), "seal");
        try {
            plan.appendMove(next);
            check(false, "a sealed plan changed");
        } catch (RuntimeException e) {
            checks++;
        }
        check(Plan.EMPTY.toString().equals("[], 0.0") && Plan.EMPTY.isSealed() && !Plan.EMPTY.iterator().hasNext(),
                "Plan.EMPTY");
        List<Action> actions = new ArrayList<>();
        for (Iterator<Action> it = plan.iterator(); it.hasNext();) {
            actions.add(it.next());
        }
        Plan again = new Plan(home, actions);
        check(again.totalDistanceUnits() == plan.totalDistanceUnits(), "Plan(City, List)");
        Action.Move move = new Action.Move(next);
        Action.Pickup pickup = new Action.Pickup(task);
        Action.Delivery delivery = new Action.Delivery(task);
        check(move.toString().equals("Move (" + next.toString() + ")") && pickup.toString().equals("Pickup (Task 7)")
                && delivery.toString().equals("Deliver (Task 7)"), "actions' toString");
        check(!move.toLongString().isEmpty() && !pickup.toLongString().isEmpty()
                && !delivery.toLongString().isEmpty(), "toLongString");
        ActionHandler<String> kinds = new ActionHandler<String>() {
            @Override
            public String moveTo(City city) {
                return "move " + city.name;
            }

            @Override
            public String pickup(Task t) {
                return "pickup " + t.id;
            }

            @Override
            public String deliver(Task t) {
                return "deliver " + t.id;
            }
        };
        Action some = move;
        check(move.accept(kinds).equals("move " + next.name) && pickup.accept(kinds).equals("pickup 7")
                && delivery.accept(kinds).equals("deliver 7") && some.accept(kinds).startsWith("move")
                && !some.toLongString().isEmpty(), "accept");
        check(kinds.moveTo(home).equals("move " + home.name) && kinds.pickup(task).equals("pickup 7")
                && kinds.deliver(task).equals("deliver 7"), "ActionHandler");
        PlanVerifier verifier = new PlanVerifier(topology, TaskSet.create(new Task[] {task}));
        verifier.verifyPlan(inRound.getInfo(), plan);
        verifier.verifyPickup();
        verifier.verifyDelivery();
        PlanVerifier strict = new PlanVerifier(topology, TaskSet.create(new Task[] {task}));
        check(strict.moveTo(next).length == 0 && strict.pickup(task).length == 0, "verifier steps");
        check(strict.deliver(task).length > 0, "a delivery in the wrong city");
        try {
            new PlanVerifier(topology, TaskSet.create(new Task[] {task})).verifyPlan(inRound.getInfo(), new Plan(home,
                    new Action.Pickup(task)));
            check(false, "a pickup in the wrong city passed");
        } catch (IllegalPlanException e) {
            check(!e.toString().isEmpty() && e.getMessage() != null, "IllegalPlanException");
        }
        IllegalPlanException made = new IllegalPlanException(new String[] {"one", "two"});
        check(made.toString().equals("one\ntwo") && made.getMessage().equals("one"), "IllegalPlanException.toString");
        try {
            new PlanVerifier(topology, TaskSet.create(new Task[] {task})).verifyDelivery();
            check(false, "verifyDelivery of nothing delivered");
        } catch (IllegalPlanException e) {
            checks++;
        }
    }

    // ---- logist.simulation: vehicles run by hand ----

    private void simulation(Topology topology) {
        City home = vehicle.homeCity();
        City next = home.neighbors().get(0);
        boolean unknown = false;
        try {
            vehicle.getCurrentTasks();
        } catch (NullPointerException e) {
            unknown = true; // what it carries is not known before its round, as on the platform
        }
        check(vehicle.getCurrentCity() == null && unknown
                && vehicle.getReward() == 0L && vehicle.getDistanceUnits() == 0L && vehicle.getDistance() == 0.0,
                "a vehicle nowhere yet during setup, as on the platform");
        check(vehicle.id() == 0 && vehicle.name() != null && vehicle.capacity() > 0 && vehicle.costPerKm() > 0
                && vehicle.speed() > 0 && vehicle.color() != null, "vehicle numbers");
        VehicleImpl impl = new VehicleImpl(0, "sim", 10, 5, home, 100L, Color.BLUE);
        Vehicle info = impl.getInfo();
        check(info.id() == 0 && info.name().equals("sim") && info.capacity() == 10 && info.costPerKm() == 5
                && info.homeCity() == home && info.speed() == 0.1 && info.getCurrentCity() == null
                && info.color().equals(Color.BLUE),
                "VehicleImpl's info");
        Task task = new Task(3, next, home, 500L, 4);
        impl.setTasks(TaskSet.create(new Task[] {task}));
        check(info.getCurrentTasks().size() == 1 && impl.numTasks() == 1, "setTasks");
        impl.beginRound(TaskSet.create(new Task[] {task}));
        check(impl.numTasks() == 0 && impl.getCurrentCity() == home, "beginRound");
        final List<Action> todo = new ArrayList<>(Arrays.asList(new Action.Move(next), new Action.Pickup(task),
                new Action.Move(home), new Action.Delivery(task), new Action.Delivery(task)));
        final int[] events = new int[3];
        VehicleController controller = new VehicleController() {
            @Override
            public Action nextAction(int vehicleId) {
                return todo.isEmpty() ? null : todo.remove(0);
            }

            @Override
            public void stuckAction(int vehicleId, Action action) {
                events[2]++;
            }

            @Override
            public void notifyPickup(Task t) {
                events[0]++;
            }

            @Override
            public void notifyDelivery(Task t) {
                events[1]++;
            }
        };
        impl.setController(controller);
        int executed = 0;
        while (impl.hasNextAction()) {
            check(impl.executeNextAction() != null, "executeNextAction");
            executed++;
        }
        check(executed == 5 && events[0] == 1 && events[1] == 1 && events[2] == 1, "the vehicle drove its plan");
        check(info.getReward() == 500L && info.getDistanceUnits() == 2 * home.distanceUnitsTo(next)
                && info.getDistance() == 2 * home.distanceTo(next) && info.getCurrentCity() == home, "its totals");
        check(impl.getRewardRatio() > 0, "getRewardRatio");
        check(impl.moveTo(next) && !impl.pickup(task) && !impl.deliver(task), "ActionHandler<Boolean>");
        check(impl.executeNextAction() == null, "nothing left");
        controller.notifyPickup(task);
        controller.notifyDelivery(task);
        controller.stuckAction(0, new Action.Move(home));
        check(controller.nextAction(0) == null, "VehicleController");
    }

    // ---- logist.config and the platform's run ----

    private static void write(String path, String text) throws IOException {
        File file = new File(path);
        if (file.getParentFile() != null) {
            file.getParentFile().mkdirs();
        }
        Files.write(file.toPath(), text.getBytes(StandardCharsets.ISO_8859_1));
    }

    private void files() throws IOException, ParserException {
        write("everything/settings.xml", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<settings>\n"
                + "  <set timeout-setup=\"1000\"/> <set timeout-bid=\"1000\"/> <set timeout-plan=\"2000\"/>\n"
                + "  <set world-width=\"640\"/> <set flag-show-ui=\"false\"/>\n</settings>\n");
        write("everything/topology.xml", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<topology name=\"line\">\n"
                + "  <cities><city name=\"A\" x=\"0\" y=\"0\"/><city name=\"B\" x=\"100\" y=\"0\"/>"
                + "<city name=\"Gen\u00e8ve\" x=\"150\" y=\"0\"/></cities>\n"
                + "  <routes><route from=\"A\" to=\"B\" distance=\"100.0\"/>"
                + "<route from=\"B\" to=\"Gen\u00e8ve\" distance=\"50.5\"/></routes>\n</topology>\n");
        write("everything/agents.xml", "<agents>\n"
                + "  <agent name=\"auction\"><set class-name=\"everything.Everything$Auctioneer\"/>"
                + "<set margin=\"2\"/></agent>\n"
                + "  <agent name=\"reactive\"><set class-name=\"everything.Everything$Reacting\"/></agent>\n"
                + "  <agent name=\"deliberative\"><set class-name=\"everything.Everything$Deliberating\"/></agent>\n"
                + "  <agent name=\"centralized\"><set class-name=\"everything.Everything$Centralizing\"/></agent>\n"
                + "</agents>\n");
        write("everything/auction.xml", "<configuration name=\"line\">\n"
                + "  <settings import=\"everything/settings.xml\"/>\n"
                + "  <topology import=\"everything/topology.xml\"/>\n  <agents import=\"everything/agents.xml\"/>\n"
                + "  <tasks number=\"4\" rngSeed=\"4\">\n"
                + "    <probability distribution=\"uniform\" min=\"0.0\" max=\"1.0\"/>\n"
                + "    <reward distribution=\"constant\" policy=\"short-distances\" min=\"100\" max=\"99999\"/>\n"
                + "    <weight distribution=\"constant\" value=\"3\"/>\n  </tasks>\n  <companies>\n"
                + "    <company name=\"Company A\"><vehicle name=\"A1\"><set home=\"A\"/><set speed=\"220\"/>"
                + "<set capacity=\"30\"/><set cost-per-km=\"5\"/><set color=\"#0000ff\"/></vehicle></company>\n"
                + "    <company name=\"Company B\"><vehicle name=\"B1\"><set home=\"B\"/><set speed=\"220\"/>"
                + "<set capacity=\"30\"/><set cost-per-km=\"5\"/></vehicle></company>\n"
                + "  </companies>\n</configuration>\n");
        check(new Parsers() != null, "Parsers");
        LogistSettings settings = Parsers.parseSettings("everything/settings.xml");
        check(settings.get(TimeoutKey.BID) == 1010L && settings.get(TimeoutKey.PLAN) == 2020L
                && settings.get(SizeKey.WORLD_WIDTH) == 640, "parseSettings reads 1% more: " + settings.get(TimeoutKey.BID));
        LogistSettings matchFile = Parsers.parseSettings("config/settings_auction.xml");
        check(matchFile.get(TimeoutKey.BID) == LogistPlatform.getSettings().get(TimeoutKey.BID),
                "the match's settings file and getSettings agree");
        Topology line = Parsers.parseTopology("everything/topology.xml");
        check(line.size() == 3 && line.parseCity("Gen\u00e8ve").distanceUnitsTo(line.parseCity("A")) == 150500L
                && line.toString().equals(line.cities().toString()), "parseTopology");
        List<String> names = Parsers.parseAgents(new File("everything/agents.xml"));
        check(names.equals(Arrays.asList("auction", "reactive", "deliberative", "centralized")), "parseAgents(File)");
        List<AgentImpl> agents = Parsers.parseAgents("everything/agents.xml", new String[] {"reactive", "auction"});
        check(agents.size() == 2 && agents.get(0).type() == AgentImpl.Type.REACTIVE
                && agents.get(1).toString().equals("auction"), "parseAgents(String, String[])");
        try {
            Parsers.parseSettings("everything/none.xml");
            check(false, "a missing settings file");
        } catch (ParserException e) {
            checks++;
        }
        Map<String, String> values = new HashMap<>();
        values.put("margin", " 1.5 ");
        values.put("rounds", "3");
        check(XMLTag.convert(values, "margin", "test", Double.class, 1.0) == 1.5
                && XMLTag.convert(values, "rounds", "test", Integer.class, 0) == 3
                && XMLTag.convert(values, "none", "test", String.class, "d").equals("d")
                && XMLTag.convert("BID", "test", TimeoutKey.class) == TimeoutKey.BID, "XMLTag.convert");
        try {
            XMLTag.convert("abc", "test", Integer.class);
            check(false, "abc converted to an Integer");
        } catch (ParserException e) {
            checks++;
        }
        XMLTag none = values.isEmpty() ? null : (XMLTag) null; // XMLTag has no public constructor
        if (none != null) {
            none.toString();
        }
        ParserException[] made = {ParserException.missingTag("tag", "here"),
            ParserException.missingAttribute("key", "here"), ParserException.missingSet("key", "here"),
            ParserException.missing("file"), ParserException.duplicate("agent", "a"),
            ParserException.badFormat("what", "value", "a number"), ParserException.unknownKey("key", "here"),
            ParserException.badClass(Integer.class, "abc")};
        for (ParserException e : made) {
            check(e.getMessage() != null && !e.getMessage().isEmpty(), "ParserException factories");
        }
    }

    private void history() throws IOException {
        StringWriter text = new StringWriter();
        XMLWriter xml = new XMLWriter(text);
        xml.writeTag("a").writeAttribute("k", "<v>").writeAttribute("n", (Object) 3).writeTag("b").endTag();
        xml.writeComment("note");
        xml.writeText("x & y");
        xml.writeText((Object) 4);
        xml.endTag();
        xml.flush();
        xml.close();
        String written = text.toString();
        check(written.contains("k=\"&lt;v&gt;\"") && written.contains("n=\"3\"") && written.contains("x &amp; y4")
                && written.contains("</a>") && XMLWriter.escapeXml("\"'").equals("&quot;&apos;"), "XMLWriter: "
                + written);
        Writer broken = new Writer() {
            @Override
            public void write(char[] buffer, int offset, int length) throws IOException {
                throw new IOException("disk full");
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        try {
            new XMLWriter(broken).writeTag("a");
            check(false, "an XMLWriter wrote to a broken writer");
        } catch (XMLWritingException e) {
            check(e instanceof LogistException, "XMLWritingException");
        }
        Topology line = line();
        City a = line.parseCity("A");
        City b = line.parseCity("B");
        Task task = new Task(0, a, b, 100L, 3);
        VehicleImpl impl = new VehicleImpl(0, "v", 10, 5, a, 220L, Color.RED);
        Event arrive = Event.arrive(1L, impl.getInfo(), b);
        Event pickup = Event.pickup(2L, impl.getInfo(), task);
        Event deliver = Event.deliver(3L, impl.getInfo(), task);
        Event moved = Event.fromAction(4L, impl.getInfo(), new Action.Move(b));
        check(arrive.action().equals("arrive") && pickup.action().equals("pickup") && deliver.action().equals("deliver")
                && moved.action().equals("arrive"), "Event");
        File file = new File("everything/history.xml");
        History history = new History(file, "by hand");
        history.addAgent(agent.name());
        history.addVehicle("v");
        history.addRound(1);
        history.addTask(task);
        history.addBid("one", 42L);
        history.addEvent(0, pickup);
        history.addStat(0, agent);
        history.flush();
        history.close();
        try {
            List<AgentStatistics> stats = Parsers.parseHistory(file);
            check(stats.size() == 1 && stats.get(0).name().equals(agent.name()) && stats.get(0).getTotalTasks() == 0,
                    "parseHistory");
        } catch (ParserException e) {
            throw new IllegalStateException("Logist promise broken: the history does not read back: " + e, e);
        }
        AgentStatistics stats = agent;
        check(stats.getTotalDistanceUnits() == 0 && stats.getTotalDistance() == 0.0 && stats.getTotalCost() == 0
                && stats.getTotalReward() == 0 && stats.getTotalProfit() == 0 && stats.getTotalTasks() == 0
                && stats.compareTo(agent) == 0, "an auction agent's statistics during the game");
        check(agent.getTasks() == null && agent.readProperty("none", Integer.class, 5) == 5, "Agent");
    }

    private void platform() throws IOException, ParserException {
        Manager manager = Parsers.parseConfiguration("everything/auction.xml", "everything/run.xml",
                new String[] {"auction", "centralized"});
        Context context = manager;
        check(context.getTopology().size() == 3 && context.getTaskDistribution() != null
                && context.getSettings().get(SizeKey.NUMBER_OF_TASKS) == 4, "parseConfiguration");
        check(manager.getTopology() == context.getTopology() && manager.getTaskDistribution() != null
                && manager.getSettings().get(TimeoutKey.BID) == 1010L, "Manager");
        manager.run();
        int[] pickups = manager.countPickup();
        int[] deliveries = manager.countDelivery();
        check(sum(pickups) == 4 && sum(deliveries) == 4 && sum(context.countPickup()) == 4
                && sum(context.countDelivery()) == 4, "every task delivered in the platform's run");
        manager.notifyPickup(new Task(9, context.getTopology().parseCity("A"), context.getTopology().parseCity("B"),
                0L, 1));
        context.notifyDelivery(new Task(9, context.getTopology().parseCity("A"), context.getTopology().parseCity("B"),
                0L, 1));
        context.notifyPickup(new Task(9, context.getTopology().parseCity("A"), context.getTopology().parseCity("B"),
                0L, 1));
        manager.notifyDelivery(new Task(9, context.getTopology().parseCity("A"), context.getTopology().parseCity("B"),
                0L, 1));
        manager.close();
        context.close();
        try {
            List<AgentStatistics> stats = Parsers.parseHistory(new File("everything/run.xml"));
            check(stats.size() == 2 && stats.get(0).getTotalTasks() == 4 && stats.get(1).getTotalTasks() == 0,
                    "the run's history");
        } catch (ParserException e) {
            throw new IllegalStateException("Logist promise broken: the run's history: " + e, e);
        }
        runByHand();
        LogistPlatform.main(new String[] {"everything/auction.xml", "reactive", "deliberative"});
        check(LogistPlatform.getTopology().size() == 3, "main ran the configuration");
    }

    private static int sum(int[] values) {
        int s = 0;
        for (int v : values) {
            s += v;
        }
        return s;
    }

    /** The platform's pieces put together by hand: AgentImpl, Company, Simulation. */
    private void runByHand() {
        Topology line = line();
        City a = line.parseCity("A");
        double[][] p = new Policy.Uniform(line).constant(1.0, 1.0);
        double[][] r = new Policy.LongDistances(line).constant(100.0, 200.0);
        double[][] w = new Policy.ShortDistances(line).uniform(1.0, 5.0, new Random(3));
        DefaultTaskDistribution tasks = new DefaultTaskDistribution(line, new Random(5), p, r, w,
                Policy.constant(3, 0.0));
        List<VehicleImpl> vehicles = new ArrayList<>();
        vehicles.add(new VehicleImpl(0, "c1", 20, 3, a, 100L, null));
        Company company = new Company("by hand", vehicles);
        check(company.name.equals("by hand") && company.vehicles.size() == 1, "Company");
        Map<String, String> properties = new HashMap<>();
        properties.put("margin", "3");
        AgentImpl centralized = AgentImpl.forClass("c", properties, Centralizing.class);
        LogistSettings settings = new LogistSettings();
        settings.set(SizeKey.NUMBER_OF_TASKS, 3);
        TaskSet all = tasks.createTaskSet(3);
        Manager manager = new Manager(settings, line, Arrays.asList(centralized), Arrays.asList(company), tasks);
        centralized.setup(0, manager, company);
        check(centralized.type() == AgentImpl.Type.valueOf("CENTRALIZED") && AgentImpl.Type.values().length == 4
                && centralized.type() == AgentImpl.Type.CENTRALIZED
                && centralized.getInfo().readProperty("margin", Integer.class, 0) == 3
                && centralized.toString().equals("c") && centralized.getVehicles().size() == 1, "AgentImpl");
        check(centralized.askBid(all.iterator().next()) == null, "a centralized agent does not bid");
        centralized.notifyResult(all.iterator().next(), -1, new Long[] {null});
        centralized.beginRound(all);
        Simulation simulation = new Simulation(manager, Arrays.asList(centralized), null);
        check(simulation.getVehicles().size() == 1 && simulation.getSettings() == settings
                && simulation.getTopology() == line && simulation.getContext() == manager, "Simulation");
        simulation.step(1L);
        simulation.run(true);
        check(simulation.isRoundFinished() && centralized.getInfo().getTotalTasks() == 3, "the simulation delivered");
        simulation.close();
        VehicleController controller = centralized;
        check(controller.nextAction(0) == null, "no action left");
        centralized.notifyPickup(all.iterator().next());
        centralized.notifyDelivery(all.iterator().next());
        check(AgentImpl.Type.AUCTION != AgentImpl.Type.REACTIVE && AgentImpl.Type.DELIBERATIVE.ordinal() == 1, "Type");
    }

    // ---- the auction ----

    @Override
    public Long askPrice(Task task) {
        if (task.weight > vehicle.capacity()) {
            return null;
        }
        double km = end.distanceTo(task.pickupCity) + task.pathLength();
        return Math.round(km * vehicle.costPerKm()) + 100;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        if (winner == agent.id()) {
            won.add(previous);
            end = previous.deliveryCity;
        }
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        require(tasks.size() == won.size() && tasks.containsAll(won), "plan's tasks are the tasks won");
        List<Plan> plans = new ArrayList<>();
        plans.add(sequence(vehicle.homeCity(), won));
        while (plans.size() < vehicles.size()) {
            plans.add(Plan.EMPTY);
        }
        return plans;
    }

    /** The tasks one after the other, from {@code start}. */
    static Plan sequence(City start, Iterable<Task> tasks) {
        Plan plan = new Plan(start);
        City at = start;
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
        return plan;
    }

    // ---- the agents of the platform's own run ----

    /** An auction agent of the platform's run: bids its margin (a parameter) times the task's length. */
    public static class Auctioneer implements AuctionBehavior {
        private Agent agent;
        private double margin;

        @Override
        public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
            this.agent = agent;
            this.margin = agent.readProperty("margin", Double.class, 1.0);
        }

        @Override
        public Long askPrice(Task task) {
            return (long) (margin * task.pathLength());
        }

        @Override
        public void auctionResult(Task previous, int winner, Long[] bids) {
        }

        @Override
        public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
            List<Plan> plans = new ArrayList<>();
            plans.add(sequence(vehicles.get(0).getCurrentCity(), tasks));
            return plans;
        }
    }

    /** A centralized agent: its first vehicle carries every task, one after the other. */
    public static class Centralizing implements CentralizedBehavior {
        @Override
        public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        }

        @Override
        public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
            List<Plan> plans = new ArrayList<>();
            plans.add(sequence(vehicles.get(0).getCurrentCity(), tasks));
            while (plans.size() < vehicles.size()) {
                plans.add(Plan.EMPTY);
            }
            return plans;
        }
    }

    /** A deliberative agent: each vehicle carries the tasks left, one after the other. */
    public static class Deliberating implements DeliberativeBehavior {
        private int cancelled;

        @Override
        public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        }

        @Override
        public Plan plan(Vehicle vehicle, TaskSet tasks) {
            Plan plan = sequence(vehicle.getCurrentCity(), tasks);
            return plan;
        }

        @Override
        public void planCancelled(TaskSet carriedTasks) {
            cancelled++;
        }
    }

    /** A reactive agent: takes every task offered, else moves to a random neighbour. */
    public static class Reacting implements ReactiveBehavior {
        private final Random random = new Random(11);

        @Override
        public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        }

        @Override
        public Action act(Vehicle vehicle, Task availableTask) {
            if (availableTask != null && availableTask.weight <= vehicle.capacity()) {
                return new Action.Pickup(availableTask);
            }
            return new Action.Move(vehicle.getCurrentCity().randomNeighbor(random));
        }
    }
}

package logist.config;

import java.awt.Color;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import apdp.host.Hooks;
import logist.LogistSettings;
import logist.LogistSettings.ColorKey;
import logist.LogistSettings.FileKey;
import logist.LogistSettings.FlagKey;
import logist.LogistSettings.SizeKey;
import logist.LogistSettings.TimeoutKey;
import logist.Measures;
import logist.agent.AgentImpl;
import logist.agent.AgentStatistics;
import logist.simulation.Company;
import logist.simulation.Manager;
import logist.simulation.VehicleImpl;
import logist.task.DefaultTaskDistribution;
import logist.task.Policy;
import logist.topology.Topology;
import logist.topology.TopologyException;

/**
 * Reading the platform's files: settings, network, agents, configuration and history (their format
 * is in apdp's {@code logist-platform.md}). A path is a file name, relative to the working
 * directory; apdp's host writes {@code config/settings_auction.xml} and
 * {@code config/settings_default.xml} there (and under the Windows names
 * {@code config\settings_*.xml}) with the match's time limits. A file that is missing or broken
 * throws a {@link ParserException} saying where.
 */
public class Parsers {

    public Parsers() {
    }

    /**
     * The platform run by the configuration file {@code configuration}: its settings, network,
     * agents (those of {@code agents}, by name, in that order; all of the agents file when none is
     * named), tasks and companies. An {@code import} is looked up in the working directory, the
     * configuration's folder, and that folder's parent. {@code history} names the history file the
     * run writes (null: none).
     */
    public static Manager parseConfiguration(String configuration, String history, String[] agents)
            throws ParserException {
        File file = new File(configuration);
        XMLTag root = XMLTag.read(file, "configuration");
        XMLTag settingsTag = root.child("settings");
        LogistSettings settings = settingsTag == null ? new LogistSettings()
                : parseSettings(imported(settingsTag, file).getPath());
        XMLTag topologyTag = root.child("topology");
        if (topologyTag == null) {
            throw ParserException.missingTag("topology", configuration);
        }
        Topology topology = parseTopology(imported(topologyTag, file).getPath());
        XMLTag agentsTag = root.child("agents");
        if (agentsTag == null) {
            throw ParserException.missingTag("agents", configuration);
        }
        List<AgentImpl> agentList = parseAgents(imported(agentsTag, file).getPath(),
                agents == null ? new String[0] : agents);
        XMLTag tasks = root.child("tasks");
        if (tasks == null) {
            throw ParserException.missingTag("tasks", configuration);
        }
        int number = XMLTag.convert(tasks.attribute("number"), configuration + " <tasks> number", Integer.class);
        long seed = XMLTag.convert(tasks.attribute("rngSeed"), configuration + " <tasks> rngSeed", Long.class);
        Random random = new Random(seed);
        double[][] probability = law(tasks, "probability", topology, random, configuration);
        double[][] reward = law(tasks, "reward", topology, random, configuration);
        double[][] weight = law(tasks, "weight", topology, random, configuration);
        DefaultTaskDistribution distribution = new DefaultTaskDistribution(topology, random, probability, reward,
                weight, null);
        List<Company> companies = new ArrayList<>();
        XMLTag companiesTag = root.child("companies");
        if (companiesTag == null) {
            throw ParserException.missingTag("companies", configuration);
        }
        for (XMLTag company : companiesTag.children("company")) {
            List<VehicleImpl> vehicles = new ArrayList<>();
            for (XMLTag vehicle : company.children("vehicle")) {
                Map<String, String> sets = vehicle.sets();
                String where = configuration + " vehicle " + vehicle.attributes.get("name");
                String home = sets.get("home");
                if (home == null) {
                    throw ParserException.missingSet("home", where);
                }
                Topology.City city;
                try {
                    city = topology.parseCity(home);
                } catch (IllegalArgumentException e) {
                    throw ParserException.badFormat(where + " home", home, "a city of the network");
                }
                String color = sets.get("color");
                vehicles.add(new VehicleImpl(vehicles.size(), vehicle.attributes.get("name"),
                        XMLTag.convert(sets, "capacity", where, Integer.class, 0),
                        XMLTag.convert(sets, "cost-per-km", where, Integer.class, 0), city,
                        Measures.kmToUnits(XMLTag.convert(sets, "speed", where, Double.class, 120.0)),
                        color == null ? null : Color.decode(color)));
            }
            companies.add(new Company(company.attributes.get("name"), vehicles));
        }
        if (companies.size() < agentList.size()) {
            throw new ParserException(configuration + ": " + agentList.size() + " agents but " + companies.size()
                    + " companies");
        }
        settings.set(SizeKey.NUMBER_OF_TASKS, number);
        settings.set(SizeKey.NUMBER_OF_AGENTS, agentList.size());
        settings.set(FileKey.CONFIGURATION, file);
        settings.set(FileKey.HISTORY, history == null ? null : new File(history));
        return new Manager(settings, topology, agentList, companies.subList(0, agentList.size()), distribution);
    }

    private static File imported(XMLTag tag, File configuration) throws ParserException {
        String reference = tag.attribute("import").replace('\\', '/');
        File relative = new File(reference);
        if (relative.isAbsolute()) {
            return relative;
        }
        File folder = configuration.getAbsoluteFile().getParentFile();
        File[] bases = {new File("."), folder, folder == null ? null : folder.getParentFile()};
        for (File base : bases) {
            if (base != null && new File(base, reference).isFile()) {
                return new File(base, reference);
            }
        }
        throw new ParserException(configuration + ": " + tag + ": no such file in the working directory, " + folder
                + " or its parent");
    }

    private static double[][] law(XMLTag tasks, String what, Topology topology, Random random, String where)
            throws ParserException {
        XMLTag law = tasks.child(what);
        if (law == null) {
            throw ParserException.missingTag(what, where + " <tasks>");
        }
        String here = where + " <" + what + ">";
        double lo;
        double hi;
        if (law.attributes.containsKey("value")) {
            lo = XMLTag.convert(law.attributes.get("value"), here, Double.class);
            hi = lo;
        } else {
            lo = XMLTag.convert(law.attribute("min"), here, Double.class);
            hi = XMLTag.convert(law.attribute("max"), here, Double.class);
        }
        String policyName = law.attributes.get("policy");
        Policy policy;
        if (policyName == null) {
            policy = new Policy.Uniform(topology);
        } else if (policyName.equals("short-distances")) {
            policy = new Policy.ShortDistances(topology);
        } else if (policyName.equals("medium-distances")) {
            policy = new Policy.MediumDistances(topology);
        } else if (policyName.equals("long-distances")) {
            policy = new Policy.LongDistances(topology);
        } else {
            throw ParserException.badFormat(here + " policy", policyName, "short-, medium- or long-distances");
        }
        String distribution = law.attribute("distribution");
        if (distribution.equals("constant")) {
            return policy.constant(lo, hi);
        }
        if (distribution.equals("uniform")) {
            return policy.uniform(lo, hi, random);
        }
        throw ParserException.badFormat(here + " distribution", distribution, "constant or uniform");
    }

    /**
     * The network of the topology file {@code path}: {@code <topology name=...><cities><city name= x= y=/>...
     * </cities><routes><route from= to= distance=/>...</routes></topology>}, distances in km.
     */
    public static Topology parseTopology(String path) throws ParserException {
        XMLTag root = XMLTag.read(new File(path), "topology");
        Topology.Builder builder = new Topology.Builder();
        try {
            XMLTag cities = root.child("cities");
            if (cities == null) {
                throw ParserException.missingTag("cities", path);
            }
            for (XMLTag city : cities.children("city")) {
                builder.addCity(city.attribute("name"),
                        (int) Math.round(XMLTag.convert(city.attribute("x"), path + " " + city, Double.class)),
                        (int) Math.round(XMLTag.convert(city.attribute("y"), path + " " + city, Double.class)));
            }
            XMLTag routes = root.child("routes");
            if (routes != null) {
                for (XMLTag route : routes.children("route")) {
                    builder.addRoute(route.attribute("from"), route.attribute("to"), Measures.kmToUnits(
                            XMLTag.convert(route.attribute("distance"), path + " " + route, Double.class)));
                }
            }
        } catch (TopologyException e) {
            throw new ParserException(path + ": " + e.getMessage(), e);
        }
        Topology topology = builder.build();
        String name = root.attributes.get("name");
        Hooks.get(Hooks.Topologies.class).name(topology, name != null ? name : new File(path).getName().replaceAll("\\.xml$", ""));
        return topology;
    }

    /**
     * The agents {@code names} (all of them when none is given) of the agents file {@code path}, in
     * the order named: each runs its {@code class-name}, loaded from the class path or else from its
     * {@code class-path} (relative to the working directory), with its other {@code <set>} values as
     * properties.
     */
    public static List<AgentImpl> parseAgents(String path, String[] names) throws ParserException {
        XMLTag root = XMLTag.read(new File(path), "agents");
        Map<String, XMLTag> byName = new LinkedHashMap<>();
        for (XMLTag agent : root.children("agent")) {
            String name = agent.attribute("name");
            if (byName.put(name, agent) != null) {
                throw ParserException.duplicate("agent", name);
            }
        }
        List<String> wanted = new ArrayList<>();
        if (names == null || names.length == 0) {
            wanted.addAll(byName.keySet());
        } else {
            for (String name : names) {
                wanted.add(name);
            }
        }
        List<AgentImpl> out = new ArrayList<>();
        for (String name : wanted) {
            XMLTag agent = byName.get(name);
            if (agent == null) {
                throw new ParserException(path + ": no agent named " + name);
            }
            Map<String, String> properties = agent.sets();
            String className = properties.remove("class-name");
            String classPath = properties.remove("class-path");
            if (className == null) {
                throw ParserException.missingSet("class-name", path + " agent " + name);
            }
            out.add(AgentImpl.forClass(name, properties, load(className, classPath, path)));
        }
        return out;
    }

    private static Class<?> load(String className, String classPath, String where) throws ParserException {
        try {
            return Class.forName(className, false, Parsers.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            if (classPath == null) {
                throw new ParserException(where + ": no class " + className, e);
            }
        }
        try {
            URL url = new File(classPath).toURI().toURL();
            return Class.forName(className, false, new URLClassLoader(new URL[] {url}, Parsers.class.getClassLoader()));
        } catch (ClassNotFoundException | MalformedURLException e) {
            throw new ParserException(where + ": no class " + className + " in " + classPath, e);
        }
    }

    /** The names of the agents of the agents file {@code file}, in order. */
    public static List<String> parseAgents(File file) throws ParserException {
        List<String> names = new ArrayList<>();
        for (XMLTag agent : XMLTag.read(file, "agents").children("agent")) {
            names.add(agent.attribute("name"));
        }
        return names;
    }

    /**
     * The settings of the settings file {@code path}: {@code <settings><set timeout-setup="10000"/>
     * <set timeout-bid="2500"/> <set timeout-plan="5000"/>...}, over the platform's defaults. A key
     * names its setting as the platform reads it: upper-cased, {@code -} for {@code _}, then
     * {@code COLOR_}, {@code TIMEOUT_}, {@code FILE_} or {@code FLAG_} and the key's name
     * ({@code color-background}, {@code timeout-bid}, {@code flag-show-ui}), or else a {@code SizeKey}
     * ({@code world-width}, {@code number-of-tasks}); any other key is a ParserException. A time
     * limit reads as the platform reads it: the value plus 1% (1000 ms reads 1010).
     */
    public static LogistSettings parseSettings(String path) throws ParserException {
        XMLTag root = XMLTag.read(new File(path), "settings");
        LogistSettings settings = new LogistSettings();
        for (Map.Entry<String, String> e : root.sets().entrySet()) {
            set(settings, e.getKey(), e.getValue(), path);
        }
        return settings;
    }

    private static void set(LogistSettings settings, String key, String value, String where) throws ParserException {
        String name = key.toUpperCase(Locale.ROOT).replace('-', '_');
        String here = where + ": " + key;
        try {
            if (name.startsWith("COLOR_")) {
                settings.set(ColorKey.valueOf(name.substring(6)), XMLTag.convert(value, here, Color.class));
            } else if (name.startsWith("TIMEOUT_")) {
                settings.set(TimeoutKey.valueOf(name.substring(8)), XMLTag.convert(value, here, Long.class));
            } else if (name.startsWith("FILE_")) {
                settings.set(FileKey.valueOf(name.substring(5)), new File(value));
            } else if (name.startsWith("FLAG_")) {
                settings.set(FlagKey.valueOf(name.substring(5)), XMLTag.convert(value, here, Boolean.class));
            } else {
                settings.set(SizeKey.valueOf(name), XMLTag.convert(value, here, Integer.class));
            }
        } catch (IllegalArgumentException e) {
            throw ParserException.badFormat(here, key, "a setting of the platform");
        }
    }

    /**
     * The statistics of the history file {@code file} (as {@code logist.history.History} writes it):
     * each agent's last {@code <stat>}, in the order of the agents.
     */
    public static List<AgentStatistics> parseHistory(File file) throws ParserException {
        XMLTag root = XMLTag.read(file, "history");
        Hooks.Agents agents = Hooks.get(Hooks.Agents.class);
        Map<String, AgentStatistics> stats = new LinkedHashMap<>();
        for (XMLTag agent : root.children("agent")) {
            stats.put(agent.attribute("name"), null);
        }
        for (XMLTag stat : root.children("stat")) {
            String where = file + " " + stat;
            Map<String, String> a = stat.attributes;
            String name = stat.attribute("agent");
            stats.put(name, agents.statistics(name, XMLTag.convert(a, "distance-units", where, Long.class, 0L),
                    XMLTag.convert(a, "cost", where, Long.class, 0L), XMLTag.convert(a, "reward", where, Long.class, 0L),
                    XMLTag.convert(a, "tasks", where, Integer.class, 0)));
        }
        List<AgentStatistics> out = new ArrayList<>();
        for (Map.Entry<String, AgentStatistics> e : stats.entrySet()) {
            out.add(e.getValue() != null ? e.getValue() : agents.statistics(e.getKey(), 0, 0, 0, 0));
        }
        return out;
    }
}

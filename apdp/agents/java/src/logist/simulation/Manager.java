package logist.simulation;

import java.util.List;

import apdp.host.Hooks;
import logist.LogistSettings;
import logist.LogistSettings.FileKey;
import logist.LogistSettings.SizeKey;
import logist.agent.Agent;
import logist.agent.AgentImpl;
import logist.history.History;
import logist.task.DefaultTaskDistribution;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/**
 * The platform's run of a configuration ({@code logist.LogistPlatform.main}, made by
 * {@code Parsers.parseConfiguration}), headless: {@link #run()} sets up every agent (agent i drives
 * company i), draws {@code NUMBER_OF_TASKS} tasks from the distribution, auctions them one by one
 * when any agent is an auction agent (every agent bids; the lowest bid wins, of equal bids the
 * agent listed first; -1 when nobody bids) and otherwise gives every agent all of them, then
 * simulates the round and prints each agent's statistics (with its auction revenue). A history is
 * written when the settings name a {@code HISTORY} file. apdp's matches are played by apdp's
 * referee, not by this class.
 */
public class Manager implements Context {
    private final LogistSettings settings;
    private final Topology topology;
    private final List<AgentImpl> agents;
    private final List<Company> companies;
    private final DefaultTaskDistribution distribution;
    private final int[] pickups;
    private final int[] deliveries;
    private History history;

    public Manager(LogistSettings settings, Topology topology, List<AgentImpl> agents, List<Company> companies,
            DefaultTaskDistribution distribution) {
        this.settings = settings;
        this.topology = topology;
        this.agents = agents;
        this.companies = companies;
        this.distribution = distribution;
        this.pickups = new int[topology.size()];
        this.deliveries = new int[topology.size()];
    }

    /** Play the configuration (see the class's comment). */
    public void run() {
        Hooks.get(Hooks.Platform.class).install(settings, topology);
        if (settings.get(FileKey.HISTORY) != null && history == null) {
            history = new History(settings.get(FileKey.HISTORY), String.valueOf(settings.get(FileKey.CONFIGURATION)));
        }
        for (int i = 0; i < agents.size(); i++) {
            agents.get(i).setup(i, this, companies.get(i));
            if (history != null) {
                history.addAgent(agents.get(i).toString());
                for (VehicleImpl v : companies.get(i).vehicles) {
                    history.addVehicle(v.getInfo().name());
                }
            }
        }
        TaskSet tasks = distribution.createTaskSet(settings.get(SizeKey.NUMBER_OF_TASKS));
        boolean auction = false;
        for (AgentImpl agent : agents) {
            auction |= agent.type() == AgentImpl.Type.AUCTION;
        }
        long[] revenue = new long[agents.size()];
        if (history != null) {
            history.addRound(1);
        }
        for (Task task : tasks) {
            if (history != null) {
                history.addTask(task);
            }
            if (!auction) {
                continue;
            }
            Long[] bids = new Long[agents.size()];
            int winner = -1;
            for (int i = 0; i < agents.size(); i++) {
                bids[i] = agents.get(i).askBid(task);
                if (bids[i] != null && (winner < 0 || bids[i] < bids[winner])) {
                    winner = i;
                }
                if (bids[i] != null && history != null) {
                    history.addBid(agents.get(i).toString(), bids[i]);
                }
            }
            if (winner >= 0) {
                revenue[winner] += bids[winner];
            }
            for (AgentImpl agent : agents) {
                agent.notifyResult(task, winner, bids);
            }
        }
        for (AgentImpl agent : agents) {
            agent.beginRound(auction ? agent.getInfo().getTasks() : tasks);
        }
        Simulation simulation = new Simulation(this, agents, history);
        simulation.run(false);
        simulation.close();
        for (int i = 0; i < agents.size(); i++) {
            Agent info = agents.get(i).getInfo();
            if (history != null) {
                history.addStat(i, info);
            }
            System.out.println(info.name() + ": " + info.getTotalTasks() + " tasks delivered, " + info.getTotalDistance()
                    + " km, cost " + info.getTotalCost() + (auction ? ", won bids " + revenue[i] : ", reward "
                    + info.getTotalReward()) + ", profit " + ((auction ? revenue[i] : info.getTotalReward())
                    - info.getTotalCost()));
        }
    }

    /** Close the history, if any. */
    @Override
    public void close() {
        if (history != null) {
            history.close();
            history = null;
        }
    }

    @Override
    public TaskDistribution getTaskDistribution() {
        return distribution;
    }

    @Override
    public Topology getTopology() {
        return topology;
    }

    @Override
    public LogistSettings getSettings() {
        return settings;
    }

    @Override
    public void notifyDelivery(Task task) {
        deliveries[task.deliveryCity.id]++;
    }

    @Override
    public void notifyPickup(Task task) {
        pickups[task.pickupCity.id]++;
    }

    @Override
    public int[] countDelivery() {
        return deliveries.clone();
    }

    @Override
    public int[] countPickup() {
        return pickups.clone();
    }
}

package template;

//the list of imports
import java.io.File;
import java.util.ArrayList;
import java.util.List;

import org.apache.commons.math.stat.descriptive.DescriptiveStatistics;
import org.jdom.Document;
import org.jdom.Element;
import org.jdom.input.SAXBuilder;

import cern.colt.Arrays;
import centralized.SLSPlanner;
import logist.LogistPlatform;
import logist.LogistSettings;
import logist.agent.Agent;
import logist.behavior.AuctionBehavior;
import logist.behavior.CentralizedBehavior;
import logist.behavior.DeliberativeBehavior;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/**
 * The auction exercise as a student group hands it in, beside the other exercises in one source
 * tree: it reuses the centralized exercise's planner, imports the other behaviours (unused), keeps
 * statistics of its opponents' bids with Apache Commons Math, prints them with colt, and reads its
 * time limits with JDOM. It bids its marginal cost times a margin (parameter "margin").
 */
@SuppressWarnings("unused")
public class AuctionMain implements AuctionBehavior {
    private Agent agent;
    private List<Vehicle> vehicles;
    private SLSPlanner planner;
    private TaskSet won;
    private double margin;
    private long bidTimeout;
    private final DescriptiveStatistics opponents = new DescriptiveStatistics();
    private CentralizedBehavior notUsed;
    private DeliberativeBehavior notUsedEither;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.agent = agent;
        this.vehicles = agent.vehicles();
        this.planner = new SLSPlanner(vehicles, agent.id());
        this.won = TaskSet.noneOf(TaskSet.create(new Task[0])); // the platform's getTasks() is null during setup
        this.margin = agent.readProperty("margin", Double.class, 1.2);
        try {
            Document settings = new SAXBuilder().build(new File("config/settings_auction.xml"));
            for (Object child : settings.getRootElement().getChildren("set")) {
                String bid = ((Element) child).getAttributeValue("timeout-bid");
                if (bid != null) {
                    bidTimeout = Long.parseLong(bid);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the settings with JDOM: " + e, e);
        }
        if (bidTimeout <= 0 || LogistPlatform.getSettings().get(LogistSettings.TimeoutKey.BID) <= bidTimeout) {
            throw new IllegalStateException("the settings file and the platform disagree on the bid limit");
        }
        System.out.println("auction-main " + agent.name() + ": margin " + margin + ", bid limit " + bidTimeout + " ms");
    }

    @Override
    public Long askPrice(Task task) {
        if (planner == null) {
            return null;
        }
        for (Vehicle v : vehicles) {
            if (task.weight <= v.capacity()) {
                TaskSet more = TaskSet.copyOf(won);
                more.add(task);
                double extra = total(planner.assign(more)) - total(planner.assign(won));
                return (long) Math.ceil(Math.max(extra, 50.0) * margin);
            }
        }
        return null;
    }

    private double total(List<List<Task>> tours) {
        double cost = 0;
        for (int v = 0; v < tours.size(); v++) {
            cost += planner.cost(v, tours.get(v));
        }
        return cost;
    }

    @Override
    public void auctionResult(Task previous, int winner, Long[] bids) {
        if (winner == agent.id()) {
            won.add(previous);
        }
        for (int i = 0; i < bids.length; i++) {
            if (i != agent.id() && bids[i] != null) {
                opponents.addValue(bids[i]);
            }
        }
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        double[] seen = opponents.getValues();
        System.out.println("opponents' bids " + Arrays.toString(seen) + ", mean " + opponents.getMean());
        List<Plan> plans = planner.plans(planner.assign(tasks));
        return new ArrayList<>(plans);
    }
}

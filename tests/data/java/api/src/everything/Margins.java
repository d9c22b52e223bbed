package everything;

import java.util.ArrayList;
import java.util.List;

import logist.LogistPlatform;
import logist.LogistSettings;
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
 * A test agent written as two of the platform's agents are: it gives itself its time limits less
 * 1000 ms (and fails when that leaves nothing), and, with the parameter negative=true, bids below
 * zero to be sure to take the first task (the platform takes any Long). It carries its tasks one
 * after the other with its first vehicle.
 */
public class Margins implements AuctionBehavior {
    private Agent agent;
    private Vehicle vehicle;
    private City end;
    private long bidBudget;
    private boolean negative;
    private final List<Task> won = new ArrayList<>();

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        this.agent = agent;
        this.vehicle = agent.vehicles().get(0);
        this.end = vehicle.homeCity();
        this.negative = agent.readProperty("negative", Boolean.class, false);
        LogistSettings settings = LogistPlatform.getSettings();
        bidBudget = settings.get(LogistSettings.TimeoutKey.BID) - 1000;
        long planBudget = settings.get(LogistSettings.TimeoutKey.PLAN) - 1000;
        if (bidBudget <= 0 || planBudget <= 0) {
            throw new IllegalStateException("no time left to bid or plan: " + bidBudget + " / " + planBudget + " ms");
        }
        System.out.println("margins: bid budget " + bidBudget + " ms, plan budget " + planBudget + " ms");
    }

    @Override
    public Long askPrice(Task task) {
        long deadline = System.currentTimeMillis() + bidBudget;
        if (task.weight > vehicle.capacity() || System.currentTimeMillis() > deadline) {
            return null;
        }
        if (negative && task.id == 0) {
            return -500L;
        }
        return Math.round((end.distanceTo(task.pickupCity) + task.pathLength()) * vehicle.costPerKm()) + 200;
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
        List<Plan> plans = new ArrayList<>();
        plans.add(Everything.sequence(vehicle.homeCity(), won));
        while (plans.size() < vehicles.size()) {
            plans.add(Plan.EMPTY);
        }
        return plans;
    }
}

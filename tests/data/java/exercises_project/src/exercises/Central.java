package exercises;

import java.util.ArrayList;
import java.util.List;

import logist.LogistSettings;
import logist.agent.Agent;
import logist.behavior.CentralizedBehavior;
import logist.config.Parsers;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * A centralized agent as the course's template: it reads its time limits from
 * config/settings_default.xml, gives every task to its first vehicle, one after the other, and
 * leaves the others idle (Plan.EMPTY). It prints what it is handed and the template's lines.
 * "fail" (see Faults; "null": plan returns null; "short": one plan fewer than vehicles) fails at plan.
 */
public class Central implements CentralizedBehavior {
    private Agent agent;
    private long timeoutSetup;
    private long timeoutPlan;
    private String fail;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        LogistSettings ls = null;
        try {
            ls = Parsers.parseSettings("config/settings_default.xml");
        } catch (Exception exc) {
            System.out.println("There was a problem loading the configuration file.");
        }
        timeoutSetup = ls.get(LogistSettings.TimeoutKey.SETUP);
        timeoutPlan = ls.get(LogistSettings.TimeoutKey.PLAN);
        this.agent = agent;
        this.fail = agent.readProperty("fail", String.class, "");
        System.out.println("CENTRAL " + agent.id() + " setup agent=" + agent.name() + " id=" + agent.id() + " setup=" + timeoutSetup
                + " plan=" + timeoutPlan + " getTasks=" + agent.getTasks());
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        long start = System.currentTimeMillis();
        System.out.println("CENTRAL " + agent.id() + " plan vehicles=" + vehicles.size() + " tasks=" + Views.tasks(tasks) + " "
                + Views.agent(agent));
        for (Vehicle v : vehicles) {
            System.out.println("CENTRAL " + agent.id() + " " + Views.vehicle(v));
        }
        if (!fail.isEmpty()) {
            Faults.commit(fail, "plan");
            if (fail.equals("null")) {
                return null;
            }
        }
        List<Plan> plans = new ArrayList<Plan>();
        plans.add(naivePlan(vehicles.get(0), tasks));
        while (plans.size() < vehicles.size() - (fail.equals("short") ? 1 : 0)) {
            plans.add(Plan.EMPTY);
        }
        System.out.println("CENTRAL " + agent.id() + " The plan was generated in " + (System.currentTimeMillis() - start) + " milliseconds.");
        double cost = 0;
        for (int i = 0; i < plans.size(); i++) {
            cost += plans.get(i).totalDistance() * vehicles.get(i).costPerKm();
        }
        System.out.println("CENTRAL " + agent.id() + " The plan costs a total of " + cost);
        return plans;
    }

    private Plan naivePlan(Vehicle vehicle, TaskSet tasks) {
        City current = vehicle.getCurrentCity();
        Plan plan = new Plan(current);
        for (Task task : tasks) {
            for (City city : current.pathTo(task.pickupCity)) {
                plan.appendMove(city);
            }
            plan.appendPickup(task);
            for (City city : task.path()) {
                plan.appendMove(city);
            }
            plan.appendDelivery(task);
            current = task.deliveryCity;
        }
        return plan;
    }
}

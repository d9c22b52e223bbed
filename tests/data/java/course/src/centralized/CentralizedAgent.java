package centralized;

import java.util.List;

import logist.LogistSettings;
import logist.agent.Agent;
import logist.behavior.CentralizedBehavior;
import logist.config.Parsers;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/** The centralized exercise: one planner for every vehicle. */
public class CentralizedAgent implements CentralizedBehavior {
    private long timeoutPlan;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        LogistSettings ls = null;
        try {
            ls = Parsers.parseSettings("config\\settings_default.xml");
        } catch (Exception exc) {
            System.out.println("There was a problem loading the configuration file.");
        }
        timeoutPlan = ls.get(LogistSettings.TimeoutKey.PLAN);
    }

    @Override
    public List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks) {
        SLSPlanner planner = new SLSPlanner(vehicles, timeoutPlan);
        return planner.plans(planner.assign(tasks));
    }
}

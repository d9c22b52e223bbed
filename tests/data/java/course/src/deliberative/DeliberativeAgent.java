package deliberative;

import logist.agent.Agent;
import logist.behavior.DeliberativeBehavior;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/** The deliberative exercise: a naive plan (the course's template) with an algorithm parameter. */
public class DeliberativeAgent implements DeliberativeBehavior {
    enum Algorithm { BFS, ASTAR, NAIVE }

    private Algorithm algorithm;

    @Override
    public void setup(Topology topology, TaskDistribution distribution, Agent agent) {
        algorithm = Algorithm.valueOf(agent.readProperty("algorithm", String.class, "ASTAR").toUpperCase());
    }

    @Override
    public Plan plan(Vehicle vehicle, TaskSet tasks) {
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

    @Override
    public void planCancelled(TaskSet carriedTasks) {
        if (!carriedTasks.isEmpty()) {
            System.out.println("Plan cancelled with " + carriedTasks.size() + " tasks on board (" + algorithm + ")");
        }
    }
}

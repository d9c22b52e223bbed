package exercises;

import logist.agent.Agent;
import logist.behavior.DeliberativeBehavior;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;
import logist.topology.Topology.City;

/**
 * A deliberative agent planning as the course's template does with its naive algorithm: from
 * where the vehicle is, each task in turn (to its pickup city, pick up, to its delivery city,
 * deliver). It prints what it is handed at every call, and the template's distance line. "fail"
 * (see Faults, and "null": plan returns null) fails at the first plan.
 */
public class Naive implements DeliberativeBehavior {
    private Agent agent;
    private String fail;
    private int calls;

    @Override
    public void setup(Topology topology, TaskDistribution td, Agent agent) {
        this.agent = agent;
        this.fail = agent.readProperty("fail", String.class, "");
        System.out.println("NAIVE " + agent.id() + " setup agent=" + agent.name() + " id=" + agent.id() + " getTasks=" + agent.getTasks()
                + " cur=" + agent.vehicles().get(0).getCurrentCity());
    }

    @Override
    public Plan plan(Vehicle vehicle, TaskSet tasks) {
        calls++;
        System.out.println("NAIVE " + agent.id() + " plan call=" + calls + " tasks=" + Views.tasks(tasks) + " " + Views.vehicle(vehicle) + " "
                + Views.agent(agent));
        if (!fail.isEmpty()) {
            Faults.commit(fail, "plan");
            if (fail.equals("null")) {
                return null;
            }
        }
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
        System.out.println("NAIVE " + agent.id() + " Plan has total distance of: " + plan.totalDistance() + " km");
        return plan;
    }

    @Override
    public void planCancelled(TaskSet carriedTasks) {
        System.out.println("NAIVE " + agent.id() + " planCancelled carried=" + Views.tasks(carriedTasks) + " " + Views.agent(agent));
    }
}

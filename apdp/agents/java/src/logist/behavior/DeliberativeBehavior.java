package logist.behavior;

import logist.agent.Agent;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/**
 * The course's deliberative exercise: each vehicle plans the tasks it is given on its own. apdp
 * plays auction agents only; this interface is here so that a project holding the course's other
 * exercises compiles (and the platform's own {@code logist.simulation.Manager} can run it).
 */
public interface DeliberativeBehavior {

    /** Called once, before planning. */
    void setup(Topology topology, TaskDistribution distribution, Agent agent);

    /** The plan of {@code vehicle} (from where it is, with what it carries) that delivers {@code tasks}. */
    Plan plan(Vehicle vehicle, TaskSet tasks);

    /** The plan being driven was cancelled; {@code carriedTasks} are the tasks on board. */
    void planCancelled(TaskSet carriedTasks);
}

package logist.behavior;

import logist.agent.Agent;
import logist.plan.Action;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.topology.Topology;

/**
 * The course's reactive exercise: in each city a vehicle is offered a task (or none) and decides at
 * once. apdp plays auction agents only; this interface is here so that a project holding the
 * course's other exercises compiles (and the platform's own {@code logist.simulation.Manager} can
 * run it).
 */
public interface ReactiveBehavior {

    /** Called once, before the first step. */
    void setup(Topology topology, TaskDistribution distribution, Agent agent);

    /**
     * What {@code vehicle} does where it is, offered {@code availableTask} (null: no task there): a
     * {@code Pickup} of that task (it is then carried to its delivery city and delivered) or a
     * {@code Move} to a neighbouring city.
     */
    Action act(Vehicle vehicle, Task availableTask);
}

package logist.behavior;

import java.util.List;

import logist.agent.Agent;
import logist.plan.Plan;
import logist.simulation.Vehicle;
import logist.task.TaskDistribution;
import logist.task.TaskSet;
import logist.topology.Topology;

/**
 * The course's centralized exercise: one agent plans every task for all its vehicles at once.
 * apdp plays auction agents only; this interface is here so that a project holding the course's
 * other exercises compiles (and the platform's own {@code logist.simulation.Manager} can run it).
 */
public interface CentralizedBehavior {

    /** Called once, before planning. */
    void setup(Topology topology, TaskDistribution distribution, Agent agent);

    /** One plan per vehicle, in the order of {@code vehicles}, that delivers every task of {@code tasks}. */
    List<Plan> plan(List<Vehicle> vehicles, TaskSet tasks);
}

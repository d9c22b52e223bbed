package reactive;

import java.util.Random;

import logist.agent.Agent;
import logist.behavior.ReactiveBehavior;
import logist.plan.Action;
import logist.plan.Action.Move;
import logist.plan.Action.Pickup;
import logist.simulation.Vehicle;
import logist.task.Task;
import logist.task.TaskDistribution;
import logist.topology.Topology;
import logist.topology.Topology.City;

/** The reactive exercise (the course's template): take a task when it pays, else move at random. */
public class ReactiveRLA implements ReactiveBehavior {
    private Random random;
    private double pPickup;
    private TaskDistribution distribution;

    @Override
    public void setup(Topology topology, TaskDistribution td, Agent agent) {
        Double discount = agent.readProperty("discount-factor", Double.class, 0.95);
        this.random = new Random();
        this.pPickup = discount;
        this.distribution = td;
    }

    @Override
    public Action act(Vehicle vehicle, Task availableTask) {
        City currentCity = vehicle.getCurrentCity();
        if (availableTask == null || random.nextDouble() > pPickup
                || distribution.probability(currentCity, null) > 0.99) {
            return new Move(currentCity.randomNeighbor(random));
        }
        return new Pickup(availableTask);
    }
}

package logist.simulation;

import java.awt.Color;

import logist.task.TaskSet;
import logist.topology.Topology.City;

/** One of an agent's vehicles. During an auction game a vehicle stays at its home city. */
public interface Vehicle {

    /** The vehicle's index among its agent's vehicles. */
    int id();

    /** The vehicle's name. */
    String name();

    /** The largest total weight it can carry. */
    int capacity();

    /** What one km driven costs. */
    int costPerKm();

    /** Where its plan starts. */
    City homeCity();

    /** Where it is now: its home city during the whole game. */
    City getCurrentCity();

    /** The tasks on board: none during the whole game. */
    TaskSet getCurrentTasks();

    /** Its speed in km/h. */
    double speed();

    /** Its colour on the platform's map. */
    Color color();
}

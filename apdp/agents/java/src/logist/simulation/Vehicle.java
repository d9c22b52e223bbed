package logist.simulation;

import java.awt.Color;

import logist.task.TaskSet;
import logist.topology.Topology.City;

/**
 * One of an agent's vehicles, as the agent sees it. During an auction game a vehicle stays at its
 * home city, carries nothing, and has driven and earned nothing: its plan is driven after the game
 * (in apdp: checked and costed by the referee).
 */
public interface Vehicle {

    /** The vehicle's index among its agent's vehicles. */
    int id();

    /** The vehicle's name. */
    String name();

    /** The largest total weight it can carry. */
    int capacity();

    /** Where its plan starts. */
    City homeCity();

    /** Its speed in km/h (apdp's scenarios have none: 220, the course's configurations' value). */
    double speed();

    /** What one km driven costs. */
    int costPerKm();

    /** Where it is now: its home city during the whole auction game. */
    City getCurrentCity();

    /** The tasks on board: none during the whole auction game. */
    TaskSet getCurrentTasks();

    /** The rewards of the tasks it delivered so far: 0 during the auction game. */
    long getReward();

    /** The distance it drove so far, in units (km x 1000): 0 during the auction game. */
    long getDistanceUnits();

    /** The distance it drove so far, in km: 0 during the auction game. */
    double getDistance();

    /** Its colour on the platform's map. */
    Color color();
}

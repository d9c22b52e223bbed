package apdp.host;

import java.awt.Color;

import logist.simulation.Vehicle;
import logist.task.TaskSet;
import logist.topology.Topology.City;

/** A vehicle of the agent's company, at home for the whole game: it has driven and earned nothing yet. */
final class HostVehicle implements Vehicle {
    /** Colours as RGB: a Color is made only when asked for (java.awt is slow to load). */
    private static final int[] COLORS = {0x0000ff, 0xff0000, 0x00aa00, 0xff8800, 0xaa00aa, 0x00aaaa};
    /** The platform configurations' speed (km/h); apdp's scenarios have none. */
    static final double SPEED = 220.0;

    private final int id;
    private final String name;
    private final City home;
    private final int capacity;
    private final int costPerKm;
    private final int color;
    private final TaskSet none;

    HostVehicle(int id, String name, City home, int capacity, int costPerKm, int agentId, TaskSet none) {
        this.id = id;
        this.name = name;
        this.home = home;
        this.capacity = capacity;
        this.costPerKm = costPerKm;
        this.color = COLORS[(agentId * 2 + id) % COLORS.length];
        this.none = none;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int costPerKm() {
        return costPerKm;
    }

    @Override
    public City homeCity() {
        return home;
    }

    @Override
    public City getCurrentCity() {
        return home;
    }

    @Override
    public TaskSet getCurrentTasks() {
        return TaskSet.copyOf(none);
    }

    @Override
    public long getReward() {
        return 0;
    }

    @Override
    public long getDistanceUnits() {
        return 0;
    }

    @Override
    public double getDistance() {
        return 0.0;
    }

    @Override
    public double speed() {
        return SPEED;
    }

    @Override
    public Color color() {
        return new Color(color);
    }

    @Override
    public String toString() {
        return name;
    }
}

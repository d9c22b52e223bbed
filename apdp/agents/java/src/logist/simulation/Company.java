package logist.simulation;

import java.util.Collections;
import java.util.List;

/** A company of a configuration: its name and vehicles (in the configuration's order). */
public class Company {
    public final String name;
    public final List<VehicleImpl> vehicles;

    public Company(String name, List<VehicleImpl> vehicles) {
        this.name = name;
        this.vehicles = Collections.unmodifiableList(vehicles);
    }
}

package logist.simulation;

import logist.topology.Topology.City;

/** Something that moves over the network, city to city (the platform's, not public). */
abstract class MovingObject {
    /** Where it is. */
    City current;

    MovingObject(City start) {
        this.current = start;
    }
}

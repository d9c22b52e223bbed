package logist;

/**
 * The platform's units: distances are kept as whole units of km x 1000, and a simulated hour lasts
 * {@link #NANOS_PER_SIM_HOUR} nanoseconds of the platform's clock.
 */
public class Measures {
    /** Distance units in one km. */
    public static final long DISTANCE_UNITS_PER_KM = 1000L;
    /** Nanoseconds of the platform's clock in one simulated hour (its animation; apdp has none). */
    public static final long NANOS_PER_SIM_HOUR = 1000000000L;

    public Measures() {
    }

    /** {@code km} in distance units, truncated toward zero as the platform does (1.9999 km is 1999 units). */
    public static long kmToUnits(double km) {
        return (long) (km * DISTANCE_UNITS_PER_KM);
    }

    /** {@code units} in km. */
    public static double unitsToKM(long units) {
        return units / (double) DISTANCE_UNITS_PER_KM;
    }
}

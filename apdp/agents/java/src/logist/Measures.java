package logist;

/** The platform's units: distances are kept as whole units of km x 1000. */
public final class Measures {
    private Measures() {
    }

    /** {@code units} in km. */
    public static double unitsToKM(long units) {
        return units / 1000.0;
    }

    /** {@code km} in units. */
    public static long kmToUnits(double km) {
        return Math.round(km * 1000.0);
    }
}

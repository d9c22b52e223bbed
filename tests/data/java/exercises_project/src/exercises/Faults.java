package exercises;

/**
 * The faults the test agents commit on demand (their parameter "fail"), at a given call: "throw"
 * raises, "exit" calls System.exit, "memory" asks for more memory than the JVM has; "null" is
 * answered by the caller (it returns null).
 */
final class Faults {
    private Faults() {
    }

    /** Commit {@code fail} (if it is one of throw, exit, memory) in {@code where}. */
    static void commit(String fail, String where) {
        if (fail.equals("throw")) {
            throw new IllegalStateException("failing on purpose in " + where);
        }
        if (fail.equals("exit")) {
            System.exit(3);
        }
        if (fail.equals("memory")) {
            long[] hoard = new long[1 << 30];
            hoard[0] = 1;
            System.out.println(hoard.length);
        }
    }
}

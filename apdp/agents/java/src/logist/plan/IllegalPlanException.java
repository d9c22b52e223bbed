package logist.plan;

/**
 * A plan that breaks the rules, as the platform's: its first line is the problem (the exception's
 * message), the others say where; {@link #toString()} is all of them, one per line (without the
 * class's name).
 */
public class IllegalPlanException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String[] lines;

    public IllegalPlanException(String[] message) {
        super(message[0]);
        this.lines = message.clone();
    }

    /** The problem's lines, joined by newlines. */
    @Override
    public String toString() {
        return String.join("\n", lines);
    }
}

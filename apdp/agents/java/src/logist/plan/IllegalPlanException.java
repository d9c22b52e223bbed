package logist.plan;

/** A plan that breaks the rules: the problems found, one per string. */
public class IllegalPlanException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String[] errors;

    public IllegalPlanException(String[] errors) {
        super(errors == null ? "an illegal plan" : String.join("; ", errors));
        this.errors = errors == null ? new String[] {"an illegal plan"} : errors.clone();
    }

    /** {@code logist.plan.IllegalPlanException: } then the problems, separated by {@code ; }. */
    @Override
    public String toString() {
        return getClass().getName() + ": " + String.join("; ", errors);
    }
}

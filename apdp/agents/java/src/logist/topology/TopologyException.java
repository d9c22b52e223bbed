package logist.topology;

/** A network that cannot be built, or a city that is not in it. */
public class TopologyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TopologyException(String message) {
        super(message);
    }
}

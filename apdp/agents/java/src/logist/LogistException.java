package logist;

/** An error of the platform (its files, its configuration, an agent that breaks its rules). */
public class LogistException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LogistException(String message, Throwable cause) {
        super(message, cause);
    }

    public LogistException(String message) {
        super(message);
    }
}

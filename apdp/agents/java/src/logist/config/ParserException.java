package logist.config;

/** A platform file (configuration, settings, network, agents, history) that cannot be read; made by its factories. */
public class ParserException extends Exception {
    private static final long serialVersionUID = 1L;

    ParserException(String message) {
        super(message);
    }

    ParserException(String message, Throwable cause) {
        super(message, cause);
    }

    /** {@code where} has no {@code <tag>}. */
    public static ParserException missingTag(String tag, String where) {
        return new ParserException(where + ": no <" + tag + ">");
    }

    /** {@code where} has no attribute {@code attribute}. */
    public static ParserException missingAttribute(String attribute, Object where) {
        return new ParserException(where + ": no " + attribute + "=");
    }

    /** {@code where} has no {@code <set key=.../>}. */
    public static ParserException missingSet(String key, Object where) {
        return new ParserException(where + ": no <set " + key + "=.../>");
    }

    /** {@code what} is missing (e.g. a file). */
    public static ParserException missing(String what) {
        return new ParserException(what + " is missing");
    }

    /** Two {@code what}s are called {@code name}. */
    public static ParserException duplicate(String what, String name) {
        return new ParserException("two " + what + "s are called " + name);
    }

    /** {@code value} of {@code what} is not {@code expected}. */
    public static ParserException badFormat(String what, Object value, String expected) {
        return new ParserException(what + ": " + value + " is not " + expected);
    }

    /** {@code where} has a key this platform does not know. */
    public static ParserException unknownKey(String key, Object where) {
        return new ParserException(where + ": unknown key " + key);
    }

    /** {@code value} does not convert to {@code type}. */
    public static ParserException badClass(Class<?> type, String value) {
        return new ParserException(value + " is not a " + type.getSimpleName());
    }
}

package logist.history;

import logist.LogistException;

/** A history file that cannot be written. */
public class XMLWritingException extends LogistException {
    private static final long serialVersionUID = 1L;

    XMLWritingException(String message, Throwable cause) {
        super(message, cause);
    }
}

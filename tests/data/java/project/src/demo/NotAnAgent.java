package demo;

/** A class of the project that is no auction agent (installing it is refused). */
public class NotAnAgent {
    public long price() {
        return 42;
    }
}

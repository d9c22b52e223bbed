package cern.colt;

/**
 * An empty stand-in for the colt library's class of this name: a few agents import it by
 * mistake (an IDE's stray import, never called), and with it they compile unchanged.
 */
public final class Arrays {
    private Arrays() {
    }
}

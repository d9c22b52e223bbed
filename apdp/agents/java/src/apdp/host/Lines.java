package apdp.host;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The protocol's lines from standard input, as bytes: the JSON parser reads them there, with no
 * decoding into a String first (a Reader's decoder runs interpreted at the JVM's start).
 */
final class Lines {
    private final InputStream in;
    private byte[] buffer = new byte[1 << 16];
    /** Bytes {@code [start, filled)} of the buffer are read and not yet taken. */
    private int start;
    private int filled;
    /** The line {@link #next} found: {@code [lineStart, lineEnd)} of the buffer (its newline excluded). */
    private int lineStart;
    private int lineEnd;

    Lines(InputStream in) {
        this.in = in;
    }

    /**
     * Find the next line (its newline excluded; the last may have none), whose bytes are then
     * {@code buffer()[lineStart(), lineEnd())}; false at the end of the input.
     */
    boolean next() throws IOException {
        int scanned = 0; // bytes of the line looked at already
        while (true) {
            byte[] b = buffer;
            int n = filled;
            int i = start + scanned;
            while (i < n && b[i] != '\n') {
                i++;
            }
            if (i < n) {
                lineStart = start;
                lineEnd = i;
                start = i + 1;
                return true;
            }
            scanned = n - start;
            if (!fill()) {
                if (start == filled) {
                    return false;
                }
                lineStart = start;
                lineEnd = filled;
                start = filled;
                return true;
            }
        }
    }

    int lineStart() {
        return lineStart;
    }

    int lineEnd() {
        return lineEnd;
    }

    byte[] buffer() {
        return buffer;
    }

    /** Read more input into the buffer (moving what is not taken to its start, or growing it); false at the end. */
    private boolean fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, filled - start);
            filled -= start;
            start = 0;
        }
        if (filled == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        }
        int n = in.read(buffer, filled, buffer.length - filled);
        if (n < 0) {
            return false;
        }
        filled += n;
        return true;
    }
}

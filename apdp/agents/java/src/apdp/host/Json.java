package apdp.host;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON of the protocol's lines: objects become {@code Map}, arrays {@code List}, numbers
 * {@code Long} (integers) or {@code Double}, and {@code true}, {@code false}, {@code null} their
 * Java values; and back.
 */
final class Json {
    /** The powers of ten that a double holds exactly. */
    private static final double[] POWERS = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    };
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    /** The strings read before (see {@link #string}), and the numbers {@code Double.parseDouble} read. */
    private static final Known STRINGS = new Known(512);
    private static final Known NUMBERS = new Known(256);
    /** 2^53: a long up to this is a double exactly. */
    private static final long EXACT = 1L << 53;

    private final byte[] in;
    private final int end;
    private int at;

    private Json(byte[] in, int from, int to) {
        this.in = in;
        this.at = from;
        this.end = to;
    }

    /**
     * The value of the JSON text in {@code bytes[from, to)}, UTF-8. The parser reads the bytes
     * themselves, in loops without calls where it can: the host runs it interpreted, before the
     * JIT has compiled anything, and a call per character (String.charAt) cost a match milliseconds.
     */
    static Object parse(byte[] bytes, int from, int to) {
        Json json = new Json(bytes, from, to);
        Object value = json.value();
        json.space();
        if (json.at != to) {
            throw json.error("trailing characters");
        }
        return value;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON from the referee at byte " + at + ": " + what);
    }

    private void space() {
        byte[] b = in;
        int i = at;
        while (i < end && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        at = i;
    }

    private int peek() {
        space();
        if (at >= end) {
            throw error("unexpected end");
        }
        return in[at];
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private Object value() {
        switch (peek()) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return word(TRUE, Boolean.TRUE);
            case 'f':
                return word(FALSE, Boolean.FALSE);
            case 'n':
                return word(NULL, null);
            default:
                return number();
        }
    }

    private Object word(byte[] word, Object value) {
        int n = word.length;
        for (int i = 0; i < n; i++) {
            if (at + i >= end || in[at + i] != word[i]) {
                throw error("expected " + new String(word, StandardCharsets.ISO_8859_1));
            }
        }
        at += n;
        return value;
    }

    private Map<String, Object> object() {
        expect('{');
        Map<String, Object> map = new LinkedHashMap<>();
        if (peek() == '}') {
            at++;
            return map;
        }
        while (true) {
            if (peek() != '"') {
                throw error("expected a key");
            }
            String key = string();
            expect(':');
            map.put(key, value());
            if (!more('}')) {
                return map;
            }
        }
    }

    private List<Object> array() {
        expect('[');
        List<Object> list = new ArrayList<>();
        if (peek() == ']') {
            at++;
            return list;
        }
        while (true) {
            list.add(value());
            if (!more(']')) {
                return list;
            }
        }
    }

    /** Read what follows an item of the object or array that {@code close} ends: whether another item follows. */
    private boolean more(char close) {
        int c = peek();
        at++;
        if (c == close) {
            return false;
        }
        if (c != ',') {
            throw error("expected ',' or '" + close + "'");
        }
        return true;
    }

    /**
     * A string (at its opening quote). One without escapes is its bytes as they are; a short one
     * read before (a key of the protocol, a city's name) is the String made then, kept by the hash
     * of its bytes: most strings of a request are, and are then neither decoded nor hashed again.
     */
    private String string() {
        expect('"');
        byte[] b = in;
        int start = at;
        int i = start;
        int hash = 0;
        int bits = 0; // the bytes or'ed: negative when one is not ASCII
        while (i < end) {
            byte c = b[i];
            if (c == '"' || c == '\\') {
                break;
            }
            hash = 31 * hash + c;
            bits |= c;
            i++;
        }
        if (i >= end) {
            at = i;
            throw error("unterminated string");
        }
        if (b[i] == '\\') {
            return escaped(start, i);
        }
        at = i + 1;
        int n = i - start;
        Object known = STRINGS.get(b, start, i, hash);
        if (known != null) {
            return (String) known;
        }
        String made = new String(b, start, n, bits < 0 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        STRINGS.put(b, start, i, hash, made);
        return made;
    }

    /** The rest of a string whose first escape is at {@code i}: piece by piece. */
    private String escaped(int start, int i) {
        byte[] b = in;
        StringBuilder out = new StringBuilder().append(new String(b, start, i - start, StandardCharsets.UTF_8));
        at = i;
        while (true) {
            if (at >= end) {
                throw error("unterminated string");
            }
            byte c = b[at];
            if (c == '"') {
                at++;
                return out.toString();
            }
            if (c != '\\') {
                int from = at;
                while (at < end && b[at] != '"' && b[at] != '\\') {
                    at++;
                }
                out.append(new String(b, from, at - from, StandardCharsets.UTF_8));
                continue;
            }
            if (at + 1 >= end) {
                throw error("unterminated string");
            }
            byte e = b[at + 1];
            at += 2;
            switch (e) {
                case 'n':
                    out.append('\n');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 'b':
                    out.append('\b');
                    break;
                case 'f':
                    out.append('\f');
                    break;
                case 'u':
                    if (end - at < 4) {
                        throw error("unterminated string");
                    }
                    out.append((char) Integer.parseInt(new String(b, at, 4, StandardCharsets.ISO_8859_1), 16));
                    at += 4;
                    break;
                default:
                    out.append((char) e);
            }
        }
    }

    /**
     * A number: a {@code Long} when integral, else a {@code Double}, as {@code Long.parseLong} and
     * {@code Double.parseDouble} read its text. Most numbers the referee sends are read here
     * without them: an integer of up to 18 digits, and a decimal whose digits make a long up to
     * 2^53 scaled by a power of ten up to 10^22 (both exact doubles: one division or product is
     * correctly rounded, the value parseDouble gives); the others go to those methods.
     */
    private Object number() {
        byte[] b = in;
        int start = at;
        int i = start;
        int hash = 0;
        boolean integral = true;
        while (i < end) {
            byte c = b[i];
            if (c == '.' || c == 'e' || c == 'E') {
                integral = false;
            } else if (!(c >= '0' && c <= '9' || c == '-' || c == '+')) {
                break;
            }
            hash = 31 * hash + c;
            i++;
        }
        at = i;
        if (i == start) {
            throw error("unexpected character '" + (char) (b[i] & 0xff) + "'");
        }
        Object fast = fastNumber(b, start, i, integral);
        if (fast != null) {
            return fast;
        }
        Object known = NUMBERS.get(b, start, i, hash);
        if (known != null) {
            return known;
        }
        String digits = new String(b, start, i - start, StandardCharsets.ISO_8859_1);
        Object value;
        if (integral) {
            try {
                value = Long.parseLong(digits);
            } catch (NumberFormatException e) {
                value = Double.parseDouble(digits);
            }
        } else {
            value = Double.parseDouble(digits);
        }
        NUMBERS.put(b, start, i, hash, value);
        return value;
    }

    /** The number in {@code b[from, to)} read by the fast path, or null when it is not one it reads. */
    private static Object fastNumber(byte[] b, int from, int to, boolean integral) {
        int i = from;
        boolean negative = b[i] == '-';
        if (negative) {
            i++;
        }
        long mantissa = 0;
        int digits = 0;
        int scale = 0; // digits after the point
        int first = i;
        while (i < to && b[i] >= '0' && b[i] <= '9') {
            mantissa = mantissa * 10 + (b[i] - '0');
            digits++;
            i++;
        }
        if (i == first || digits > 18 || digits > 1 && b[first] == '0') {
            return null;
        }
        if (integral) {
            return i == to ? Long.valueOf(negative ? -mantissa : mantissa) : null;
        }
        if (i < to && b[i] == '.') {
            i++;
            int point = i;
            while (i < to && b[i] >= '0' && b[i] <= '9') {
                mantissa = mantissa * 10 + (b[i] - '0');
                digits++;
                i++;
            }
            scale = i - point;
            if (scale == 0 || digits > 18) {
                return null;
            }
        }
        int exponent = 0;
        if (i < to && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            boolean down = i < to && b[i] == '-';
            if (i < to && (b[i] == '-' || b[i] == '+')) {
                i++;
            }
            int e0 = i;
            while (i < to && b[i] >= '0' && b[i] <= '9' && i - e0 < 4) {
                exponent = exponent * 10 + (b[i] - '0');
                i++;
            }
            if (i == e0) {
                return null;
            }
            if (down) {
                exponent = -exponent;
            }
        }
        if (i != to || mantissa > EXACT) {
            return null;
        }
        int power = exponent - scale;
        double value;
        if (mantissa == 0) {
            value = 0.0;
        } else if (power >= 0 && power < POWERS.length) {
            value = mantissa * POWERS[power];
        } else if (power < 0 && -power < POWERS.length) {
            value = mantissa / POWERS[-power];
        } else {
            return null;
        }
        return Double.valueOf(negative ? -value : value);
    }

    /** {@code value} as JSON text (maps, lists, strings, numbers, booleans and null). */
    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                quote(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<?>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(item, out);
            }
            out.append(']');
        } else {
            out.append(value);
        }
    }

    private static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    /**
     * Values made from short texts, by the hash of their bytes (a slot per hash: a text that
     * takes another's slot replaces it). The host reads requests on one thread only.
     */
    private static final class Known {
        /** The longest text kept, in bytes. */
        private static final int LONGEST = 48;
        private final byte[][] texts;
        private final Object[] values;

        Known(int slots) { // a power of two
            texts = new byte[slots][];
            values = new Object[slots];
        }

        private int slot(int hash) {
            return (hash ^ hash >>> 9) & (texts.length - 1);
        }

        /** The value made from {@code b[from, to)} (whose hash is {@code hash}), or null. */
        Object get(byte[] b, int from, int to, int hash) {
            int n = to - from;
            if (n > LONGEST) {
                return null;
            }
            int slot = slot(hash);
            byte[] text = texts[slot];
            if (text == null || text.length != n) {
                return null;
            }
            for (int k = 0; k < n; k++) {
                if (text[k] != b[from + k]) {
                    return null;
                }
            }
            return values[slot];
        }

        void put(byte[] b, int from, int to, int hash, Object value) {
            if (to - from <= LONGEST) {
                int slot = slot(hash);
                texts[slot] = Arrays.copyOfRange(b, from, to);
                values[slot] = value;
            }
        }
    }
}

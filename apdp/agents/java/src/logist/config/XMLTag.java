package logist.config;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An element of a platform file (its name, attributes and elements), and the conversion of its
 * text values to Java types ({@link #convert}), which {@code Agent.readProperty} uses too.
 *
 * <p>The files are read by a small reader of their own (elements, attributes, comments, the five
 * named entities and numeric character references; no DTD): the platform's files need no more,
 * and it starts faster than the JDK's XML parsers. A file is decoded as its XML declaration says
 * (UTF-8 without one; ISO-8859-1 when it is not valid UTF-8).
 */
public class XMLTag {
    private static final Pattern ENCODING = Pattern.compile("^<\\?xml[^>]*encoding\\s*=\\s*[\"']([\\w.:-]+)[\"']");

    final String name;
    final Map<String, String> attributes = new LinkedHashMap<>();
    final List<XMLTag> children = new ArrayList<>();
    final String where;

    XMLTag(String name, String where) {
        this.name = name;
        this.where = where;
    }

    /** The start tag: {@code <set key="value">}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("<").append(name);
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            out.append(' ').append(e.getKey()).append("=\"").append(e.getValue()).append('"');
        }
        return out.append('>').toString();
    }

    /**
     * {@code values.get(key)} converted to {@code type} (see {@link #convert(String, Object, Class)}),
     * or {@code defaultValue} when there is no such key; {@code where} names the values in errors.
     * No such key and no default (null): a ParserException, as on the platform.
     */
    public static <T> T convert(Map<String, String> values, String key, Object where, Class<? extends T> type,
            T defaultValue) throws ParserException {
        String value = values == null ? null : values.get(key);
        if (value == null) {
            if (defaultValue == null) {
                throw ParserException.missingSet(key, where);
            }
            return defaultValue;
        }
        return convert(value, where + ": " + key, type);
    }

    /**
     * {@code value} converted to {@code type}. The platform's types convert as the platform converts
     * them: a String as it is (not empty); an Integer or a Long by {@code decode} (decimal,
     * {@code 0x} or {@code #} hexadecimal, {@code 0} octal; no spaces, no fraction); a Double by
     * {@code Double.parseDouble}; a Boolean true for {@code true} in any case, else false (no
     * spaces); a {@code java.awt.Color} by {@code Color.decode} ({@code #rrggbb}); a File by its
     * path. apdp converts more types, which the platform refuses: primitive types as their boxes,
     * other numbers and a character (spaces ignored; a short or byte also takes a whole decimal such
     * as {@code 3.0}), an enum constant (by name, in any case), else any type with a static
     * {@code valueOf(String)} or a constructor from a String. ParserException when it does not
     * convert.
     */
    @SuppressWarnings("unchecked")
    public static <T> T convert(String value, Object where, Class<? extends T> type) throws ParserException {
        Class<?> boxed = box(type);
        String text = value.trim();
        try {
            if (boxed == String.class) {
                if (value.isEmpty()) {
                    throw ParserException.badFormat(String.valueOf(where), "\"\"", "a (non-empty) String");
                }
                return (T) value;
            }
            if (boxed == Object.class || boxed == CharSequence.class) {
                return (T) value;
            }
            if (boxed == Integer.class) {
                return (T) Integer.decode(value);
            }
            if (boxed == Long.class) {
                return (T) Long.decode(value);
            }
            if (boxed == Double.class) {
                return (T) Double.valueOf(Double.parseDouble(value));
            }
            if (boxed == Boolean.class) {
                return (T) Boolean.valueOf(Boolean.parseBoolean(value));
            }
            if (boxed == File.class) {
                return (T) new File(value);
            }
            if (boxed == Short.class || boxed == Byte.class) {
                long whole = integral(text);
                Object out; // not a ?: chain, which would promote every branch to Long
                if (boxed == Short.class) {
                    if (whole != (short) whole) {
                        throw new ArithmeticException("out of range");
                    }
                    out = (short) whole;
                } else {
                    if (whole != (byte) whole) {
                        throw new ArithmeticException("out of range");
                    }
                    out = (byte) whole;
                }
                return (T) out;
            }
            if (boxed == Float.class) {
                return (T) Float.valueOf(text);
            }
            if (boxed == Character.class) {
                if (text.length() != 1) {
                    throw new IllegalArgumentException("not one character");
                }
                return (T) Character.valueOf(text.charAt(0));
            }
            if (boxed.isEnum()) {
                for (Object constant : boxed.getEnumConstants()) {
                    if (((Enum<?>) constant).name().equalsIgnoreCase(text)) {
                        return (T) constant;
                    }
                }
                throw new IllegalArgumentException("no such constant");
            }
            if (boxed.getName().equals("java.awt.Color")) { // by name: java.awt is slow to load
                return (T) boxed.getMethod("decode", String.class).invoke(null, value);
            }
            for (Method m : boxed.getMethods()) {
                if (m.getName().equals("valueOf") && Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 1
                        && m.getParameterTypes()[0] == String.class && boxed.isAssignableFrom(m.getReturnType())) {
                    return (T) m.invoke(null, text);
                }
            }
            Constructor<?> make = boxed.getConstructor(String.class);
            return (T) make.newInstance(text);
        } catch (InvocationTargetException e) {
            throw ParserException.badFormat(String.valueOf(where), value, "a " + type.getSimpleName());
        } catch (ParserException e) {
            throw e;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw ParserException.badFormat(String.valueOf(where), value, "a " + type.getSimpleName());
        }
    }

    private static long integral(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            double d = Double.parseDouble(text);
            if (d != Math.rint(d) || Math.abs(d) > 9.0e18) {
                throw e;
            }
            return (long) d;
        }
    }

    /** Each primitive type but char and its class of objects. */
    private static final Class<?>[][] BOXES = {
        {int.class, Integer.class}, {long.class, Long.class}, {double.class, Double.class},
        {float.class, Float.class}, {boolean.class, Boolean.class}, {short.class, Short.class},
        {byte.class, Byte.class},
    };

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        for (Class<?>[] box : BOXES) {
            if (type == box[0]) {
                return box[1];
            }
        }
        return Character.class;
    }

    // ---- reading a file ----

    /** The root element of {@code file}, which must be {@code <root>} (ParserException otherwise). */
    static XMLTag read(File file, String root) throws ParserException {
        byte[] data;
        try {
            data = Files.readAllBytes(file.toPath());
        } catch (IOException | RuntimeException e) {
            throw new ParserException("cannot read " + file + " (" + e + ")", e);
        }
        XMLTag tag = new Reader(decode(data), file.getPath()).document();
        if (!tag.name.equals(root)) {
            throw new ParserException(file + ": expected <" + root + "> at the top, found <" + tag.name + ">");
        }
        return tag;
    }

    private static String decode(byte[] data) {
        String head = new String(data, 0, Math.min(data.length, 200), StandardCharsets.ISO_8859_1);
        Matcher m = ENCODING.matcher(head.startsWith("\uFEFF") || head.startsWith("\u00EF\u00BB\u00BF")
                ? head.substring(head.indexOf('<') < 0 ? 0 : head.indexOf('<')) : head);
        Charset charset = StandardCharsets.UTF_8;
        if (m.find()) {
            try {
                charset = Charset.forName(m.group(1));
            } catch (RuntimeException e) {
                charset = StandardCharsets.UTF_8;
            }
        }
        try {
            String text = charset.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
            return text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            return new String(data, StandardCharsets.ISO_8859_1);
        }
    }

    /** The first element named {@code child}, or null. */
    XMLTag child(String child) {
        for (XMLTag tag : children) {
            if (tag.name.equals(child)) {
                return tag;
            }
        }
        return null;
    }

    /** The elements named {@code child}, in order. */
    List<XMLTag> children(String child) {
        List<XMLTag> out = new ArrayList<>();
        for (XMLTag tag : children) {
            if (tag.name.equals(child)) {
                out.add(tag);
            }
        }
        return out;
    }

    /** The attributes of every {@code <set .../>} element, in order (a later one wins). */
    Map<String, String> sets() {
        Map<String, String> out = new LinkedHashMap<>();
        for (XMLTag set : children("set")) {
            out.putAll(set.attributes);
        }
        return out;
    }

    /** The attribute {@code key} (ParserException when missing). */
    String attribute(String key) throws ParserException {
        String value = attributes.get(key);
        if (value == null) {
            throw ParserException.missingAttribute(key, where + " " + this);
        }
        return value;
    }

    Map<String, String> attributes() {
        return Collections.unmodifiableMap(attributes);
    }

    /** A reader of one document. */
    private static final class Reader {
        /**
         * What may stand around the root element and is not read, by its start and end: processing
         * instructions, comments, declarations.
         */
        private static final String[][] PROLOG = {{"<?", "?>"}, {"<!--", "-->"}, {"<!", ">"}};
        /** What may stand among an element's children and is not read: comments, CDATA, processing instructions. */
        private static final String[][] UNREAD = {{"<!--", "-->"}, {"<![CDATA[", "]]>"}, {"<?", "?>"}};

        private final String text;
        private final String file;
        private int at;

        Reader(String text, String file) {
            this.text = text;
            this.file = file;
        }

        private ParserException error(String what) {
            int line = 1;
            for (int i = 0; i < at && i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
            return new ParserException(file + ":" + line + ": not valid XML (" + what + ")");
        }

        XMLTag document() throws ParserException {
            XMLTag root = null;
            while (true) {
                skipSpace();
                if (at >= text.length()) {
                    break;
                }
                if (skipped(PROLOG)) {
                    continue;
                }
                if (text.charAt(at) == '<' && root == null) {
                    root = element();
                } else {
                    throw error("text outside the root element");
                }
            }
            if (root == null) {
                throw error("no root element");
            }
            return root;
        }

        private void skipSpace() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        /** Skip the first of {@code markup} ({start, end} pairs) that starts here, if one does; whether one did. */
        private boolean skipped(String[][] markup) throws ParserException {
            for (String[] m : markup) {
                if (text.startsWith(m[0], at)) {
                    skipPast(m[1]);
                    return true;
                }
            }
            return false;
        }

        private void skipPast(String end) throws ParserException {
            int i = text.indexOf(end, at);
            if (i < 0) {
                throw error("no " + end);
            }
            at = i + end.length();
        }

        private String name() throws ParserException {
            int start = at;
            while (at < text.length()) {
                char c = text.charAt(at);
                if (Character.isWhitespace(c) || c == '=' || c == '>' || c == '/' || c == '<') {
                    break;
                }
                at++;
            }
            if (at == start) {
                throw error("a name is missing");
            }
            return text.substring(start, at);
        }

        private XMLTag element() throws ParserException {
            at++; // <
            XMLTag tag = new XMLTag(name(), file);
            while (true) {
                skipSpace();
                if (at >= text.length()) {
                    throw error("<" + tag.name + "> is not closed");
                }
                char c = text.charAt(at);
                if (c == '/') {
                    if (!text.startsWith("/>", at)) {
                        throw error("stray / in <" + tag.name + ">");
                    }
                    at += 2;
                    return tag;
                }
                if (c == '>') {
                    at++;
                    break;
                }
                String key = name();
                skipSpace();
                if (at >= text.length() || text.charAt(at) != '=') {
                    throw error("attribute " + key + " has no value");
                }
                at++;
                skipSpace();
                char quote = at < text.length() ? text.charAt(at) : 0;
                if (quote != '"' && quote != '\'') {
                    throw error("the value of " + key + " is not quoted");
                }
                int end = text.indexOf(quote, at + 1);
                if (end < 0) {
                    throw error("the value of " + key + " is not closed");
                }
                tag.attributes.put(key, unescape(text.substring(at + 1, end)));
                at = end + 1;
            }
            while (true) { // content
                int next = text.indexOf('<', at);
                if (next < 0) {
                    throw error("<" + tag.name + "> is not closed");
                }
                at = next;
                if (text.startsWith("</", at)) {
                    at += 2;
                    String end = name();
                    if (!end.equals(tag.name)) {
                        throw error("<" + tag.name + "> closed by </" + end + ">");
                    }
                    skipSpace();
                    if (at >= text.length() || text.charAt(at) != '>') {
                        throw error("</" + end + " is not closed");
                    }
                    at++;
                    return tag;
                }
                if (!skipped(UNREAD)) {
                    tag.children.add(element());
                }
            }
        }

        private String unescape(String value) throws ParserException {
            if (value.indexOf('&') < 0) {
                return value;
            }
            StringBuilder out = new StringBuilder();
            int i = 0;
            while (i < value.length()) {
                char c = value.charAt(i);
                if (c != '&') {
                    out.append(c);
                    i++;
                    continue;
                }
                int end = value.indexOf(';', i);
                if (end < 0) {
                    throw error("a bare & in an attribute");
                }
                String entity = value.substring(i + 1, end);
                switch (entity) {
                    case "lt":
                        out.append('<');
                        break;
                    case "gt":
                        out.append('>');
                        break;
                    case "amp":
                        out.append('&');
                        break;
                    case "quot":
                        out.append('"');
                        break;
                    case "apos":
                        out.append('\'');
                        break;
                    default:
                        try {
                            int code = entity.startsWith("#x") ? Integer.parseInt(entity.substring(2), 16)
                                    : Integer.parseInt(entity.substring(1));
                            if (!entity.startsWith("#")) {
                                throw new NumberFormatException();
                            }
                            out.appendCodePoint(code);
                        } catch (RuntimeException e) {
                            throw error("unknown entity &" + entity.toLowerCase(Locale.ROOT) + ";");
                        }
                }
                i = end + 1;
            }
            return out.toString();
        }
    }
}

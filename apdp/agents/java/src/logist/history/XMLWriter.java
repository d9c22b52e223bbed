package logist.history;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Writes XML as it goes: {@code writeTag("a").writeAttribute("k", "v").writeTag("b").endTag().endTag()}
 * writes {@code <a k="v"><b/></a>} (indented). Attributes follow their tag; text and comments go
 * inside the open tag. An I/O error throws an {@link XMLWritingException}.
 */
public class XMLWriter {
    private final Writer out;
    private final Deque<String> open = new ArrayDeque<>();
    /** Whether the latest tag's start is still open (attributes may follow). */
    private boolean inStart;
    /** Whether the open tag has content. */
    private boolean content;

    public XMLWriter(Writer out) {
        this.out = out;
    }

    private void write(String text) {
        try {
            out.write(text);
        } catch (IOException e) {
            throw new XMLWritingException("cannot write XML: " + e.getMessage(), e);
        }
    }

    private void closeStart() {
        if (inStart) {
            write(">");
            inStart = false;
        }
    }

    private void indent() {
        StringBuilder s = new StringBuilder("\n");
        for (int i = 0; i < open.size(); i++) {
            s.append("  ");
        }
        write(open.isEmpty() && !content ? s.substring(1) : s.toString());
    }

    /** Open the element {@code name}. */
    public XMLWriter writeTag(String name) {
        closeStart();
        indent();
        write("<" + name);
        open.push(name);
        inStart = true;
        content = false;
        return this;
    }

    /** An attribute of the tag just opened. */
    public XMLWriter writeAttribute(String name, String value) {
        if (!inStart) {
            throw new XMLWritingException("attribute " + name + " outside a start tag", null);
        }
        write(" " + name + "=\"" + escapeXml(value) + "\"");
        return this;
    }

    /** An attribute of the tag just opened, its value's {@code toString()}. */
    public XMLWriter writeAttribute(String name, Object value) {
        return writeAttribute(name, String.valueOf(value));
    }

    /** Close the innermost open element. */
    public XMLWriter endTag() {
        if (open.isEmpty()) {
            throw new XMLWritingException("no element to close", null);
        }
        String name = open.pop();
        if (inStart) {
            write("/>");
            inStart = false;
        } else {
            indent();
            write("</" + name + ">");
        }
        content = true;
        return this;
    }

    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new XMLWritingException("cannot write XML: " + e.getMessage(), e);
        }
    }

    /** Close every open element, then the writer. */
    public void close() {
        while (!open.isEmpty()) {
            endTag();
        }
        write("\n");
        try {
            out.close();
        } catch (IOException e) {
            throw new XMLWritingException("cannot close XML: " + e.getMessage(), e);
        }
    }

    /** Text inside the open element (escaped). */
    public XMLWriter writeText(String text) {
        closeStart();
        write(escapeXml(text));
        content = true;
        return this;
    }

    /** A comment inside the open element. */
    public XMLWriter writeComment(String text) {
        closeStart();
        indent();
        write("<!-- " + text.replace("--", "- -") + " -->");
        return this;
    }

    /** {@code text} with {@code & < > " '} written as entities. */
    public static String escapeXml(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&':
                    out.append("&amp;");
                    break;
                case '<':
                    out.append("&lt;");
                    break;
                case '>':
                    out.append("&gt;");
                    break;
                case '"':
                    out.append("&quot;");
                    break;
                case '\'':
                    out.append("&apos;");
                    break;
                default:
                    out.append(c);
            }
        }
        return out.toString();
    }

    /** Text inside the open element: {@code value}'s {@code toString()}. */
    public void writeText(Object value) {
        writeText(String.valueOf(value));
    }
}

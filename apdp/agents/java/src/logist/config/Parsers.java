package logist.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import logist.LogistSettings;
import logist.LogistSettings.TimeoutKey;

/** Reading the platform's files. */
public final class Parsers {
    private static final Pattern SET = Pattern.compile("<set\\s+([\\w-]+)\\s*=\\s*\"([^\"]*)\"");

    private Parsers() {
    }

    /**
     * The settings in the file {@code path} ({@code <settings><set timeout-bid="2500"/>...}),
     * relative to the working directory; apdp's host writes {@code config/settings_auction.xml}
     * and {@code config/settings_default.xml} there with the match's time limits.
     */
    public static LogistSettings parseSettings(String path) throws Exception {
        String text;
        try {
            text = new String(Files.readAllBytes(Paths.get(path)), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IOException("cannot read the settings file " + path + ": " + e, e);
        }
        LogistSettings settings = new LogistSettings();
        Matcher m = SET.matcher(text);
        while (m.find()) {
            String key = m.group(1);
            if (key.startsWith("timeout-")) {
                String name = key.substring("timeout-".length()).toUpperCase();
                for (TimeoutKey k : TimeoutKey.values()) {
                    if (k.name().equals(name)) {
                        settings.set(k, Long.parseLong(m.group(2).trim()));
                    }
                }
            }
        }
        return settings;
    }
}

package io.keyranger;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The application version, filtered into a resource from the pom at build time. */
public final class Version {
    private static final String VALUE = load();

    private Version() {
    }

    public static String get() {
        return VALUE;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "dev";
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version", "dev");
            return version.startsWith("${") ? "dev" : version;
        } catch (IOException e) {
            return "dev";
        }
    }
}

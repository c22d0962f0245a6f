package io.keyranger.sim;

import io.keyranger.KeyRangerException;
import java.util.Locale;

/** The strategies the simulation compares, as the bench's of the same names. */
public enum SimStrategy {
    LINEAR, FIXED, ADAPTIVE, ORACLE;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SimStrategy of(String id) {
        for (SimStrategy s : values()) {
            if (s.id().equalsIgnoreCase(id)) {
                return s;
            }
        }
        throw new KeyRangerException("Unknown strategy '" + id + "' for the simulation; known: "
                + "linear, fixed, adaptive, oracle.");
    }
}

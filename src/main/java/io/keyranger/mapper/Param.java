package io.keyranger.mapper;

import java.util.List;

/**
 * A template parameter as forms and validation see it.
 *
 * @param name         its JSON name
 * @param type         its type
 * @param description  what it means, for the form
 * @param required     whether it must be given
 * @param defaultValue its default when not given, or null
 * @param choices      allowed values for {@link Type#CHOICE}, else empty
 */
public record Param(String name, Type type, String description, boolean required, Object defaultValue,
                    List<String> choices) {
    /**
     * Parameter types; forms pick their control from it. {@code EXPRESSIONS} is a JSON object of property name to CEL
     * expression; {@code PROPERTIES} a JSON list of property names.
     */
    public enum Type { STRING, INTEGER, NUMBER, BOOLEAN, PROPERTY, KIND, NAMESPACE, VALUE, CHOICE, FILE, EXPRESSIONS,
        PROPERTIES }

    public Param {
        choices = choices == null ? List.of() : List.copyOf(choices);
    }

    /**
     * Whether a spec without it is refused whatever else it holds: the rule the templates' validation applies (and the
     * CLI with it) and the app's form marks beside each empty field. A required {@link Type#VALUE} is not: its
     * template says when it may be left out (set's value, with type null) and refuses it otherwise.
     */
    public boolean mustBeGiven() {
        return required && type != Type.VALUE;
    }

    public static Param required(String name, Type type, String description) {
        return new Param(name, type, description, true, null, List.of());
    }

    public static Param optional(String name, Type type, String description, Object defaultValue) {
        return new Param(name, type, description, false, defaultValue, List.of());
    }

    public static Param choice(String name, String description, String defaultValue, List<String> choices) {
        return new Param(name, Type.CHOICE, description, false, defaultValue, choices);
    }
}

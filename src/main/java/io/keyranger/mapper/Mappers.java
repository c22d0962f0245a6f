package io.keyranger.mapper;

import io.keyranger.KeyRangerException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** The mapper templates KeyRanger knows, by name. */
public final class Mappers {
    private static final Map<String, Function<MapperSpec, PageMapper>> TEMPLATES = new TreeMap<>(Map.of(
            "count", spec -> new CountMapper(),
            "touch", spec -> new TouchMapper()));

    private Mappers() {
    }

    public static PageMapper create(MapperSpec spec) {
        Function<MapperSpec, PageMapper> factory = TEMPLATES.get(spec.template());
        if (factory == null) {
            throw new KeyRangerException("Unknown mapper template '" + spec.template() + "'; known: "
                    + String.join(", ", TEMPLATES.keySet()) + ".");
        }
        return factory.apply(spec);
    }

    public static java.util.Set<String> names() {
        return TEMPLATES.keySet();
    }
}

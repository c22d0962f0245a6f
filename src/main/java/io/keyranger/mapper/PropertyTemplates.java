package io.keyranger.mapper;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.BaseEntity;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import io.keyranger.KeyRangerException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The templates that change one property of each entity: increment, set, remove-property and rename-property. */
final class PropertyTemplates {
    private PropertyTemplates() {
    }

    static final Template INCREMENT = new BaseTemplate("increment",
            "Add an amount to an integer or double property; other entities are skipped and counted.", true, false,
            Param.required("property", Param.Type.PROPERTY, "the property to add to, e.g. balance"),
            Param.required("amount", Param.Type.NUMBER, "the amount to add, e.g. 10 or 2.5"),
            Param.optional("createMissing", Param.Type.BOOLEAN,
                    "set the property to the amount where it is missing", false)) {
        @Override
        public boolean offersBackup() {
            return true;
        }

        @Override
        PageMapper build(SpecReader r) {
            String property = r.property("property");
            Number amount = r.number("amount");
            boolean createMissing = r.bool("createMissing", false);
            return new FunctionMapper(name(), true, true, 1, page -> {
                List<Entity> puts = new ArrayList<>();
                EntitySkips skips = new EntitySkips();
                for (Entity entity : page.entities()) {
                    try {
                        puts.add(Entity.newBuilder(entity).set(property, incremented(entity, property, amount,
                                createMissing)).build());
                    } catch (EntityProblem problem) {
                        skips.add(entity.getKey(), problem.category(), problem.getMessage());
                    }
                }
                return new MapResult(puts, List.of(), skips.count(), skips.addCountersTo(new HashMap<>()), List.of(),
                        skips.problems());
            });
        }
    };

    /**
     * The new value, keeping its type and index setting. An entity it cannot be computed for is that entity's
     * problem, never its range's: a missing property (without createMissing), a value that is not a number, a
     * fractional amount on an integer, an integer that would overflow or a double that would not be finite.
     */
    static Value<?> incremented(BaseEntity<?> entity, String property, Number amount, boolean createMissing) {
        if (!entity.contains(property)) {
            if (!createMissing) {
                throw new EntityProblem("missing property", "no property '" + property + "' (set createMissing to "
                        + "create it)");
            }
            return amount instanceof Long l ? LongValue.of(l) : DoubleValue.of(amount.doubleValue());
        }
        Value<?> current = entity.getValue(property);
        if (current.getType() == ValueType.LONG) {
            if (!(amount instanceof Long l)) {
                throw new EntityProblem("fractional amount on an integer", "'" + property + "' is the integer "
                        + current.get() + " and the amount " + amount + " is not whole");
            }
            try {
                return LongValue.newBuilder(Math.addExact((Long) current.get(), l))
                        .setExcludeFromIndexes(current.excludeFromIndexes()).build();
            } catch (ArithmeticException e) {
                throw new EntityProblem("integer overflow", "'" + property + "' is " + current.get() + "; adding "
                        + l + " would overflow a 64-bit integer");
            }
        }
        if (current.getType() == ValueType.DOUBLE) {
            double next = (Double) current.get() + amount.doubleValue();
            if (!Double.isFinite(next)) {
                throw new EntityProblem("double not finite", "'" + property + "' is " + current.get() + "; adding "
                        + amount + " gives " + next);
            }
            return DoubleValue.newBuilder(next).setExcludeFromIndexes(current.excludeFromIndexes()).build();
        }
        throw new EntityProblem("not a number", "'" + property + "' is a " + current.getType().name().toLowerCase()
                + ", not an integer or a double");
    }

    /** Why one entity cannot be mapped: counted under its category, kept with its detail. */
    static final class EntityProblem extends RuntimeException {
        private final String category;

        EntityProblem(String category, String detail) {
            super(detail, null, false, false);
            this.category = category;
        }

        String category() {
            return category;
        }
    }

    static final Template SET = new BaseTemplate("set", "Set a property to a typed value, indexed or not.", true, true,
            Param.required("property", Param.Type.PROPERTY, "the property to set"),
            Param.choice("type", "the value's type", "string",
                    List.of("string", "integer", "double", "boolean", "timestamp", "null")),
            Param.required("value", Param.Type.VALUE, "the value (ignored for null)"),
            Param.optional("indexed", Param.Type.BOOLEAN, "whether the property is indexed", true)) {
        @Override
        PageMapper build(SpecReader r) {
            String property = r.property("property");
            String type = r.string("type", inferType(r.node("value")));
            Value<?> value = typedValue(r, type, r.node("value"), r.bool("indexed", true));
            return new FunctionMapper(name(), true, true, 1, page -> new MapResult(page.entities().stream()
                    .map(e -> Entity.newBuilder(e).set(property, value).build()).toList(), List.of(), 0, Map.of()));
        }
    };

    private static String inferType(JsonNode value) {
        if (value == null || value.isNull()) {
            return "null";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        return value.isNumber() ? "double" : "string";
    }

    private static Value<?> typedValue(SpecReader r, String type, JsonNode value, boolean indexed) {
        try {
            Value<?> plain = switch (type) {
                case "null" -> NullValue.of();
                case "string" -> StringValue.of(requireValue(r, value).asText());
                case "integer" -> {
                    JsonNode v = requireValue(r, value);
                    if (!v.canConvertToExactIntegral() && !v.asText().matches("-?\\d+")) {
                        throw r.error("value", "must be a whole number for type integer (got " + v + ")");
                    }
                    yield LongValue.of(v.isNumber() ? v.asLong() : Long.parseLong(v.asText()));
                }
                case "double" -> {
                    JsonNode v = requireValue(r, value);
                    yield DoubleValue.of(v.isNumber() ? v.asDouble() : Double.parseDouble(v.asText()));
                }
                case "boolean" -> {
                    JsonNode v = requireValue(r, value);
                    if (!v.isBoolean() && !v.asText().matches("true|false")) {
                        throw r.error("value", "must be true or false for type boolean (got " + v + ")");
                    }
                    yield BooleanValue.of(v.isBoolean() ? v.asBoolean() : Boolean.parseBoolean(v.asText()));
                }
                case "timestamp" -> TimestampValue.of(Timestamp.parseTimestamp(
                        requireValue(r, value).asText()));
                default -> throw r.error("type", "must be one of string, integer, double, boolean, timestamp, null "
                        + "(got '" + type + "')");
            };
            return indexed ? plain : plain.toBuilder().setExcludeFromIndexes(true).build();
        } catch (KeyRangerException e) {
            throw e;
        } catch (RuntimeException e) { // number and timestamp parsers
            throw r.error("value", "cannot be read as " + type + " (" + e.getMessage() + ")");
        }
    }

    private static JsonNode requireValue(SpecReader r, JsonNode value) {
        if (value == null || value.isNull()) {
            throw r.error("value", "is required unless type is null");
        }
        return value;
    }

    static final Template REMOVE_PROPERTY = new BaseTemplate("remove-property", "Remove a property where it is present.",
            true, true, Param.required("property", Param.Type.PROPERTY, "the property to remove")) {
        @Override
        PageMapper build(SpecReader r) {
            String property = r.property("property");
            return new FunctionMapper(name(), true, true, 1, page -> {
                List<Entity> puts = page.entities().stream().filter(e -> e.contains(property))
                        .map(e -> Entity.newBuilder(e).remove(property).build()).toList();
                return new MapResult(puts, List.of(), page.entities().size() - puts.size(), Map.of());
            });
        }
    };

    static final Template RENAME_PROPERTY = new BaseTemplate("rename-property",
            "Rename a property, keeping its value, type and index setting.", true, true,
            Param.required("from", Param.Type.PROPERTY, "the current name"),
            Param.required("to", Param.Type.PROPERTY, "the new name"),
            Param.optional("overwrite", Param.Type.BOOLEAN, "replace an existing value under the new name", false)) {
        @Override
        PageMapper build(SpecReader r) {
            String from = r.property("from");
            String to = r.property("to");
            boolean overwrite = r.bool("overwrite", false);
            if (from.equals(to)) {
                throw r.error("to", "must differ from 'from'");
            }
            return new FunctionMapper(name(), true, true, 1, page -> {
                List<Entity> puts = new ArrayList<>();
                for (Entity e : page.entities()) {
                    if (e.contains(from) && (overwrite || !e.contains(to))) {
                        puts.add(Entity.newBuilder(e).set(to, (Value<?>) e.getValue(from)).remove(from).build());
                    }
                }
                return new MapResult(puts, List.of(), page.entities().size() - puts.size(), Map.of());
            });
        }
    };
}

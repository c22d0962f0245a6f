package io.keyranger.mapper.cel;

import com.google.cloud.datastore.BaseEntity;
import com.google.cloud.datastore.Value;
import com.google.cloud.datastore.ValueType;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import io.keyranger.datastore.PropertyInfo;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The types expressions are checked against. {@link #unknown()} (a job, which does not read the kind's metadata)
 * declares every property an expression names as {@code dyn}, so only evaluation finds a wrong type, entity by entity.
 * {@link #of} (a dry run) declares the kind's properties with their types, so that {@code balance * 'x'} or a
 * property the kind does not have is an error before anything is written. A property with several types, or one
 * that is sometimes null, is {@code dyn}.
 */
public final class PropertyTypes {
    private static final CelType ANY_MAP = MapType.create(SimpleType.STRING, SimpleType.DYN);
    private static final PropertyTypes UNKNOWN = new PropertyTypes(null);

    private final Map<String, CelType> types;

    private PropertyTypes(Map<String, CelType> types) {
        this.types = types;
    }

    /** No knowledge of the kind: every named property is {@code dyn}. */
    public static PropertyTypes unknown() {
        return UNKNOWN;
    }

    /**
     * The kind's properties: those its metadata reports ({@code __property__}: indexed properties, with the element
     * types of lists) and those met in {@code sample} (unindexed ones too), typed by both.
     */
    public static PropertyTypes of(List<PropertyInfo> properties, List<? extends BaseEntity<?>> sample) {
        Map<String, Set<CelType>> seen = new HashMap<>();
        Map<String, Boolean> alwaysList = new HashMap<>();
        for (BaseEntity<?> entity : sample) {
            for (String name : entity.getNames()) {
                Value<?> value = entity.getValue(name);
                seen.computeIfAbsent(name, n -> new HashSet<>()).add(typeOf(value));
                alwaysList.merge(name, value.getType() == ValueType.LIST, Boolean::logicalAnd);
            }
        }
        Map<String, CelType> types = new HashMap<>();
        for (PropertyInfo property : properties) {
            CelType declared = property.types().size() == 1 ? typeOf(property.types().get(0)) : SimpleType.DYN;
            Set<CelType> sampled = seen.getOrDefault(property.name(), Set.of());
            if (Boolean.TRUE.equals(alwaysList.get(property.name()))) {
                declared = ListType.create(declared);
            } else if (sampled.size() > 1 || sampled.stream().anyMatch(t -> !t.equals(scalar(t)))) {
                declared = SimpleType.DYN; // sometimes a list, null or an embedded entity
            }
            types.put(property.name(), declared);
        }
        seen.forEach((name, sampled) -> types.computeIfAbsent(name,
                n -> sampled.size() == 1 ? sampled.iterator().next() : SimpleType.DYN));
        return new PropertyTypes(types);
    }

    /** Whether the kind's properties are known (a dry run) rather than assumed (a job). */
    public boolean known() {
        return types != null;
    }

    /** The declared type of a property; empty when the kind has no such property (known) or dyn (unknown). */
    Optional<CelType> type(String name) {
        return types == null ? Optional.of(SimpleType.DYN) : Optional.ofNullable(types.get(name));
    }

    private static CelType scalar(CelType type) {
        return type instanceof ListType || type.equals(ANY_MAP) || type.equals(SimpleType.NULL_TYPE) ? SimpleType.DYN
                : type;
    }

    private static CelType typeOf(Value<?> value) {
        return switch (value.getType()) {
            case LONG -> SimpleType.INT;
            case DOUBLE -> SimpleType.DOUBLE;
            case STRING -> SimpleType.STRING;
            case BOOLEAN -> SimpleType.BOOL;
            case TIMESTAMP -> SimpleType.TIMESTAMP;
            case BLOB -> SimpleType.BYTES;
            case NULL -> SimpleType.NULL_TYPE;
            case LIST -> ListType.create(SimpleType.DYN);
            case KEY, ENTITY, LAT_LNG -> ANY_MAP;
            default -> SimpleType.DYN;
        };
    }

    /** A type as {@link PropertyInfo} names it. */
    private static CelType typeOf(String readable) {
        return switch (readable) {
            case "integer" -> SimpleType.INT;
            case "double" -> SimpleType.DOUBLE;
            case "string" -> SimpleType.STRING;
            case "boolean" -> SimpleType.BOOL;
            case "timestamp" -> SimpleType.TIMESTAMP;
            case "blob" -> SimpleType.BYTES;
            case "key", "geo point" -> ANY_MAP;
            default -> SimpleType.DYN; // ambiguous ("integer/timestamp"), null, or anything else
        };
    }
}

package io.keyranger.mapper;

import io.keyranger.mapper.cel.EntityExpression;
import io.keyranger.mapper.cel.ExpressionCompiler;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code transform} template: {@code set} properties to CEL expressions over the entity, {@code remove} others.
 * Not idempotent ({@code balance * 2}), so it relies on the executor's exactly-once commits.
 */
final class TransformTemplate extends BaseTemplate {
    TransformTemplate() {
        super("transform", "Set properties to CEL expressions over each entity and remove others.", true, false,
                Param.optional("set", Param.Type.EXPRESSIONS, "property to CEL expression, e.g. "
                        + "{\"balance\": \"balance * 2\"}; expressions read the entity as it was", null),
                Param.optional("remove", Param.Type.PROPERTIES, "properties to remove, e.g. [\"legacy\"]", null),
                Param.optional("unindexed", Param.Type.PROPERTIES, "properties to write excluded from indexes "
                        + "(otherwise a replaced value keeps its setting, a new one is indexed)", null));
    }

    @Override
    public boolean offersBackup() {
        return true;
    }

    @Override
    PageMapper build(SpecReader r) {
        Map<String, String> sources = r.expressions("set");
        List<String> remove = r.properties("remove");
        List<String> unindexed = r.properties("unindexed");
        if (sources.isEmpty() && remove.isEmpty()) {
            throw r.error("set", "or 'remove' must name at least one property");
        }
        for (String property : remove) {
            if (sources.containsKey(property)) {
                throw r.error("remove", "lists '" + property + "', which 'set' sets too");
            }
        }
        for (String property : unindexed) {
            if (!sources.containsKey(property)) {
                throw r.error("unindexed", "lists '" + property + "', which 'set' does not set");
            }
        }
        Map<String, EntityExpression> set = new LinkedHashMap<>();
        sources.forEach((property, source) -> set.put(property, ExpressionCompiler.compile("set." + property, source,
                r.types(), ExpressionCompiler.Result.ANY)));
        return new TransformMapper(set, List.copyOf(remove), new HashSet<>(unindexed));
    }
}

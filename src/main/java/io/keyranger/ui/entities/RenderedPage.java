package io.keyranger.ui.entities;

import com.google.cloud.datastore.Entity;
import io.keyranger.datastore.EntityJson;
import io.keyranger.datastore.EntityPage;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A page of entities with the texts the Entities tab shows for it (each property's cell text, and the JSON of the
 * first entity, which is selected when the page shows), rendered on the thread that read the page. Rendering them on
 * the FX thread, cell by cell as the table filled and sized its columns, was part of a 61-76 ms pulse when a page
 * arrived during a job (RunTabResponsivenessBenchmark). Any other entity's JSON, and the texts of an entity not in
 * the page, are rendered when asked for.
 *
 * @param page       the page as read
 * @param renderings each entity of the page (by identity) to its texts
 */
record RenderedPage(EntityPage page, Map<Entity, Rendering> renderings) {
    static final RenderedPage EMPTY = new RenderedPage(null, Map.of());

    /** One entity's cell text per property, and its JSON if it was rendered ahead (null otherwise). */
    record Rendering(Map<String, String> cells, String json) {
    }

    /** Renders every entity's cells and the first one's JSON; call it off the FX thread. */
    static RenderedPage of(EntityPage page) {
        Map<Entity, Rendering> renderings = new IdentityHashMap<>();
        for (Entity entity : page.entities()) {
            Map<String, String> cells = new HashMap<>();
            entity.getNames().forEach(name -> cells.put(name, EntityJson.cell(entity.getValue(name))));
            renderings.put(entity, new Rendering(cells, renderings.isEmpty() ? EntityJson.toPrettyJson(entity) : null));
        }
        return new RenderedPage(page, Collections.unmodifiableMap(renderings));
    }

    /** The entity's property as a table cell shows it; empty if the entity has no such property. */
    String cell(Entity entity, String property) {
        Rendering rendering = renderings.get(entity);
        if (rendering != null) {
            return rendering.cells().getOrDefault(property, "");
        }
        return entity.contains(property) ? EntityJson.cell(entity.getValue(property)) : "";
    }

    /** The entity as pretty JSON. */
    String json(Entity entity) {
        Rendering rendering = renderings.get(entity);
        return rendering != null && rendering.json() != null ? rendering.json() : EntityJson.toPrettyJson(entity);
    }
}

package io.keyranger.mapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyOrder;
import io.keyranger.query.Gql;
import io.keyranger.query.JobQuery;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A mapper as JSON: {@code {"template": NAME, ...parameters, "where": ...}}. {@code where} is either a list of
 * equality filters, {@code [{"property": P, "value": V}]}, that the server applies (JSON types give the value's
 * type; whole numbers are integers), or a CEL expression as a string, {@code "has(balance) && tier != 'closed'"},
 * that KeyRanger evaluates on each entity it reads.
 *
 * @param template        the template name
 * @param json            the whole spec, for the template's own parameters
 * @param where           the equality filters; empty when where is an expression
 * @param whereExpression the where expression, or null when where is absent or a list of filters
 * @param query           the GQL query the job runs over ({@code "gql"}), or null for the whole kind
 */
public record MapperSpec(String template, ObjectNode json, List<PropertyFilter> where, String whereExpression,
                         JobQuery query) {
    /** An import's or a restore's spec field: skip the lines of its file that are not exported entities. */
    public static final String SKIP_BAD_LINES = "skipBadLines";
    /**
     * A job's spec field: the moment (RFC 3339) every page of a job that only reads is read at, fixed when the job is
     * created so that a resumed run, on any runner, reads the same snapshot.
     */
    public static final String READ_TIME = "readTime";

    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** The project KEY(...) literals name until {@link #bind} says which project the job runs in. */
    static final String UNBOUND_PROJECT = "keyranger-unbound";

    public MapperSpec {
        where = List.copyOf(where);
    }

    public MapperSpec(String template, ObjectNode json, List<PropertyFilter> where) {
        this(template, json, where, null, null);
    }

    /**
     * The filters every range query carries: the spec's equality filters and those of its GQL query the server can
     * apply beside a key range.
     */
    @Override
    public List<PropertyFilter> where() {
        if (query == null) {
            return where;
        }
        List<PropertyFilter> all = new ArrayList<>(where);
        all.addAll(query.serverFilters());
        return List.copyOf(all);
    }

    /**
     * Whether a writing job keeps what it changes so that it can be reverted: yes, unless the spec says
     * {@code "undo": false} (the command line's {@code --no-undo}).
     */
    public boolean undo() {
        JsonNode undo = json.get("undo");
        return undo == null || !undo.isBoolean() || undo.asBoolean();
    }

    /**
     * This spec (an import's or a restore's) skipping the lines of its file that are not exported entities, each
     * counted, instead of refusing the file.
     */
    public MapperSpec withSkipBadLines() {
        return parse(json.deepCopy().put(SKIP_BAD_LINES, true).toString());
    }

    /**
     * The value of {@link #READ_TIME} of a job that only reads and reads live data page by page rather than one
     * snapshot ({@code run --no-snapshot}): what a job longer than the server keeps versions must do.
     */
    public static final String LIVE = "live";

    /** The moment every read of the job asks for ({@link #READ_TIME}), or null for a job that reads live data. */
    public Instant readTime() {
        JsonNode time = json.get(READ_TIME);
        if (time == null || time.isNull() || readsLive()) {
            return null;
        }
        try {
            return Instant.parse(time.asText());
        } catch (DateTimeParseException e) {
            throw new KeyRangerException("\"" + READ_TIME + "\" must be an RFC 3339 time such as "
                    + "2026-11-27T10:15:00Z (got '" + time.asText() + "').");
        }
    }

    /** Whether the spec asks to read live data, page by page, instead of one snapshot ({@link #LIVE}). */
    public boolean readsLive() {
        return LIVE.equals(json.path(READ_TIME).asText());
    }

    /** This spec reading live data page by page, never stamped with a snapshot's moment ({@link #LIVE}). */
    public MapperSpec withLiveReads() {
        return parse(json.deepCopy().put(READ_TIME, LIVE).toString());
    }

    /** This spec reading the database as it was at {@code time} ({@link #READ_TIME}). */
    public MapperSpec withReadTime(Instant time) {
        return parse(json.deepCopy().put(READ_TIME, time.toString()).toString());
    }

    /** This spec with undo turned off. */
    public MapperSpec withoutUndo() {
        return parse(json.deepCopy().put("undo", false).toString());
    }

    /** The GQL the spec's {@code "gql"} field holds, or null. */
    public String gql() {
        return query == null ? null : query.query().text();
    }

    /**
     * This spec for a job in this project and namespace on a server with this key order: KEY(...) literals of its
     * query belong to them, and the conditions applied on the client compare as that server does.
     */
    public MapperSpec bind(String projectId, String namespace, KeyOrder order) {
        if (query == null) {
            return this;
        }
        return new MapperSpec(template, json, where, whereExpression, JobQuery.of(Gql.parse(query.query().text(), projectId, namespace),
                order));
    }

    /** The same mapper over a GQL query (null to remove it); the query is checked as a job's input. */
    public MapperSpec withGql(String gql) {
        ObjectNode copy = json.deepCopy();
        if (gql == null) {
            copy.remove("gql");
        } else {
            copy.put("gql", gql);
        }
        return parse(copy.toString());
    }

    /**
     * Reads and validates a spec file (its template and parameters), with the messages the CLI, the app and the Beam
     * runner all give.
     */
    public static MapperSpec read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new KeyRangerException("Mapper file not found: " + file);
        } catch (IOException e) {
            throw new KeyRangerException("Cannot read the mapper file " + file + ": " + e.getMessage());
        }
        MapperSpec spec = parse(text);
        Mappers.validate(spec);
        return spec;
    }

    public static MapperSpec parse(String text) {
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new KeyRangerException("The mapper spec is not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ").");
        }
        if (root == null || !root.isObject()) {
            throw new KeyRangerException("The mapper spec must be a JSON object such as {\"template\": \"count\"}.");
        }
        JsonNode template = root.get("template");
        if (template == null || !template.isTextual() || template.asText().isBlank()) {
            throw new KeyRangerException("The mapper spec needs a \"template\" name, e.g. {\"template\": \"count\"}.");
        }
        JsonNode where = root.get("where");
        JobQuery query = query(root.get("gql"));
        if (where != null && where.isTextual()) {
            if (where.asText().isBlank()) {
                throw new KeyRangerException("\"where\" is empty: give a CEL expression such as \"tier == 'pro'\", "
                        + "or leave it out.");
            }
            return new MapperSpec(template.asText(), (ObjectNode) root, List.of(), where.asText(), query);
        }
        return new MapperSpec(template.asText(), (ObjectNode) root, where(where), null, query);
    }

    private static JobQuery query(JsonNode gql) {
        if (gql == null || gql.isNull()) {
            return null;
        }
        if (!gql.isTextual()) {
            throw new KeyRangerException("\"gql\" must be a query string, e.g. \"SELECT * FROM Account WHERE tier = 'pro'\".");
        }
        return JobQuery.of(Gql.parse(gql.asText(), UNBOUND_PROJECT, ""), KeyOrder.PRODUCTION);
    }

    private static List<PropertyFilter> where(JsonNode where) {
        List<PropertyFilter> filters = new ArrayList<>();
        if (where == null || where.isNull()) {
            return filters;
        }
        if (!where.isArray()) {
            throw new KeyRangerException("\"where\" must be a list of {\"property\": P, \"value\": V} or a CEL "
                    + "expression as a string, e.g. \"has(balance) && tier != 'closed'\".");
        }
        for (JsonNode clause : where) {
            JsonNode property = clause.get("property");
            if (property == null || !property.isTextual() || !clause.has("value")) {
                throw new KeyRangerException("Each \"where\" entry needs \"property\" and \"value\": " + clause);
            }
            filters.add(equality(property.asText(), clause.get("value")));
        }
        return filters;
    }

    private static PropertyFilter equality(String property, JsonNode value) {
        if (value.isNull()) {
            return PropertyFilter.isNull(property);
        }
        if (value.isBoolean()) {
            return PropertyFilter.eq(property, value.asBoolean());
        }
        if (value.isIntegralNumber()) {
            return PropertyFilter.eq(property, value.asLong());
        }
        if (value.isNumber()) {
            return PropertyFilter.eq(property, value.asDouble());
        }
        if (value.isTextual()) {
            return PropertyFilter.eq(property, value.asText());
        }
        throw new KeyRangerException("The value of \"where\" on '" + property + "' must be a string, number, boolean "
                + "or null.");
    }

    public String toJson() {
        return json.toString();
    }
}

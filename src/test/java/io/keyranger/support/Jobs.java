package io.keyranger.support;

import io.keyranger.job.JobIds;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.keyranger.job.JobSpec;
import io.keyranger.mapper.MapperSpec;

/**
 * A job spec for tests, with small defaults (2 shards, 2 workers, pages of 20, no rate limit) and the mapper written
 * as template and parameters, not as hand-joined JSON:
 * {@code Jobs.over("Doc").id("credit").mapper("increment", "property", "n", "amount", 1).pageSize(10).spec()}.
 */
public final class Jobs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String kind;
    private String id;
    private String namespace = "";
    private ObjectNode mapper = JSON.createObjectNode().put("template", "count");
    private int shards = 2;
    private int workers = 2;
    private int pageSize = 20;
    private int qps;

    private Jobs(String kind) {
        this.kind = kind;
        this.id = JobIds.newJobId(kind);
    }

    /** A count over {@code kind} with a fresh job id, until told otherwise. */
    public static Jobs over(String kind) {
        return new Jobs(kind);
    }

    public Jobs id(String value) {
        this.id = value;
        return this;
    }

    public Jobs namespace(String value) {
        this.namespace = value;
        return this;
    }

    /** The template and its parameters as name, value pairs. */
    public Jobs mapper(String template, Object... params) {
        ObjectNode node = JSON.createObjectNode().put("template", template);
        for (int i = 0; i + 1 < params.length; i += 2) {
            node.set((String) params[i], JSON.valueToTree(params[i + 1]));
        }
        this.mapper = node;
        return this;
    }

    /** Adds an equality filter on {@code property}. */
    public Jobs where(String property, Object value) {
        ObjectNode clause = JSON.createObjectNode().put("property", property);
        clause.set("value", JSON.valueToTree(value));
        (mapper.has("where") ? (ArrayNode) mapper.get("where")
                : mapper.putArray("where")).add(clause);
        return this;
    }

    public Jobs shards(int value) {
        this.shards = value;
        return this;
    }

    public Jobs workers(int value) {
        this.workers = value;
        return this;
    }

    public Jobs pageSize(int value) {
        this.pageSize = value;
        return this;
    }

    public Jobs qps(int value) {
        this.qps = value;
        return this;
    }

    public MapperSpec mapperSpec() {
        return MapperSpec.parse(mapper.toString());
    }

    public JobSpec spec() {
        return new JobSpec(id, namespace, kind, mapperSpec(), shards, workers, pageSize, qps);
    }
}

package io.keyranger.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionRules;
import io.keyranger.job.JobSpec;
import io.keyranger.launch.JobRequest;
import io.keyranger.mapper.MapperSpec;
import io.keyranger.mapper.Mappers;
import io.keyranger.mapper.Template;
import java.util.ArrayList;
import java.util.List;

/**
 * One step of a migration: a job as {@code run} takes it, over one kind ({@code "kind"}), several kinds one after
 * another ({@code "kinds"}) or what a GQL query selects ({@code "gql"}), in a namespace, with a mapper spec of any
 * template.
 *
 * @param namespace the namespace it runs in ("" for the default one)
 * @param kinds     the kinds it runs over: one, or several (a group); empty for a query
 * @param gql       the query whose entities it maps, or null
 * @param mapper    the mapper spec, checked by its template
 */
public record MigrationStep(String namespace, List<String> kinds, String gql, MapperSpec mapper) {
    public MigrationStep {
        kinds = List.copyOf(kinds);
    }

    /** The step {@code json} names, refused with {@code where} ("0002_fill.json, step 1") in a message. */
    static MigrationStep parse(JsonNode json, String where) {
        if (!json.isObject()) {
            throw new KeyRangerException(where + ": a step is an object such as {\"kind\": \"Item\", \"mapper\": "
                    + "{\"template\": \"set\", ...}}.");
        }
        int targets = (json.has("kind") ? 1 : 0) + (json.has("kinds") ? 1 : 0) + (json.has("gql") ? 1 : 0);
        if (targets != 1) {
            throw new KeyRangerException(where + ": give exactly one of \"kind\", \"kinds\" or \"gql\".");
        }
        List<String> kinds = new ArrayList<>();
        if (json.has("kind")) {
            kinds.add(json.get("kind").asText());
        } else if (json.has("kinds")) {
            json.get("kinds").forEach(k -> kinds.add(k.asText()));
            if (kinds.isEmpty()) {
                throw new KeyRangerException(where + ": \"kinds\" names at least one kind.");
            }
        }
        for (String kind : kinds) {
            try {
                ConnectionRules.kind(kind);
            } catch (KeyRangerException e) {
                throw new KeyRangerException(where + ": " + e.getMessage());
            }
        }
        if (!json.has("mapper") || !json.get("mapper").isObject()) {
            throw new KeyRangerException(where + ": \"mapper\" is required: a mapper spec as --mapper takes it, "
                    + "e.g. {\"template\": \"transform\", \"set\": {\"score\": \"v % 100\"}}.");
        }
        MapperSpec mapper;
        try {
            mapper = MapperSpec.parse(json.get("mapper").toString());
            String gql = json.hasNonNull("gql") ? json.get("gql").asText() : null;
            if (gql != null) {
                mapper = mapper.withGql(gql);
            }
            Mappers.template(mapper.template()).validate(mapper);
        } catch (KeyRangerException e) {
            throw new KeyRangerException(where + ": " + e.getMessage());
        }
        if (kinds.size() > 1 && Mappers.template(mapper.template()).source() != Template.Source.KEY_RANGES) {
            throw new KeyRangerException(where + ": '" + mapper.template() + "' reads a file into one kind: give "
                    + "one \"kind\".");
        }
        String gql = json.hasNonNull("gql") ? json.get("gql").asText() : null;
        return new MigrationStep(json.path("namespace").asText(""), kinds, gql, mapper);
    }

    /** The kind its job names: the one kind, the query's, or "(kinds)" for a group. */
    public String kind() {
        return gql != null ? mapper.query().kind() : kinds.size() == 1 ? kinds.get(0) : String.join(",", kinds);
    }

    /** Whether it runs over several kinds, one after another (one job of a group id). */
    public boolean group() {
        return kinds.size() > 1;
    }

    /** Its job as {@code jobId}, sized as {@code size} says. */
    public JobSpec job(String jobId, Sizes size) {
        return new JobSpec(jobId, namespace, kind(), mapper, size.shards(), size.workers(), size.pageSize(),
                size.qps());
    }

    /** The request that starts its job as {@code jobId}. */
    public JobRequest.NewJob request(String jobId, Sizes size) {
        JobSpec spec = job(jobId, size);
        return group() ? JobRequest.overKinds(spec, kinds) : JobRequest.job(spec);
    }

    /** What it does, in words: "transform over Item", "set over SELECT * FROM ...". */
    public String describe() {
        return mapper.template() + " over " + (gql != null ? gql : String.join(", ", kinds))
                + (namespace.isEmpty() ? "" : " in namespace " + namespace);
    }

    /** How a migration's jobs are sized (the usual job options). */
    public record Sizes(int shards, int workers, int pageSize, int qps) {
        public static final Sizes DEFAULT = new Sizes(16, 8, 200, 0);
    }
}

package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.IncompleteKey;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the codec puts keys, and what files written before it kept meanings and key projects still give. */
class EntityCodecTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Entity decode(String line, String project) throws Exception {
        return EntityCodec.decode(JSON.readTree(line), project, "");
    }

    /** A line written by hand, whose keys name no project: they all go to the target, the entity's and its values'. */
    @Test
    void aHandWrittenLineWhoseKeysNameNoProjectPutsThemAllInTheTarget() throws Exception {
        Entity e = decode("{\"key\":{\"path\":[{\"kind\":\"A\",\"name\":\"a\"}]},\"properties\":{"
                + "\"ref\":{\"type\":\"key\",\"value\":{\"partitionId\":{\"namespaceId\":\"n\"},\"path\":[{\"kind\":\"B\","
                + "\"id\":\"7\"}]}},\"s\":{\"type\":\"string\",\"value\":\"x\",\"excludeFromIndexes\":true}}}", "t");
        assertThat(e.getKey()).isEqualTo(Key.newBuilder("t", "A", "a").build());
        assertThat(e.getKey("ref")).isEqualTo(Key.newBuilder("t", "B", 7).setNamespace("n").build());
        assertThat((Object) e.getValue("s")).isEqualTo(StringValue.newBuilder("x").setExcludeFromIndexes(true).build());
        assertThat(EntityCodec.meaning(e.getValue("s"))).isZero();
    }

    /**
     * A line exactly as KeyRanger wrote it before it kept meanings (commit 9f8f86d: every key with its projectId, an
     * indexed and an unindexed key value into the source project). Into that project it comes back as written; into
     * another, as Google's :import places it: the indexed key value moves, the unindexed one still points at staging.
     */
    @Test
    void anOlderLineImportedIntoAnotherProjectMovesOnlyTheKeysReachedThroughIndexedValues() throws Exception {
        String line = "{\"key\":{\"partitionId\":{\"projectId\":\"staging\",\"namespaceId\":\"\"},\"path\":[{\"kind\":"
                + "\"A\",\"name\":\"a\"}]},\"properties\":{\"owner\":{\"type\":\"key\",\"value\":{\"partitionId\":"
                + "{\"projectId\":\"staging\",\"namespaceId\":\"\"},\"path\":[{\"kind\":\"Customer\",\"name\":\"c1\"}]}},"
                + "\"previous\":{\"type\":\"key\",\"value\":{\"partitionId\":{\"projectId\":\"staging\",\"namespaceId\":"
                + "\"\"},\"path\":[{\"kind\":\"Customer\",\"name\":\"c0\"}]},\"excludeFromIndexes\":true},\"s\":{\"type\":"
                + "\"string\",\"value\":\"x\",\"excludeFromIndexes\":true}}}";

        Entity same = decode(line, "staging");
        assertThat(EntityCodec.encode(same).toString()).as("read and written back unchanged").isEqualTo(line);
        assertThat(same.getKey("owner")).isEqualTo(Key.newBuilder("staging", "Customer", "c1").build());
        assertThat(same.getKey("previous")).isEqualTo(Key.newBuilder("staging", "Customer", "c0").build());

        Entity prod = decode(line, "prod");
        assertThat(prod.getKey()).isEqualTo(Key.newBuilder("prod", "A", "a").build());
        assertThat(prod.getKey("owner")).as("indexed: moved, as :import moves it")
                .isEqualTo(Key.newBuilder("prod", "Customer", "c1").build());
        assertThat(prod.getKey("previous")).as("unindexed: still staging's, as :import keeps it")
                .isEqualTo(Key.newBuilder("staging", "Customer", "c0").build());
        assertThat(prod.getValue("previous").excludeFromIndexes()).isTrue();
    }

    @Test
    @SuppressWarnings("deprecation") // meaning: deprecated in the client, kept by Datastore
    void withinItsOwnProjectAnEntityKeepsEveryKeyAndMeaningAsItWas() throws Exception {
        Key other = Key.newBuilder("third", "C", "c").setNamespace("x").build();
        Entity source = Entity.newBuilder(Key.newBuilder("p", "A", "a").build())
                .set("other", other)
                .set("text", StringValue.newBuilder("t").setMeaning(15).setExcludeFromIndexes(true).build())
                .set("anon", EntityValue.of(FullEntity.newBuilder(IncompleteKey.newBuilder("p", "Addr").build())
                        .set("s", "v").build()))
                .set("anonRaw", EntityValue.newBuilder(FullEntity.newBuilder(IncompleteKey.newBuilder("p", "Addr")
                        .build()).set("s", "v").build()).setExcludeFromIndexes(true).build())
                .build();
        String line = EntityCodec.encode(source).toString();
        assertThat(decode(line, "p")).isEqualTo(source);
        assertThat(EntityCodec.meaning(decode(line, "p").getValue("text"))).isEqualTo(15);
        assertThat((Object) EntityCodec.decodeValue(EntityCodec.encodeValue(source.getValue("other")), "p", ""))
                .as("a single value keeps the project it names").isEqualTo(source.getValue("other"));

        Entity moved = decode(line, "q");
        assertThat(moved.getKey().getProjectId()).isEqualTo("q");
        assertThat(moved.getKey("other")).as("into another project, as Google's :import")
                .isEqualTo(Key.newBuilder("q", "C", "c").setNamespace("x").build());
        assertThat(moved.getEntity("anon").getKey()).as("an indexed embedded key moves, as there")
                .isEqualTo(IncompleteKey.newBuilder("q", "Addr").build());
        assertThat(moved.getEntity("anonRaw").getKey()).as("an unindexed embedded key keeps its project, as there")
                .isEqualTo(IncompleteKey.newBuilder("p", "Addr").build());
    }

    /** An export's line is the entity's tree as text, and reads back as the entity: one form, two ways to hold it. */
    @Test
    void anEntityAsALineIsItsTreeAsText() throws Exception {
        Key child = Key.newBuilder("p", "B", 7).addAncestor(PathElement.of("A", "root")).setNamespace("ns")
                .setDatabaseId("db").build();
        Entity entity = Entity.newBuilder(Key.newBuilder("p", "A", "a\"\u00e9").build())
                .set("d", 0.1).set("inf", Double.POSITIVE_INFINITY).set("k", child).set("n", Long.MAX_VALUE)
                .set("geo", LatLng.of(1.5, -2.25)).set("e", EntityValue.of(FullEntity.newBuilder().set("x", true)
                        .build()))
                .set("list", ListValue.of(List.of(NullValue.of(), StringValue.of("s"))))
                .set("text", StringValue.newBuilder("t").setExcludeFromIndexes(true).setMeaning(15).build())
                .build();

        String line = EntityCodec.line(entity);

        assertThat(line).isEqualTo(EntityCodec.encode(entity).toString());
        assertThat(decode(line, "p")).isEqualTo(entity);
    }
}

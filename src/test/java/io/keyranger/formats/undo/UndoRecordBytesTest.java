package io.keyranger.formats.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Undo records are kept for the retention time, so what a record holds must read the same whichever build wrote it: a
 * batch record as the tree-building encoder wrote it (before records were written as a stream; kept in
 * {@code batch-record-2026-11.b64}) still gives back its images, and today's encoder writes the same JSON.
 */
class UndoRecordBytesTest {
    private static final Key LEDGER = Key.newBuilder("p", "_KeyRangerLedger", "cell").build();
    private static final String GOLDEN = "batch-record-2026-11.b64";

    /** Images of every kind of value, in created, changed, emptied and deleted entities, keys in every partition. */
    static List<UndoImage> images() {
        byte[] random = new byte[300];
        new Random(11).nextBytes(random);
        Key plain = Key.newBuilder("p", "A", "plain").build();
        Key child = Key.newBuilder("p", "B", 7).addAncestor(PathElement.of("A", "root")).setNamespace("ns").build();
        Key elsewhere = Key.newBuilder("other", "C", "x\u00e9\"q").setDatabaseId("db").setNamespace("n2").build();
        Entity rich = Entity.newBuilder(plain).set("i", Long.MIN_VALUE).set("d", 0.1).set("b", true)
                .set("s", "\u00e9\u4e2d\n\"y\"").set("k", child).set("far", elsewhere).set("blob", Blob.copyFrom(random))
                .set("t", Timestamp.ofTimeSecondsAndNanos(1_700_000_000L, 123_456_789))
                .set("geo", LatLng.of(51.5, -0.12))
                .set("nan", DoubleValue.of(Double.NaN)).set("inf", Double.NEGATIVE_INFINITY).set("whole", 3.0)
                .set("e", EntityValue.of(FullEntity.newBuilder(child).set("x", 1L).build()))
                .set("anonymous", FullEntity.newBuilder().set("y", "z").build())
                .set("list", ListValue.of(List.of(LongValue.of(1), StringValue.of("two"), NullValue.of())))
                .set("empty", ListValue.of(List.of()))
                .set("nothing", NullValue.of())
                .set("text", StringValue.newBuilder("long").setExcludeFromIndexes(true).setMeaning(15).build())
                .set("u", BlobValue.newBuilder(Blob.copyFrom(random)).setExcludeFromIndexes(true).setMeaning(22)
                        .build())
                .build();
        Entity small = Entity.newBuilder(child).set("n", 0L).set("b", false).build();
        Key quoted = Key.newBuilder("p", "C", "x\u00e9\"q").setNamespace("n2").build();
        Entity far = Entity.newBuilder(quoted).set("n", 1L).set("to", elsewhere).build();
        return List.of(
                new UndoImage(plain, rich, Entity.newBuilder(rich).set("i", 1L).remove("geo").set("new", "v").build()),
                new UndoImage(child, null, small),
                new UndoImage(quoted, far, null),
                new UndoImage(child, small, Entity.newBuilder(child).build()),
                new UndoImage(plain, rich, rich));
    }

    private static Entity golden() throws IOException {
        try (InputStream in = UndoRecordBytesTest.class.getResourceAsStream(GOLDEN)) {
            byte[] blob = Base64.getMimeDecoder().decode(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
            List<UndoImage> images = images();
            Entity shape = UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, Long.MAX_VALUE).get(0).record();
            return Entity.newBuilder(shape).set("images", BlobValue.newBuilder(Blob.copyFrom(blob))
                    .setExcludeFromIndexes(true).build()).build();
        }
    }

    /** A batch record written before records were streamed reads back every image, exactly. */
    @Test
    void aBatchRecordWrittenByTheTreeEncoderStillGivesBackItsImages() throws IOException {
        assertThat(UndoBatch.imagesOf(golden())).isEqualTo(images());
    }

    /** Today's encoder writes the very JSON the tree encoder wrote: old and new records are one format. */
    @Test
    void aBatchIsWrittenAsTheSameJsonAsBefore() throws IOException {
        byte[] before = UndoImage.inflate(golden().getBlob("images").toByteArray());

        assertThat(new String(UndoBatch.json(images()), StandardCharsets.UTF_8))
                .isEqualTo(new String(before, StandardCharsets.UTF_8));
        Entity record = UndoBatch.of(LEDGER, "job", images(), Integer.MAX_VALUE, Long.MAX_VALUE).get(0).record();
        assertThat(UndoImage.inflate(record.getBlob("images").toByteArray())).isEqualTo(before);
    }

    /**
     * A record of one target (copies and imports) holds the same JSON as before too: the image as the batch holds it,
     * without its target (the record names it as a property).
     */
    @Test
    void aRecordOfOneTargetIsWrittenAsTheSameJsonAsBefore() throws IOException {
        ArrayNode batch = (ArrayNode) UndoImage.JSON.readTree(UndoImage.inflate(golden().getBlob("images")
                .toByteArray()));
        List<UndoImage> images = images();
        for (int i = 0; i < images.size(); i++) {
            ObjectNode before = (ObjectNode) batch.get(i);
            before.remove("target");
            Entity record = images.get(i).toEntity(UndoRecords.key(LEDGER, "job", images.get(i).target()));

            assertThat(new String(UndoImage.inflate(record.getBlob("image").toByteArray()), StandardCharsets.UTF_8))
                    .isEqualTo(UndoImage.JSON.writeValueAsString(before));
            assertThat(UndoImage.of(record)).isEqualTo(images.get(i));
        }
    }
}

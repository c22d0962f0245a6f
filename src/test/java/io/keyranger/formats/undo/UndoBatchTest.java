package io.keyranger.formats.undo;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import io.keyranger.datastore.EntitySize;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UndoBatchTest {
    private static final Key LEDGER = Key.newBuilder("p", "_KeyRangerLedger", "cell").build();

    private static Key key(String name) {
        return Key.newBuilder("p", "A", name).build();
    }

    private static Entity entity(Key key, long n) {
        return Entity.newBuilder(key).set("n", n).set("s", "x" + n).build();
    }

    /** A created, a changed, a deleted entity and one in another group: each image comes back as it was kept. */
    @Test
    void aBatchKeepsEveryImageOfACommitInOneRecordAndGivesThemBack() {
        Key child = Key.newBuilder("p", "B", 7).addAncestor(PathElement.of("A", "root")).setNamespace("ns").build();
        List<UndoImage> images = List.of(
                new UndoImage(key("created"), null, entity(key("created"), 1)),
                new UndoImage(key("changed"), entity(key("changed"), 2), entity(key("changed"), 3)),
                new UndoImage(key("deleted"), entity(key("deleted"), 4), null),
                new UndoImage(child, Entity.newBuilder(child).set("n", 5L).build(),
                        Entity.newBuilder(child).build()));

        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, Long.MAX_VALUE);

        assertThat(batches).hasSize(1);
        Entity record = batches.get(0).record();
        assertThat(record.getKey().getKind()).isEqualTo(UndoRecords.kind("job"));
        assertThat(record.getKey().getParent()).isEqualTo(LEDGER);
        assertThat(UndoRecords.isBatch(record.getKey())).isTrue();
        assertThat(UndoRecords.imagesIn(record.getKey())).isEqualTo(4);
        assertThat(UndoBatch.imagesOf(record)).isEqualTo(images);
    }

    /**
     * A batch is one record without measuring each image's entities when three times its JSON is within the budget
     * ({@link UndoBatch#of}): that holds only if the JSON is never smaller than the bytes reverting the images writes.
     * Images of every kind of value, created, changed and deleted entities, and values the JSON writes shortest.
     */
    @Test
    void threeTimesABatchsJsonBoundsWhatRevertingItWrites() {
        Key child = Key.newBuilder("p", "B", 7).addAncestor(PathElement.of("A", "root")).setNamespace("ns").build();
        byte[] random = new byte[5_000];
        new Random(7).nextBytes(random);
        Entity rich = Entity.newBuilder(key("rich")).set("i", Long.MIN_VALUE).set("d", 0.1).set("b", true)
                .set("s", "\u00e9\u4e2d" + "y".repeat(500)).set("k", child).set("blob", Blob.copyFrom(random))
                .set("e", FullEntity.newBuilder().set("x", 1L).build())
                .set("list", List.of(LongValue.of(1), LongValue.of(2)))
                .set("nothing", NullValue.of())
                .set("u", BlobValue.newBuilder(Blob.copyFrom(random)).setExcludeFromIndexes(true).setMeaning(22)
                        .build())
                .build();
        Entity small = Entity.newBuilder(child).set("n", 0L).set("b", false).build();
        List<UndoImage> images = List.of(
                new UndoImage(key("rich"), rich, Entity.newBuilder(rich).set("i", 1L).build()),
                new UndoImage(key("rich"), null, rich),
                new UndoImage(key("rich"), rich, null),
                new UndoImage(child, small, Entity.newBuilder(small).set("n", 1L).build()),
                new UndoImage(child, null, small),
                new UndoImage(child, small, null),
                new UndoImage(child, small, Entity.newBuilder(child).set("big", Blob.copyFrom(random)).build()));
        for (UndoImage image : images) {
            long json = UndoBatch.json(List.of(image)).length;
            assertThat(3 * json).as(image.toString()).isGreaterThanOrEqualTo(UndoBatch.restoreBytes(image));
        }
        long all = UndoBatch.json(images).length;
        assertThat(3 * all).isGreaterThanOrEqualTo(images.stream().mapToLong(UndoBatch::restoreBytes).sum());
    }

    /** A record of one target, the form kept before batches (and still by copies and imports), reads the same way. */
    @Test
    void aRecordOfOneTargetIsReadAsOneImage() {
        UndoImage image = new UndoImage(key("a"), entity(key("a"), 1), entity(key("a"), 2));
        Entity record = image.toEntity(UndoRecords.key(LEDGER, "job", key("a")));

        assertThat(UndoRecords.isBatch(record.getKey())).isFalse();
        assertThat(UndoRecords.imagesIn(record.getKey())).isEqualTo(1);
        assertThat(UndoBatch.imagesOf(record)).containsExactly(image);
    }

    /** At most {@code maxImages} a record (an entity-group limit), each record named by its own first target. */
    @Test
    void aBatchHoldsAtMostItsCapEachRecordNamedByItsFirstTarget() {
        List<UndoImage> images = new ArrayList<>();
        for (int i = 0; i < 45; i++) {
            images.add(new UndoImage(key("k" + i), entity(key("k" + i), i), entity(key("k" + i), i + 1)));
        }
        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, 19, Long.MAX_VALUE);

        assertThat(batches).extracting(b -> UndoRecords.imagesIn(b.record().getKey())).containsExactly(19, 19, 7);
        assertThat(batches.stream().map(b -> b.record().getKey()).distinct()).hasSize(3);
        assertThat(batches.stream().flatMap(b -> UndoBatch.imagesOf(b.record()).stream()).toList()).isEqualTo(images);
    }

    /** Images that do not compress, over the entity limit together: cut into records that fit; one alone is left over. */
    @Test
    void aBatchOverTheEntityLimitIsCutAndAnImageOverItAloneIsABatchThatDoesNotFit() {
        Random random = new Random(1);
        List<UndoImage> images = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            images.add(new UndoImage(key("big" + i), blob(key("big" + i), 300_000, random), null));
        }
        images.add(new UndoImage(key("huge"), blob(key("huge"), 1_100_000, random), null));

        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, Long.MAX_VALUE);

        assertThat(batches.stream().flatMap(b -> UndoBatch.imagesOf(b.record()).stream()).toList()).isEqualTo(images);
        List<UndoBatch> fitting = batches.stream().filter(UndoBatch::fits).toList();
        assertThat(fitting.stream().mapToInt(b -> b.images().size()).sum()).isEqualTo(5);
        assertThat(fitting).hasSizeGreaterThan(1)
                .allMatch(b -> EntitySize.bytes(b.record()) <= EntitySize.MAX_BYTES);
        assertThat(batches).filteredOn(b -> !b.fits()).singleElement()
                .satisfies(b -> assertThat(b.images()).extracting(UndoImage::target).containsExactly(key("huge")));
    }

    /**
     * Before-images that compress to almost nothing (zero-filled): one small record could hold them all, but its
     * revert writes each in full, so the batch is cut where the restore bytes pass the cap; one image alone is a batch.
     */
    @Test
    void aBatchWhoseRestoreIsOverTheCapIsCutThoughItCompresses() {
        List<UndoImage> images = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Entity zeros = Entity.newBuilder(key("z" + i)).set("data", BlobValue.newBuilder(
                    Blob.copyFrom(new byte[310_000])).setExcludeFromIndexes(true).build()).build();
            images.add(new UndoImage(key("z" + i), zeros, null));
        }
        long each = UndoBatch.restoreBytes(images.get(0));
        assertThat(each).isGreaterThanOrEqualTo(2 * 310_000L); // the put, and the revert's own undo image of it

        List<UndoBatch> batches = UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, 4 * each + 16); // names differ by a byte

        assertThat(batches).extracting(b -> b.images().size()).containsExactly(4, 4, 4);
        assertThat(batches).allMatch(UndoBatch::fits);
        assertThat(batches.stream().flatMap(b -> UndoBatch.imagesOf(b.record()).stream()).toList()).isEqualTo(images);
        assertThat(UndoBatch.of(LEDGER, "job", images, Integer.MAX_VALUE, 1)).hasSize(12);
    }

    private static Entity blob(Key key, int bytes, Random random) {
        byte[] data = new byte[bytes];
        random.nextBytes(data);
        return Entity.newBuilder(key).set("data", BlobValue.newBuilder(Blob.copyFrom(data))
                .setExcludeFromIndexes(true).build()).build();
    }
}

package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.KeyRangerException;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

class EntitySizeTest {
    private static final Key KEY = Key.newBuilder("p", "K", 1).build();

    /**
     * A key alone, counted by hand from the wire format: project "p" (3 bytes) in its partition (5), kind "K" (3) and
     * id 1 (2) in its path element (7), the key (12), the entity (14).
     */
    @Test
    void aKeyAloneIsItsSerializedBytesAndIsTheSameWhenAskedAgain() {
        Entity entity = Entity.newBuilder(KEY).build();

        assertThat(EntitySize.bytes(entity)).isEqualTo(14);
        assertThat(EntitySize.bytes(entity)).isEqualTo(14);
    }

    /** Sizes are kept by identity: a different entity of the same key gets its own size, never the other's. */
    @Test
    void twoEntitiesOfOneKeyEachGetTheirOwnSize() {
        Entity small = Entity.newBuilder(KEY).set("s", "x").build();
        Entity large = Entity.newBuilder(KEY).set("s", "x".repeat(1000)).build();

        int smallBytes = EntitySize.bytes(small);
        int largeBytes = EntitySize.bytes(large);

        // 999 more characters, and the string's, its value's and its property's lengths each take 2 bytes, not 1
        assertThat(largeBytes - smallBytes).isEqualTo(999 + 3);
        assertThat(EntitySize.bytes(Entity.newBuilder(small).build())).isEqualTo(smallBytes);
    }

    @Test
    void anEntityOverTheLimitIsRefusedWithItsKeyAndSize() {
        Entity huge = Entity.newBuilder(KEY).set("b", BlobValue.newBuilder(
                Blob.copyFrom(new byte[EntitySize.MAX_BYTES])).setExcludeFromIndexes(true).build()).build();

        assertThatThrownBy(() -> EntitySize.check(huge)).isInstanceOf(KeyRangerException.class)
                .hasMessageContaining("K:1").hasMessageContaining("over Datastore's limit of 1048572 bytes");
    }

    /** What is kept never keeps an entity alive: a job sizes millions of them. */
    @Test
    void aSizedEntityCanStillBeCollected() throws InterruptedException {
        WeakReference<Entity> sized = sizedAndDropped();

        for (int attempt = 0; attempt < 50 && sized.get() != null; attempt++) {
            System.gc();
            Thread.sleep(20);
        }

        assertThat(sized.get()).as("the entity, once sized and no longer used").isNull();
    }

    private static WeakReference<Entity> sizedAndDropped() {
        Entity entity = Entity.newBuilder(KEY).set("s", "y".repeat(100_000)).build();
        assertThat(EntitySize.bytes(entity)).isGreaterThan(100_000);
        return new WeakReference<>(entity);
    }
}

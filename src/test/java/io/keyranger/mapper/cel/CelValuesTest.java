package io.keyranger.mapper.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.LatLng;
import com.google.cloud.datastore.LatLngValue;
import com.google.cloud.datastore.ListValue;
import com.google.cloud.datastore.LongValue;
import com.google.cloud.datastore.NullValue;
import com.google.cloud.datastore.PathElement;
import com.google.cloud.datastore.StringValue;
import com.google.cloud.datastore.TimestampValue;
import com.google.cloud.datastore.Value;
import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Datastore values to CEL values and back, without a server. */
class CelValuesTest {
    private static final Key KEY = Key.newBuilder("p", "Account", 42).setNamespace("ns")
            .addAncestor(PathElement.of("Org", "o1")).build();

    @Test
    void scalarsConvertToTheirCelTypes() {
        assertThat(CelValues.toCel(LongValue.of(7))).isEqualTo(7L);
        assertThat(CelValues.toCel(DoubleValue.of(2.5))).isEqualTo(2.5);
        assertThat(CelValues.toCel(StringValue.of("gold"))).isEqualTo("gold");
        assertThat(CelValues.toCel(BooleanValue.of(true))).isEqualTo(true);
        assertThat(CelValues.toCel(NullValue.of())).isEqualTo(com.google.protobuf.NullValue.NULL_VALUE);
        Timestamp at = Timestamp.ofTimeSecondsAndNanos(1_700_000_000, 123_000);
        assertThat(CelValues.toCel(TimestampValue.of(at)))
                .isEqualTo(com.google.protobuf.Timestamp.newBuilder().setSeconds(1_700_000_000).setNanos(123_000)
                        .build());
        assertThat(CelValues.toCel(BlobValue.of(Blob.copyFrom(new byte[] {1, 2, 3}))))
                .isEqualTo(ByteString.copyFrom(new byte[] {1, 2, 3}));
    }

    @Test
    void scalarsRoundTrip() throws Exception {
        List<Value<?>> values = List.of(LongValue.of(Long.MIN_VALUE), DoubleValue.of(-0.5), StringValue.of("ü😀"),
                BooleanValue.of(false), NullValue.of(),
                TimestampValue.of(Timestamp.ofTimeSecondsAndNanos(-62_135_596_800L, 0)),
                BlobValue.of(Blob.copyFrom(new byte[] {0, (byte) 255})));
        for (Value<?> value : values) {
            assertThat(CelValues.toDatastore(CelValues.toCel(value))).as("%s", value).isEqualTo(value);
        }
    }

    @Test
    void keysAreMapsAndStayKeysWhenReturnedUnchanged() throws Exception {
        Object cel = CelValues.toCel(KeyValue.of(KEY));
        assertThat(cel).isInstanceOf(Map.class);
        Map<?, ?> map = (Map<?, ?>) cel;
        assertThat(map.get("kind")).isEqualTo("Account");
        assertThat(map.get("id")).isEqualTo(42L);
        assertThat(map.get("name")).isEqualTo(com.google.protobuf.NullValue.NULL_VALUE);
        assertThat(map.get("namespace")).isEqualTo("ns");
        assertThat(map.get("path")).isEqualTo("Org:\"o1\" > Account:42");
        assertThat(((Map<?, ?>) map.get("parent")).get("name")).isEqualTo("o1");
        assertThat(CelValues.toDatastore(cel)).isEqualTo(KeyValue.of(KEY));
    }

    @Test
    void listsAndEmbeddedEntitiesConvertBothWays() throws Exception {
        ListValue list = ListValue.of(LongValue.of(1), StringValue.of("a"));
        assertThat(CelValues.toCel(list)).isEqualTo(List.of(1L, "a"));
        assertThat(CelValues.toDatastore(List.of(1L, "a"))).isEqualTo(list);
        FullEntity<?> address = FullEntity.newBuilder().set("city", "Oslo").set("zip", 150L).build();
        Object cel = CelValues.toCel(EntityValue.of(address));
        assertThat(cel).isEqualTo(Map.of("city", "Oslo", "zip", 150L));
        assertThat(CelValues.toDatastore(Map.of("city", "Bergen"))).isEqualTo(EntityValue.of(
                FullEntity.newBuilder().set("city", "Bergen").build()));
        LatLngValue point = LatLngValue.of(LatLng.of(59.9, 10.7));
        assertThat(((Map<?, ?>) CelValues.toCel(point)).get("latitude")).isEqualTo(59.9);
        assertThat(CelValues.toDatastore(CelValues.toCel(point))).isEqualTo(point);
    }

    @Test
    void valuesDatastoreCannotStoreAreFailures() {
        assertThatThrownBy(() -> CelValues.toDatastore(Double.NaN)).isInstanceOf(ExpressionFailure.class)
                .satisfies(e -> assertThat(((ExpressionFailure) e).category()).isEqualTo("not a finite number"));
        assertThatThrownBy(() -> CelValues.toDatastore(Double.POSITIVE_INFINITY))
                .isInstanceOf(ExpressionFailure.class);
        assertThatThrownBy(() -> CelValues.toDatastore(List.of(List.of(1L))))
                .hasMessageContaining("list inside a list");
        assertThatThrownBy(() -> CelValues.toDatastore(Duration.newBuilder().setSeconds(3).build()))
                .hasMessageContaining("cannot store a duration");
        assertThatThrownBy(() -> CelValues.toDatastore(Map.of(1L, "x"))).hasMessageContaining("string keys");
        assertThatThrownBy(() -> CelValues.toDatastore(UnsignedLong.MAX_VALUE))
                .satisfies(e -> assertThat(((ExpressionFailure) e).category()).isEqualTo("overflow"));
    }

    @Test
    void unsignedIntegersThatFitBecomeIntegers() throws Exception {
        assertThat(CelValues.toDatastore(UnsignedLong.valueOf(5))).isEqualTo(LongValue.of(5));
    }
}

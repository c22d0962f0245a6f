package io.keyranger.mapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad specs get a message that names the field and what is expected. */
class TemplateSpecTest {
    private static void rejects(String json, String message) {
        assertThatThrownBy(() -> Mappers.create(MapperSpec.parse(json)))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining(message);
    }

    @Test
    void everyTemplateDescribesItself() {
        assertThat(Mappers.names()).contains("increment", "set", "remove-property", "rename-property", "delete", "copy",
                "count-by", "count", "touch");
        for (Template template : Mappers.templates()) {
            assertThat(template.description()).isNotBlank();
            template.params().forEach(p -> assertThat(p.description()).isNotBlank());
        }
        assertThat(Mappers.template("increment").idempotent()).isFalse();
        assertThat(Mappers.template("set").idempotent()).isTrue();
        assertThat(Mappers.template("count-by").writes()).isFalse();
    }

    /** What shows the data after a job reads again the kinds it wrote: a copy's target, or all after another namespace. */
    @Test
    void aCopyWritesItsTargetKindAndOtherTemplatesTheKindTheyRead() {
        assertThat(Mappers.writtenKinds(MapperSpec.parse("{\"template\": \"copy\", \"toKind\": \"B\"}"),
                List.of("A"))).containsExactly("B");
        assertThat(Mappers.writtenKinds(MapperSpec.parse("{\"template\": \"copy\", \"toNamespace\": \"n\"}"),
                List.of("A"))).as("another namespace: not known here").isNull();
        assertThat(Mappers.writtenKinds(MapperSpec.parse("{\"template\": \"increment\", \"property\": \"n\"}"),
                List.of("A", "C"))).containsExactly("A", "C");
    }

    @Test
    void badSpecsNameTheFieldAndWhatIsExpected() {
        rejects("{\"template\":\"increment\",\"amount\":10}", "Parameter 'property' of template 'increment' is required");
        rejects("{\"template\":\"increment\",\"property\":\"balance\",\"amount\":\"ten\"}",
                "Parameter 'amount' of template 'increment' must be a number");
        rejects("{\"template\":\"increment\",\"property\":\"__key__\",\"amount\":1}", "reserved property");
        rejects("{\"template\":\"increment\",\"property\":\"b\",\"amount\":1,\"amuont\":2}",
                "Parameter 'amuont' of template 'increment' is not a parameter of this template");
        rejects("{\"template\":\"set\",\"property\":\"active\",\"type\":\"boolean\",\"value\":\"maybe\"}",
                "must be true or false for type boolean");
        rejects("{\"template\":\"set\",\"property\":\"n\",\"type\":\"integer\",\"value\":2.5}", "must be a whole number");
        rejects("{\"template\":\"set\",\"property\":\"at\",\"type\":\"timestamp\",\"value\":\"yesterday\"}",
                "cannot be read as timestamp");
        rejects("{\"template\":\"rename-property\",\"from\":\"a\",\"to\":\"a\"}", "must differ from 'from'");
        rejects("{\"template\":\"copy\"}", "or 'toNamespace' must be given");
        rejects("{\"template\":\"increment\",\"property\":\"b\",\"amount\":1,\"createMissing\":\"yes\"}",
                "must be true or false");
        rejects("{\"template\":\"count\",\"where\":{\"tier\":\"pro\"}}", "\"where\" must be a list");
        rejects("[1,2]", "must be a JSON object");
        rejects("{\"template\":\"wipe\"}", "Unknown mapper template 'wipe'");
    }

    /**
     * A restore from the past that cannot be decided is refused by the template's check, which every runner (the
     * command line, the app, Beam's request) makes before a job is created.
     */
    @Test
    void aRestoreFromThePastThatCannotBeDecidedIsRefusedByItsSpec() {
        String past = "{\"template\":\"import\",\"format\":\"past\",\"asOf\":\"2026-11-27T10:00:00Z\"";
        for (String mode : new String[] {"skip-changed", "missing-only"}) {
            refused(past + ",\"removeAdded\":true,\"mode\":\"" + mode + "\"}",
                    "Parameter 'removeAdded' of template 'import' (--remove-added) deletes what did not exist");
        }
        refused(past + ",\"until\":\"2026-11-27T09:00:00Z\"}", "Parameter 'until' of template 'import' "
                + "(--until) must be after asOf");
        refused(past + ",\"until\":\"2026-11-27T11:00:00Z\",\"mode\":\"skip-changed\"}",
                "Parameter 'mode' of template 'import' does not apply with until");
        refused("{\"template\":\"import\",\"format\":\"past\",\"asOf\":\"2999-01-01T00:00:00Z\"}",
                "Parameter 'asOf' of template 'import' is in the future");
        refused(past + ",\"until\":\"2999-01-01T00:00:00Z\"}", "Parameter 'until' of template 'import' is in "
                + "the future");
        Mappers.template("import").validate(MapperSpec.parse(past + ",\"removeAdded\":true,\"until\":"
                + "\"2026-11-27T11:00:00Z\"}"));
        Mappers.template("import").validate(MapperSpec.parse(past + ",\"removeAdded\":true,\"mode\":"
                + "\"overwrite\"}"));
    }

    private static void refused(String json, String message) {
        assertThatThrownBy(() -> Mappers.template("import").validate(MapperSpec.parse(json)))
                .isInstanceOf(KeyRangerException.class).hasMessageContaining(message);
    }
}

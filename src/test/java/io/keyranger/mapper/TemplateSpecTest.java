package io.keyranger.mapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.keyranger.KeyRangerException;
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
}

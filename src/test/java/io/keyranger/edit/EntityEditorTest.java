package io.keyranger.edit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.Timestamp;
import com.google.cloud.datastore.Blob;
import com.google.cloud.datastore.BlobValue;
import com.google.cloud.datastore.BooleanValue;
import com.google.cloud.datastore.Datastore;
import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
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
import io.keyranger.KeyRangerException;
import io.keyranger.datastore.ConnectionSpec;
import io.keyranger.datastore.ServerLimits;
import io.keyranger.support.RawEntities;
import io.keyranger.support.RichEntities;
import io.keyranger.support.SharedEmulator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Editing entities on the real emulator, and every value type through the editor's text and back. */
class EntityEditorTest {
    private static ConnectionSpec conn;
    private static Datastore datastore;
    private static EntityEditor editor;

    @BeforeAll
    static void connect() {
        conn = SharedEmulator.freshProject("edit");
        datastore = SharedEmulator.connect(conn);
        editor = new EntityEditor(datastore, conn, ServerLimits.EMULATOR);
    }

    private static Key key(String name) {
        return datastore.newKeyFactory().setKind("Acct").newKey(name);
    }

    @Test
    void everyValueTypeSurvivesTheEditorsTextUnchanged() {
        PropertyDraft.Place place = new PropertyDraft.Place(conn.projectId(), conn.databaseId(), "");
        Key ref = datastore.newKeyFactory().setKind("Org").addAncestor(PathElement.of("Top", 3)).newKey("o'1");
        List<Value<?>> values = List.of(StringValue.of("héllo\nworld"), LongValue.of(Long.MIN_VALUE),
                DoubleValue.of(-2.5e-7), DoubleValue.of(Double.NaN), BooleanValue.of(true),
                TimestampValue.of(Timestamp.parseTimestamp("2024-05-01T09:30:00.123456Z")), NullValue.of(),
                KeyValue.of(ref), BlobValue.of(Blob.copyFrom(new byte[] {0, 1, (byte) 255})),
                LatLngValue.of(LatLng.of(48.85, 2.35)),
                ListValue.of(LongValue.of(1), StringValue.newBuilder("x").setExcludeFromIndexes(true).build()),
                EntityValue.of(FullEntity.newBuilder().set("city", "Paris").set("zip", 75001L).build()),
                StringValue.newBuilder("long text").setExcludeFromIndexes(true).build());
        for (Value<?> value : values) {
            PropertyDraft draft = PropertyDraft.of("p", value, place);
            assertThat(draft.toValue(place)).as(draft.type() + " " + draft.text()).isEqualTo(value);
        }
    }

    @Test
    void badTextSaysWhatToTypeInstead() {
        PropertyDraft.Place place = new PropertyDraft.Place(conn.projectId(), conn.databaseId(), "");
        assertThatThrownBy(() -> new PropertyDraft("p", "integer", "12.5", true).toValue(place))
                .hasMessage("An integer is a whole number such as 42 or -7.");
        assertThatThrownBy(() -> new PropertyDraft("p", "integer", "99999999999999999999", true).toValue(place))
                .hasMessageContaining("between");
        assertThatThrownBy(() -> new PropertyDraft("p", "boolean", "yes", true).toValue(place))
                .hasMessage("A boolean is true or false.");
        assertThatThrownBy(() -> new PropertyDraft("p", "timestamp", "yesterday", true).toValue(place))
                .hasMessageContaining("RFC 3339");
        assertThatThrownBy(() -> new PropertyDraft("p", "key", "KEY(Org)", true).toValue(place))
                .hasMessageContaining("GQL error at column 8");
        assertThatThrownBy(() -> new PropertyDraft("p", "array", "[1, 2", true).toValue(place))
                .hasMessageContaining("Not JSON");
        assertThatThrownBy(() -> new PropertyDraft("p", "array", "[{\"type\": \"integer\", \"value\": \"x\"}]", true)
                .toValue(place)).isInstanceOf(KeyRangerException.class).hasMessageContaining("Not a typed value");
        assertThatThrownBy(() -> new PropertyDraft("p", "geo", "91,0", true).toValue(place))
                .hasMessageContaining("latitude");
        assertThat(new PropertyDraft("__key__", "string", "", true).nameProblem(List.of())).contains("reserved");
        assertThat(new PropertyDraft("a", "string", "", true).nameProblem(List.of("a"))).contains("twice");
    }

    /**
     * Saving an edit of one property keeps every other property exactly as Datastore had it, with what the editor's
     * text does not show (meanings 15 and 22, a key value in another project, an embedded entity's incomplete key),
     * read back raw from the emulator; and an edited ndb text stays a text (meaning 15).
     */
    @Test
    @SuppressWarnings("deprecation") // meaning
    void anEditKeepsWhatTheTextDoesNotShow() throws Exception {
        PropertyDraft.Place place = new PropertyDraft.Place(conn.projectId(), conn.databaseId(), "");
        Entity original = RichEntities.withAppEngineValues(datastore, "Ndb", 1).get(0);
        datastore.put(original);
        Entity stored = datastore.get(original.getKey());
        Map<String, JsonNode> before = RawEntities.of(conn, "", "Ndb");

        Entity.Builder changed = Entity.newBuilder(stored.getKey());
        for (String name : stored.getNames()) {
            PropertyDraft draft = PropertyDraft.of(name, stored.getValue(name), place);
            if (name.equals("balance")) {
                draft = new PropertyDraft(name, draft.type(), "77", draft.indexed());
            } else if (name.equals("text")) {
                draft = new PropertyDraft(name, draft.type(), "edited text", draft.indexed());
            }
            changed.set(name, draft.toValue(place, stored.getValue(name)));
        }
        editor.update(stored, changed.build());

        JsonNode after = RawEntities.of(conn, "", "Ndb").values().iterator().next();
        JsonNode was = before.values().iterator().next();
        for (String name : stored.getNames()) {
            if (!name.equals("balance") && !name.equals("text")) {
                assertThat(after.path("properties").path(name)).as(name).isEqualTo(was.path("properties").path(name));
            }
        }
        assertThat(after.path("properties").path("balance").path("integerValue").asText()).isEqualTo("77");
        assertThat(after.path("properties").path("text").path("meaning").asInt()).isEqualTo(15);
        assertThat(after.path("properties").path("text").path("stringValue").asText()).isEqualTo("edited text");
        assertThat(after.path("properties").path("elsewhere").path("keyValue").path("partitionId")
                .path("projectId").asText()).isEqualTo("another-project");
    }

    /**
     * A key value pointing into another project (or another database) keeps it through the editor: its text names the
     * project and database, a toggled index flag or a renamed property keeps the value itself, a typed
     * KEY(PROJECT(...), ...) is read as written, and keys in an edited array's JSON keep theirs; read back raw.
     */
    @Test
    void anEditKeepsAKeyValuesOwnProjectAndDatabase() throws Exception {
        PropertyDraft.Place place = new PropertyDraft.Place(conn.projectId(), conn.databaseId(), "");
        Key foreign = Key.newBuilder("another-project", "Customer", "c1").setNamespace("ns-x").build();
        Key otherDatabase = Key.newBuilder("another-project", "Customer", "c2", "other-db").build();
        Entity original = Entity.newBuilder(datastore.newKeyFactory().setKind("Refs").newKey("r1"))
                .set("flagged", foreign)
                .set("renamed", KeyValue.newBuilder(otherDatabase).setExcludeFromIndexes(true).build())
                .set("listed", ListValue.of(KeyValue.of(foreign), LongValue.of(1))).build();
        datastore.put(original);
        Entity stored = datastore.get(original.getKey());

        PropertyDraft flagged = PropertyDraft.of("flagged", stored.getValue("flagged"), place);
        assertThat(flagged.text()).isEqualTo("KEY(PROJECT('another-project'), NAMESPACE('ns-x'), Customer, 'c1')");
        PropertyDraft renamed = PropertyDraft.of("renamed", stored.getValue("renamed"), place);
        assertThat(renamed.text()).isEqualTo("KEY(PROJECT('another-project'), DATABASE('other-db'), Customer, 'c2')");
        PropertyDraft listed = PropertyDraft.of("listed", stored.getValue("listed"), place);
        Entity changed = Entity.newBuilder(stored.getKey())
                .set("flagged", new PropertyDraft("flagged", "key", flagged.text(), false)
                        .toValue(place, stored.getValue("flagged")))
                .set("moved", new PropertyDraft("moved", "key", renamed.text(), renamed.indexed())
                        .toValue(place, stored.getValue("renamed")))
                .set("typed", new PropertyDraft("typed", "key", "KEY(PROJECT('another-project'), Customer, 7)", true)
                        .toValue(place, null))
                .set("listed", new PropertyDraft("listed", "array", listed.text().replace("\"1\"", "\"2\""), true)
                        .toValue(place, stored.getValue("listed")))
                .build();
        editor.update(stored, changed);

        JsonNode after = RawEntities.of(conn, "", "Refs").values().iterator().next()
                .path("properties");
        assertThat(after.path("flagged").path("excludeFromIndexes").asBoolean()).isTrue();
        assertThat(after.path("flagged").path("keyValue").path("partitionId").path("projectId").asText())
                .isEqualTo("another-project");
        assertThat(after.path("flagged").path("keyValue").path("partitionId").path("namespaceId").asText())
                .isEqualTo("ns-x");
        assertThat(after.path("moved").path("keyValue").path("partitionId").path("projectId").asText())
                .isEqualTo("another-project");
        assertThat(after.path("moved").path("keyValue").path("partitionId").path("databaseId").asText())
                .isEqualTo("other-db");
        assertThat(after.path("moved").path("excludeFromIndexes").asBoolean()).isTrue();
        assertThat(after.path("typed").path("keyValue").path("partitionId").path("projectId").asText())
                .isEqualTo("another-project");
        JsonNode items = after.path("listed").path("arrayValue").path("values");
        assertThat(items.path(0).path("keyValue").path("partitionId").path("projectId").asText())
                .isEqualTo("another-project");
        assertThat(items.path(1).path("integerValue").asText()).isEqualTo("2");
    }

    @Test
    void createEditMoveDeleteAndUndoEachStep() {
        Entity first = Entity.newBuilder(key("a")).set("balance", 10L).build();
        EntityEditor.Edit created = editor.create(first);
        assertThat(datastore.get(key("a"))).isEqualTo(first);
        assertThatThrownBy(() -> editor.create(first)).hasMessageContaining("exists already");

        Entity changed = Entity.newBuilder(first).set("balance", 20L).set("tier", "gold").build();
        EntityEditor.Edit edited = editor.update(first, changed);
        assertThat(datastore.get(key("a"))).isEqualTo(changed);
        editor.undo(edited);
        assertThat(datastore.get(key("a"))).isEqualTo(first);

        Entity moved = Entity.newBuilder(key("b"), first).build();
        EntityEditor.Edit move = editor.update(first, moved);
        assertThat(datastore.get(key("a"))).isNull();
        assertThat(datastore.get(key("b"))).isEqualTo(moved);
        editor.undo(move);
        assertThat(datastore.get(key("a"))).isEqualTo(first);
        assertThat(datastore.get(key("b"))).isNull();

        EntityEditor.Edit deleted = editor.delete(List.of(first));
        assertThat(datastore.get(key("a"))).isNull();
        editor.undo(deleted);
        assertThat(datastore.get(key("a"))).isEqualTo(first);
        editor.undo(created);
        assertThat(datastore.get(key("a"))).isNull();
    }

    @Test
    void anEntityChangedBySomeoneElseIsNotOverwrittenNorUndone() {
        Entity seen = Entity.newBuilder(key("c")).set("balance", 1L).build();
        datastore.put(seen);
        datastore.put(Entity.newBuilder(seen).set("balance", 2L).build()); // someone else
        assertThatThrownBy(() -> editor.update(seen, Entity.newBuilder(seen).set("balance", 5L).build()))
                .hasMessageContaining("was changed by someone else");
        assertThat(datastore.get(key("c")).getLong("balance")).isEqualTo(2);

        Entity current = datastore.get(key("c"));
        EntityEditor.Edit edit = editor.update(current, Entity.newBuilder(current).set("balance", 3L).build());
        datastore.put(Entity.newBuilder(current).set("balance", 4L).build());
        assertThatThrownBy(() -> editor.undo(edit)).hasMessageContaining("was changed by someone else");
        assertThat(datastore.get(key("c")).getLong("balance")).isEqualTo(4);
    }

    @Test
    void aSelectionLargerThanOneTransactionIsDeletedAndRestoredWhole() {
        List<Entity> many = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            many.add(Entity.newBuilder(datastore.newKeyFactory().setKind("Many").newKey(i + 1)).set("i", i).build());
        }
        datastore.put(many.toArray(new Entity[0]));
        EntityEditor.Edit deleted = editor.delete(many);
        assertThat(datastore.fetch(many.stream().map(Entity::getKey).toArray(Key[]::new))).containsOnlyNulls();
        editor.undo(deleted);
        assertThat(datastore.fetch(many.stream().map(Entity::getKey).toArray(Key[]::new)))
                .containsExactlyElementsOf(many);
    }

    @Test
    void aReadOnlyConnectionRefusesEveryEdit() {
        ConnectionSpec readOnly = new ConnectionSpec(conn.emulatorHost(), conn.projectId(), conn.databaseId(), "",
                null, true);
        EntityEditor refusing = new EntityEditor(datastore, readOnly, ServerLimits.EMULATOR);
        assertThatThrownBy(() -> refusing.create(Entity.newBuilder(key("ro")).build()))
                .hasMessageContaining("read-only");
        assertThat(datastore.get(key("ro"))).isNull();
    }
}

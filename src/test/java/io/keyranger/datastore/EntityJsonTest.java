package io.keyranger.datastore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.EntityValue;
import com.google.cloud.datastore.FullEntity;
import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.KeyValue;
import com.google.cloud.datastore.ListValue;
import org.junit.jupiter.api.Test;

/** The details pane's JSON says where a key value points when that is not where the entity is. */
class EntityJsonTest {
    @Test
    void aKeyValueIntoAnotherProjectDatabaseOrNamespaceSaysSo() throws Exception {
        Key away = Key.newBuilder("another-project", "Customer", "c1").setNamespace("ns-x").build();
        Key otherDatabase = Key.newBuilder("p", "Customer", "c2", "other-db").build();
        Entity entity = Entity.newBuilder(Key.newBuilder("p", "Acct", "a").build())
                .set("home", Key.newBuilder("p", "Customer", "c0").build())
                .set("away", away)
                .set("otherDb", otherDatabase)
                .set("listed", ListValue.of(KeyValue.of(away)))
                .set("embedded", EntityValue.of(FullEntity.newBuilder().set("ref", away).build()))
                .build();

        JsonNode json = new ObjectMapper().readTree(EntityJson.toPrettyJson(entity)).path("properties");
        assertThat(json.path("home").asText()).isEqualTo("Customer:\"c0\"");
        assertThat(json.path("away").asText()).isEqualTo("Customer:\"c1\" (project another-project, namespace ns-x)");
        assertThat(json.path("otherDb").asText()).isEqualTo("Customer:\"c2\" (database other-db)");
        assertThat(json.path("listed").path(0).asText()).isEqualTo(json.path("away").asText());
        assertThat(json.path("embedded").path("ref").asText()).isEqualTo(json.path("away").asText());
    }
}

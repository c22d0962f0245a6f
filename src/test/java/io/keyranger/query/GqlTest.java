package io.keyranger.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.Key;
import com.google.cloud.datastore.StructuredQuery.PropertyFilter;
import com.google.cloud.datastore.ValueType;
import io.keyranger.KeyRangerException;
import io.keyranger.keys.KeyOrder;
import org.junit.jupiter.api.Test;

class GqlTest {
    private static GqlQuery parse(String gql) {
        return Gql.parse(gql, "p", "ns");
    }

    @Test
    void readsSelectionKindConditionsOrderLimitAndOffset() {
        GqlQuery q = parse("select * from Account where tier = 'pro' and active = true and balance >= -2.5 "
                + "and created < DATETIME('2024-05-01T00:00:00Z') and owner IS NULL "
                + "and __key__ HAS ANCESTOR KEY(Org, 'acme') and region IN ('eu', \"us\") and level NOT IN (1, 2) "
                + "and `odd name` != 7 ORDER BY balance DESC, tier LIMIT 10 OFFSET 5");
        assertThat(q.kind()).isEqualTo("Account");
        assertThat(q.keysOnly()).isFalse();
        assertThat(q.conditions()).extracting(GqlQuery.Condition::op).containsExactly(GqlQuery.Op.EQUAL,
                GqlQuery.Op.EQUAL, GqlQuery.Op.GREATER_THAN_OR_EQUAL, GqlQuery.Op.LESS_THAN, GqlQuery.Op.EQUAL,
                GqlQuery.Op.HAS_ANCESTOR, GqlQuery.Op.IN, GqlQuery.Op.NOT_IN, GqlQuery.Op.NOT_EQUAL);
        assertThat(q.conditions().get(0).value().get()).isEqualTo("pro");
        assertThat(q.conditions().get(1).value().get()).isEqualTo(true);
        assertThat(q.conditions().get(2).value().get()).isEqualTo(-2.5);
        assertThat(q.conditions().get(3).value().getType()).isEqualTo(ValueType.TIMESTAMP);
        assertThat(q.conditions().get(4).value().getType()).isEqualTo(ValueType.NULL);
        Key ancestor = (Key) q.conditions().get(5).value().get();
        assertThat(ancestor.getProjectId()).isEqualTo("p");
        assertThat(ancestor.getNamespace()).isEqualTo("ns");
        assertThat(ancestor.getName()).isEqualTo("acme");
        assertThat(q.conditions().get(6).values()).extracting(v -> (Object) v.get()).containsExactly("eu", "us");
        assertThat(q.conditions().get(7).values()).extracting(v -> (Object) v.get()).containsExactly(1L, 2L);
        assertThat(q.conditions().get(8).property()).isEqualTo("odd name");
        assertThat(q.conditions().get(2).text()).isEqualTo("balance >= -2.5");
        assertThat(q.orders()).containsExactly(new GqlQuery.Order("balance", true), new GqlQuery.Order("tier", false));
        assertThat(q.limit()).isEqualTo(10);
        assertThat(q.offset()).isEqualTo(5);
    }

    @Test
    void readsKeysOnlyProjectionsAndKeysWithPaths() {
        assertThat(parse("SELECT __key__ FROM Account").keysOnly()).isTrue();
        assertThat(parse("SELECT tier, balance FROM Account").projection()).containsExactly("tier", "balance");
        GqlQuery q = parse("SELECT * FROM Acct WHERE ref = KEY(NAMESPACE('other'), Org, 'acme', Acct, 42)");
        Key key = (Key) q.conditions().get(0).value().get();
        assertThat(key.getNamespace()).isEqualTo("other");
        assertThat(key.getId()).isEqualTo(42L);
        assertThat(key.getParent().getName()).isEqualTo("acme");
        assertThat(parse("SELECT * FROM A WHERE s = 'it''s'").conditions().get(0).value().get()).isEqualTo("it's");
    }

    @Test
    void aKeyLiteralNamesTheProjectAndDatabaseThatAreNotTheConnectionsAndReadsBackWhole() {
        Key foreign = Key.newBuilder("another-project", "Org", "acme", "other-db").setNamespace("ns").build();
        String literal = Gql.keyLiteral(foreign, "p", "");
        assertThat(literal)
                .isEqualTo("KEY(PROJECT('another-project'), DATABASE('other-db'), NAMESPACE('ns'), Org, 'acme')");
        assertThat(Gql.key(literal, "p", "", "")).isEqualTo(foreign);
        Key home = Key.newBuilder("p", "Org", 7L, "db").build();
        assertThat(Gql.keyLiteral(home, "p", "db")).isEqualTo("KEY(Org, 7)");
        assertThat(Gql.key("KEY(Org, 7)", "p", "db", "")).isEqualTo(home);
        assertThat(Gql.keyLiteral(Key.newBuilder("p", "Org", 7L).build(), "p", "db"))
                .isEqualTo("KEY(DATABASE(''), Org, 7)");
    }

    @Test
    void errorsNameTheColumnAndWhatWasExpected() {
        assertThatThrownBy(() -> parse("SELEC * FROM A")).isInstanceOf(GqlException.class)
                .hasMessage("GQL error at column 1, at 'SELEC': expected SELECT at the start of the query.");
        assertThatThrownBy(() -> parse("SELECT * FROM A WHERE tier = pro")).isInstanceOf(GqlException.class)
                .hasMessageContaining("column 30").hasMessageContaining("quote strings, as in 'pro'");
        assertThatThrownBy(() -> parse("SELECT * FROM A WHERE tier = 'pro")).isInstanceOf(GqlException.class)
                .hasMessageContaining("column 30").hasMessageContaining("no closing '");
        assertThatThrownBy(() -> parse("SELECT * FROM A WHERE a = 1 OR b = 2")).isInstanceOf(GqlException.class)
                .hasMessageContaining("OR is not supported");
        assertThatThrownBy(() -> parse("SELECT * FROM A WHERE a ~ 1")).hasMessageContaining("unexpected character '~'");
        assertThatThrownBy(() -> parse("SELECT * FROM A WHERE a = @x")).hasMessageContaining("bindings");
        assertThatThrownBy(() -> parse("SELECT * FROM A WHERE a = 99999999999999999999"))
                .hasMessageContaining("does not fit");
        assertThatThrownBy(() -> parse("  ")).hasMessageContaining("empty");
        assertThat(((GqlException) catchError("SELECT * FROM A WHERE")).column()).isEqualTo(22);
    }

    private static Throwable catchError(String gql) {
        try {
            parse(gql);
        } catch (GqlException e) {
            return e;
        }
        throw new AssertionError("no error for " + gql);
    }

    @Test
    void aJobQuerySendsEqualitiesToTheServerAndKeepsTheRestForTheClient() {
        JobQuery q = JobQuery.of(parse("SELECT * FROM A WHERE tier = 'pro' AND balance > 10 AND x IS NULL "
                + "AND __key__ HAS ANCESTOR KEY(Org, 1) AND r IN ('a')"), KeyOrder.EMULATOR);
        assertThat(q.serverFilters()).hasSize(3).allSatisfy(f -> assertThat(f).isInstanceOf(PropertyFilter.class));
        assertThat(q.clientConditions()).extracting(GqlQuery.Condition::text).containsExactly("balance > 10",
                "r IN ('a')");
        assertThat(q.explain()).hasSize(2);
        assertThat(q.explain().get(1)).startsWith("balance > 10 AND r IN ('a'): checked on the client");
        assertThat(JobQuery.of(parse("SELECT __key__ FROM A WHERE tier = 'pro'"), KeyOrder.EMULATOR).filtersOnClient())
                .isFalse();
    }

    @Test
    void aJobQueryRefusesLimitOffsetOrderAndProjectionsWithAReason() {
        assertThatThrownBy(() -> JobQuery.of(parse("SELECT * FROM A LIMIT 5"), KeyOrder.EMULATOR))
                .isInstanceOf(KeyRangerException.class).hasMessageStartingWith("The query's LIMIT 5 cannot apply");
        assertThatThrownBy(() -> JobQuery.of(parse("SELECT * FROM A OFFSET 5"), KeyOrder.EMULATOR))
                .hasMessageStartingWith("The query's OFFSET 5 cannot apply");
        assertThatThrownBy(() -> JobQuery.of(parse("SELECT * FROM A ORDER BY b DESC"), KeyOrder.EMULATOR))
                .hasMessageStartingWith("The query's ORDER BY b DESC cannot apply");
        assertThatThrownBy(() -> JobQuery.of(parse("SELECT a FROM A"), KeyOrder.EMULATOR))
                .hasMessageStartingWith("The query's SELECT a cannot apply").hasMessageContaining("whole entities");
        assertThat(JobQuery.of(parse("SELECT * FROM A ORDER BY __key__"), KeyOrder.EMULATOR).kind()).isEqualTo("A");
    }
}

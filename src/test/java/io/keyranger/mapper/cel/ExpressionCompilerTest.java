package io.keyranger.mapper.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.datastore.DoubleValue;
import com.google.cloud.datastore.Entity;
import com.google.cloud.datastore.Key;
import io.keyranger.datastore.PropertyInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Compiling spec expressions and evaluating them on entities, without a server. */
class ExpressionCompilerTest {
    private static final Key KEY = Key.newBuilder("p", "Account", "alice").build();
    private static final PropertyTypes ACCOUNT = PropertyTypes.of(
            List.of(new PropertyInfo("balance", List.of("integer")), new PropertyInfo("tier", List.of("string")),
                    new PropertyInfo("score", List.of("integer", "double"))),
            List.of(Entity.newBuilder(KEY).set("balance", 5L).set("tier", "free").set("note", "unindexed").build()));

    private static Object eval(String source, Entity entity) throws ExpressionFailure {
        return ExpressionCompiler.compile("set.x", source, PropertyTypes.unknown(), ExpressionCompiler.Result.ANY)
                .evaluate(new EntityVariables(entity));
    }

    private static ExpressionFailure failure(String source, Entity entity) {
        try {
            Object result = eval(source, entity);
            throw new AssertionError("expected a failure, got " + result);
        } catch (ExpressionFailure f) {
            return f;
        }
    }

    @Test
    void readsPropertiesByNameThroughPropsAndTheKey() throws Exception {
        Entity entity = Entity.newBuilder(KEY).set("balance", 1500L).set("tier", "free").set("odd name", "x").build();
        assertThat(eval("balance * 2", entity)).isEqualTo(3000L);
        assertThat(eval("balance > 1000 ? 'gold' : tier", entity)).isEqualTo("gold");
        assertThat(eval("props['odd name'] + '!'", entity)).isEqualTo("x!");
        assertThat(eval("key.name + '@' + key.kind", entity)).isEqualTo("alice@Account");
        assertThat(eval("has(balance) && !has(legacy)", entity)).isEqualTo(true);
        assertThat(eval("has(props.tier)", entity)).isEqualTo(true);
    }

    @Test
    void failuresOfOneEntityAreCategorised() {
        Entity max = Entity.newBuilder(KEY).set("balance", Long.MAX_VALUE).set("tier", "free").build();
        assertThat(failure("balance * 2", max).category()).isEqualTo("overflow");
        assertThat(failure("balance * 2", max).detail()).startsWith("set.x: ").contains("overflow");
        Entity none = Entity.newBuilder(KEY).set("tier", "free").build();
        assertThat(failure("balance * 2", none).category()).isEqualTo("missing property 'balance'");
        Entity text = Entity.newBuilder(KEY).set("balance", "n/a").build();
        assertThat(failure("balance * 2", text).category()).isEqualTo("wrong type");
        assertThat(failure("balance / 0", max).category()).isEqualTo("division by zero");
        assertThat(failure("props.nothing", max).category()).isEqualTo("missing property");
    }

    @Test
    void whereMustBeACondition() throws Exception {
        assertThatThrownBy(() -> ExpressionCompiler.compile("where", "balance * 2", ACCOUNT,
                ExpressionCompiler.Result.BOOL)).isInstanceOf(ExpressionException.class)
                .hasMessageContaining("Expression where").hasMessageContaining("must be true or false");
        EntityExpression where = ExpressionCompiler.compile("where", "has(balance) && tier != 'closed'",
                PropertyTypes.unknown(), ExpressionCompiler.Result.BOOL);
        assertThat(where.test(new EntityVariables(Entity.newBuilder(KEY).set("balance", 1L).set("tier", "pro")
                .build()))).isTrue();
        assertThat(where.test(new EntityVariables(Entity.newBuilder(KEY).set("tier", "pro").build()))).isFalse();
        EntityExpression dynamic = ExpressionCompiler.compile("where", "tier", PropertyTypes.unknown(),
                ExpressionCompiler.Result.BOOL);
        assertThatThrownBy(() -> dynamic.test(new EntityVariables(Entity.newBuilder(KEY).set("tier", "pro").build())))
                .isInstanceOf(ExpressionFailure.class).hasMessageContaining("instead of true or false");
    }

    @Test
    void typeErrorsAgainstTheKindNameTheExpressionAndPosition() {
        assertThatThrownBy(() -> ExpressionCompiler.compile("set.balance", "balance * 'x'", ACCOUNT,
                ExpressionCompiler.Result.ANY))
                .isInstanceOfSatisfying(ExpressionException.class, e -> {
                    assertThat(e.expression()).isEqualTo("set.balance");
                    assertThat(e.line()).isEqualTo(1);
                    assertThat(e.column()).isEqualTo(9);
                })
                .hasMessageStartingWith("Expression set.balance (line 1, column 9): found no matching overload")
                .hasMessageContaining("  | balance * 'x'\n  | ........^");
        assertThatThrownBy(() -> ExpressionCompiler.compile("where", "tier == 'gold' &&\n  nosuchprop + 1 > 2",
                ACCOUNT, ExpressionCompiler.Result.BOOL))
                .hasMessageStartingWith("Expression where (line 2, column 3): undeclared reference to 'nosuchprop'")
                .hasMessageContaining("the kind has no such property");
        assertThatThrownBy(() -> ExpressionCompiler.compile("set.tier", "balance +", ACCOUNT,
                ExpressionCompiler.Result.ANY)).hasMessageStartingWith("Expression set.tier (line 1, column");
    }

    @Test
    void theKindsTypesAllowWhatTheyShould() throws Exception {
        ExpressionCompiler.compile("set.tier", "balance > 1000 ? 'gold' : tier", ACCOUNT,
                ExpressionCompiler.Result.ANY);
        ExpressionCompiler.compile("set.note", "note + '!'", ACCOUNT, ExpressionCompiler.Result.ANY);
        EntityExpression mixed = ExpressionCompiler.compile("set.score", "score * 2.0", ACCOUNT,
                ExpressionCompiler.Result.ANY);
        assertThat(mixed.evaluate(new EntityVariables(Entity.newBuilder(KEY).set("score", DoubleValue.of(1.5))
                .build()))).isEqualTo(3.0);
        assertThatThrownBy(() -> ExpressionCompiler.compile("set.x", "note * 2", ACCOUNT,
                ExpressionCompiler.Result.ANY)).isInstanceOf(ExpressionException.class);
    }

    @Test
    void onlyIdentifiersThatAreNotReservedAreVariables() {
        assertThat(ExpressionCompiler.isVariableName("balance")).isTrue();
        assertThat(ExpressionCompiler.isVariableName("_x1")).isTrue();
        assertThat(ExpressionCompiler.isVariableName("odd name")).isFalse();
        assertThat(ExpressionCompiler.isVariableName("1st")).isFalse();
        assertThat(ExpressionCompiler.isVariableName("in")).isFalse();
        assertThat(ExpressionCompiler.isVariableName("int")).isFalse();
        assertThat(ExpressionCompiler.isVariableName("key")).isFalse();
        assertThat(ExpressionCompiler.isVariableName("props")).isFalse();
    }

    @Test
    void hasTakesAPropertyOnly() {
        assertThatThrownBy(() -> ExpressionCompiler.compile("where", "has(1)", PropertyTypes.unknown(),
                ExpressionCompiler.Result.BOOL)).hasMessageContaining("has() takes a property");
    }
}
